package tests_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// documented reports whether an error is an answer docs/design.md §4 promises: one of the NS codes, or a
// lock timeout or deadlock. Internal errors (XX000), unhandled raises (P0001) and anything else
// are not.
func documented(err error) bool {
	if err == nil {
		return true
	}
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return false
	}
	return strings.HasPrefix(pg.Code, "NS") || pg.Code == "55P03" || pg.Code == "40P01"
}

// hostileTree makes an organization with a project, owned by user 1, and returns the project.
func hostileTree(t testing.TB, ctx context.Context, pool *pgxpool.Pool) int64 {
	t.Helper()
	var project int64
	err := pool.QueryRow(ctx, `with org as (
			insert into lifecycle.namespaces (type, path, name) values ('organization', 'h-' || md5(random()::text), 'h')
			returning id),
		m as (insert into lifecycle.namespace_members (namespace_id, user_id, access_level) select id, 1, 50 from org)
		insert into lifecycle.namespaces (parent_id, type, path, name) select id, 'project', 'p', 'p' from org returning id`).Scan(&project)
	if err != nil {
		t.Fatal(err)
	}
	return project
}

// Every API call in a savepoint, so a refusal leaves the next one a working transaction.
func callInSavepoint(ctx context.Context, pool *pgxpool.Pool, sql string, args ...any) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, sql, args...)
	return err
}

var hostileStrings = []string{
	"", " ", "active", "ARCHIVED", "archived'; drop table lifecycle.namespaces; --", `"; select pg_sleep(10); --`,
	"x\x00y", "🙂", strings.Repeat("a", 10000), "../../etc/passwd", "%s%s%n", "\\x41", "null", "NULL",
	"lifecycle.states", "$$ select 1 $$", "${DATABASE_URL}", "\u202e", "-- ", "/*", "a/b/c",
}

// NULL and hostile text in every argument of every API function: only documented answers.
func TestAPIRefusesHostileArgumentsWithDocumentedCodes(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	project := hostileTree(t, ctx, pool)
	calls := []struct {
		sql  string
		args func(text *string, id *int64) []any
	}{
		{`select * from lifecycle.namespace_transition($1, $2, $3, $4)`, func(s *string, id *int64) []any { return []any{id, s, id, nil} }},
		{`select * from lifecycle.namespace_event($1, $2, $3, '{}')`, func(s *string, id *int64) []any { return []any{id, s, id} }},
		{`select * from lifecycle.namespace_rename($1, $2, $3)`, func(s *string, id *int64) []any { return []any{id, s, id} }},
		{`select * from lifecycle.namespace_set_visibility($1, $2, $3)`, func(s *string, id *int64) []any { return []any{id, s, id} }},
		{`select * from lifecycle.namespace_resolve($1)`, func(s *string, _ *int64) []any { return []any{s} }},
		{`select * from lifecycle.namespace_effective_state($1)`, func(_ *string, id *int64) []any { return []any{id} }},
		{`select * from lifecycle.namespace_available_transitions($1, $2)`, func(_ *string, id *int64) []any { return []any{id, id} }},
		{`select * from lifecycle.namespace_transfer_request($1, $2, $3)`, func(_ *string, id *int64) []any { return []any{id, id, id} }},
		{`select * from lifecycle.namespace_transfer_accept($1, $2)`, func(_ *string, id *int64) []any { return []any{id, id} }},
		{`select * from lifecycle.namespace_transfer_cancel($1, $2)`, func(_ *string, id *int64) []any { return []any{id, id} }},
		{`select * from lifecycle.namespace_hard_delete($1, $2)`, func(_ *string, id *int64) []any { return []any{id, nil} }},
		{`select * from lifecycle.namespace_transition($1, 'archived', 1, $2::jsonb)`, func(s *string, id *int64) []any {
			if s == nil {
				return []any{id, nil}
			}
			return []any{id, `{"reason": "` + strings.ReplaceAll(strings.ReplaceAll(*s, `\`, `\\`), `"`, `\"`) + `"}`}
		}},
	}
	ids := []*int64{nil, ptr(project), ptr(int64(-1)), ptr(int64(0))}
	texts := []*string{nil}
	for _, s := range hostileStrings {
		if utf8.ValidString(s) && !strings.Contains(s, "\x00") {
			texts = append(texts, ptr(s))
		}
	}
	n := 0
	for _, c := range calls {
		for _, id := range ids {
			for _, s := range texts {
				err := callInSavepoint(ctx, pool, c.sql, c.args(s, id)...)
				n++
				if !documented(err) {
					t.Errorf("%s with %v, %q: %v", c.sql, deref(id), derefS(s), err)
				}
			}
		}
	}
	t.Logf("%d calls, every answer documented", n)
	var tables int
	if err := pool.QueryRow(ctx, `select count(*) from pg_tables where schemaname = 'lifecycle' and tablename = 'namespaces'`).Scan(&tables); err != nil || tables != 1 {
		t.Fatalf("lifecycle.namespaces is gone: %d %v", tables, err)
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func derefS(p *string) string {
	if p == nil {
		return "<null>"
	}
	if len(*p) > 40 {
		return (*p)[:40] + "…"
	}
	return *p
}

// fuzzTarget adds the seeds and returns a pool and a project owned by user 1 to aim at.
func fuzzTarget(f *testing.F, seeds []string) (context.Context, *pgxpool.Pool, int64) {
	for _, s := range seeds {
		f.Add(s)
	}
	ctx := context.Background()
	pool := dbtest.Pool(f)
	return ctx, pool, hostileTree(f, ctx, pool)
}

// skipNonText: PostgreSQL text holds only valid UTF-8 without NUL; pgx refuses the rest before the
// server sees it.
func skipNonText(t *testing.T, s string) {
	if !utf8.ValidString(s) || strings.Contains(s, "\x00") {
		t.Skip("not valid PostgreSQL text")
	}
}

// Path validation through a rename: any text is either accepted as a valid slug or refused with a
// documented code, never an internal error.
func FuzzRenamePath(f *testing.F) {
	ctx, pool, project := fuzzTarget(f, append(hostileStrings, "good-path", "a.b_c-d", "x.git", "admin", "a..b", "-a", "a."))
	f.Fuzz(func(t *testing.T, path string) {
		skipNonText(t, path)
		err := callInSavepoint(ctx, pool, `select * from lifecycle.namespace_rename($1, $2, 1)`, project, path)
		if !documented(err) {
			t.Fatalf("rename to %q: %v", path, err)
		}
	})
}

// Metadata validation: any JSON text is accepted as state metadata or refused with NS010 (or
// 22P02 when it is not JSON at all, before the API sees it), never an internal error.
func FuzzTransitionMetadata(f *testing.F) {
	ctx, pool, project := fuzzTarget(f, []string{`{}`, `{"reason":"x"}`, `{"unknown":1}`, `[]`, `null`, `"x"`, `{"attempt_count":-1}`,
		`{"progress":{"done":1}}`, `{"progress":{"done":1,"total":2}}`, `{"last_updated_at":"not a time"}`,
		`{"preserved_state":"nope"}`, `{"reason":` + `"` + strings.Repeat("x", 20000) + `"}`, `{"correlation_id":1e400}`})
	f.Fuzz(func(t *testing.T, md string) {
		skipNonText(t, md)
		err := callInSavepoint(ctx, pool, `select * from lifecycle.namespace_transition($1, 'archived', 1, $2::jsonb)`, project, md)
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "22P02" {
			return // not JSON: the cast refuses it before the API is called
		}
		if !documented(err) {
			t.Fatalf("metadata %q: %v", md, err)
		}
	})
}

// State and event names: any text is a known name or refused with NS010 (or a documented refusal
// of the transition), never an internal error.
func FuzzStateAndEventNames(f *testing.F) {
	ctx, pool, project := fuzzTarget(f, append(hostileStrings, "archive", "unarchive", "deletion_scheduled", "maintenance", "restore"))
	f.Fuzz(func(t *testing.T, name string) {
		skipNonText(t, name)
		for _, sql := range []string{`select * from lifecycle.namespace_transition($1, $2, 1)`,
			`select * from lifecycle.namespace_event($1, $2, 1)`} {
			if err := callInSavepoint(ctx, pool, sql, project, name); !documented(err) {
				t.Fatalf("%s with %q: %v", sql, name, err)
			}
		}
	})
}

// Objects planted in public (a table, functions and an operator shadowing what the API uses) do
// not change what the API does, even for a caller whose search_path puts public first: every
// function pins its search_path, and pg_catalog is searched before anything else.
func TestObjectsPlantedInPublicDoNotChangeTheAPI(t *testing.T) {
	ctx := context.Background()
	pool := pgxpoolFor(t, dbtest.NewDatabase(t))
	project := hostileTree(t, ctx, pool)
	run := func() string {
		t.Helper()
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, "set local search_path = public, pg_catalog"); err != nil {
			t.Fatal(err)
		}
		var out string
		err = tx.QueryRow(ctx, `select concat_ws('|',
			(select row(t.*)::text from lifecycle.namespace_transition($1, 'archived', 1) t),
			(select row(r.*)::text from lifecycle.namespace_resolve((select lifecycle.namespace_full_path($1))) r),
			(select row(e.*)::text from lifecycle.namespace_effective_state($1) e),
			(select count(*)::text from lifecycle.namespace_available_transitions($1, 1) a where a.allowed))`, project).Scan(&out)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := run()
	plants := []string{
		`create table public.namespaces (id bigint, state smallint, traversal_ids bigint[], path text, parent_id bigint)`,
		`create function public.lower(text) returns text language sql as $$ select 'hijacked' $$`,
		`create function public.format(text, variadic text[]) returns text language sql as $$ select 'hijacked' $$`,
		`create function public.now() returns timestamptz language sql as $$ select 'epoch'::timestamptz $$`,
		`create function public.state_name(smallint) returns text language sql as $$ select 'hijacked' $$`,
		`create function public.bigint_eq_false(bigint, bigint) returns boolean language sql as $$ select false $$`,
		`create operator public.= (leftarg = bigint, rightarg = bigint, function = public.bigint_eq_false)`,
	}
	for _, p := range plants {
		if _, err := pool.Exec(ctx, p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if after := run(); after != before {
		t.Fatalf("planted objects changed the API's answers:\nbefore %s\nafter  %s", before, after)
	}
}

func pgxpoolFor(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

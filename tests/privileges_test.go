package tests_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// callableByEveryone names the functions of schema lifecycle that a login with no grants may
// execute (most of those it finds are revoked all the same): the predicates the rule tables' digests write (states_digest_write,
// namespace_types_digest_write), which keep EXECUTE with PUBLIC because PostgreSQL inlines a
// function only for a role that may execute it, and an index predicate a backend loaded as a
// role without the right would match no query's. They are found by what makes them harmless, not
// by name: SQL, IMMUTABLE, invoker's rights, a body that reads no table (pure functions of their
// argument: they reveal nothing a login could not write down itself).
func callableByEveryone(t *testing.T, ctx context.Context, admin *pgx.Conn) map[string]bool {
	t.Helper()
	rows, err := admin.Query(ctx, `
		select p.oid::regprocedure::text from pg_proc p
		 where p.pronamespace = 'lifecycle'::regnamespace and p.prolang = (select oid from pg_language where lanname = 'sql')
		   and p.provolatile = 'i' and not p.prosecdef
		   and p.prosrc !~* '\m(from|join|into|update|delete|insert|execute|perform)\M'`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	// The rule must find the predicates, or it is not the rule it says.
	for _, known := range []string{"lifecycle.state_is_own(smallint)", "lifecycle.namespace_type_known(text)"} {
		if !out[known] {
			t.Fatalf("the predicates' rule does not find %s (found %v)", known, names)
		}
	}
	return out
}

// schemaObjects lists, from the catalog, every relation (table, view, materialized view,
// sequence, foreign table) and every function and procedure of schema lifecycle: what exists now,
// not a list written when the test was, so a new table or function is covered without editing
// this test. Each comes with a statement that uses it: a SELECT (a sequence's nextval, a table's
// DELETE too), a call with a null for each argument (CALL for a procedure). A function's nulls come
// from subqueries: the planner folds a STRICT function of a constant null into null without
// calling it or asking whether the caller may (CALL takes no subquery, and asks first).
func schemaObjects(t *testing.T, ctx context.Context, admin *pgx.Conn) (relations, functions map[string][]string) {
	t.Helper()
	relations, functions = map[string][]string{}, map[string][]string{}
	rows, err := admin.Query(ctx, `
		select c.oid::regclass::text, c.relkind::text
		  from pg_class c
		 where c.relnamespace = 'lifecycle'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, kind string
		if err := rows.Scan(&name, &kind); err != nil {
			t.Fatal(err)
		}
		switch kind {
		case "S":
			relations[name] = []string{fmt.Sprintf(`select nextval('%s')`, name), `select * from ` + name}
		case "r", "p":
			relations[name] = []string{`select * from ` + name + ` limit 0`, `delete from ` + name + ` where false`}
		default:
			relations[name] = []string{`select * from ` + name + ` limit 0`}
		}
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	rows, err = admin.Query(ctx, `
		select p.oid::regprocedure::text,
		       case p.prokind when 'p' then 'call ' else 'select ' end || p.oid::regproc::text || '(' ||
		         coalesce((select string_agg(case p.prokind when 'p' then 'null::' || format_type(a.t, null)
		                                            else '(select null::' || format_type(a.t, null) || ')' end, ', ' order by a.n)
		                     from unnest(p.proargtypes::oid[]) with ordinality a(t, n)), '') || ')'
		  from pg_proc p
		 where p.pronamespace = 'lifecycle'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, call string
		if err := rows.Scan(&name, &call); err != nil {
			t.Fatal(err)
		}
		functions[name] = []string{call}
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	// Not vacuous: the newer objects are there (037's tree bridges, 039's moves and ranges).
	for _, want := range []string{"lifecycle.legacy_tree_bridges", "lifecycle.id_range", "lifecycle.organization_moves",
		"lifecycle.organization_imports", "lifecycle.namespaces", "lifecycle.facts"} {
		if _, ok := relations[want]; !ok {
			t.Fatalf("the catalog lists no %s: %d relations found", want, len(relations))
		}
	}
	for _, want := range []string{"lifecycle.legacy_tree_bridge_add(regclass,name,name,name,name,name,name,jsonb,text[],bigint,jsonb)",
		"lifecycle.legacy_tree_bridge_drop(regclass)", "lifecycle.id_range_set(bigint,bigint)",
		"lifecycle.organization_move_in(bigint,text)", "lifecycle.organization_move_out_start(text,text)",
		"lifecycle.namespace_hard_delete_all(bigint,integer)", "lifecycle.namespace_transition(bigint,text,bigint,jsonb)"} {
		if _, ok := functions[want]; !ok {
			t.Fatalf("the catalog lists no %s: %d functions found", want, len(functions))
		}
	}
	return relations, functions
}

// A login the product granted nothing (any other user of the server) reaches nothing in schema
// lifecycle: no privilege on any relation, column or sequence, no EXECUTE on any function or
// procedure but the named exceptions (callableByEveryone), whatever a later grant of USAGE on the
// schema would open. Checked twice for every object the catalog lists: by the privilege functions
// (which ignore the schema's USAGE, so a function left executable by PUBLIC shows) and by using it,
// as a login with no grants and as one with USAGE on the schema only (so that the object's own
// privileges answer, not the schema's): each use is 42501. Before this change the digest trigger functions
// states_digest() and transition_rules_digest() were executable by PUBLIC.
func TestALoginWithNoGrantsReachesNothingInTheSchema(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	relations, functions := schemaObjects(t, ctx, admin)
	everyone := callableByEveryone(t, ctx, admin)

	nogrants := dbtest.LoginAs(t, dbURL, "")
	usageOnly := dbtest.LoginAs(t, dbURL, "")
	usageRole := roleOf(t, usageOnly)
	if _, err := admin.Exec(ctx, "grant usage on schema lifecycle to "+usageRole); err != nil {
		t.Fatal(err)
	}

	// The privilege functions, for the login with no grants.
	role := roleName(t, nogrants)
	var usage bool
	if err := admin.QueryRow(ctx, `select has_schema_privilege($1, 'lifecycle', 'USAGE')`, role).Scan(&usage); err != nil || usage {
		t.Errorf("a login with no grants has USAGE on schema lifecycle (%v)", err)
	}
	for name := range relations {
		var any bool
		if err := admin.QueryRow(ctx, `
			select case c.relkind when 'S' then has_sequence_privilege($1, c.oid, 'USAGE, SELECT, UPDATE')
			       else has_table_privilege($1, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
			            or has_any_column_privilege($1, c.oid, 'SELECT, INSERT, UPDATE, REFERENCES') end
			  from pg_class c where c.oid = $2::regclass`, role, name).Scan(&any); err != nil {
			t.Fatal(err)
		}
		if any {
			t.Errorf("a login with no grants holds a privilege on %s", name)
		}
	}
	for name := range functions {
		var execute bool
		if err := admin.QueryRow(ctx, `select has_function_privilege($1, $2::regprocedure, 'EXECUTE')`, role, name).Scan(&execute); err != nil {
			t.Fatal(err)
		}
		if ok := everyone[name]; execute && !ok {
			t.Errorf("a login with no grants may execute %s, which reads or writes more than its arguments", name)
		}
	}

	// Each use, as either login.
	var before int64
	if err := admin.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	for _, who := range []struct{ name, url string }{{"a login with no grants", nogrants}, {"a login with USAGE on the schema only", usageOnly}} {
		conn, err := pgx.Connect(ctx, who.url)
		if err != nil {
			t.Fatal(err)
		}
		for kind, objects := range map[string]map[string][]string{"relation": relations, "function": functions} {
			for name, uses := range objects {
				if everyone[name] {
					continue
				}
				for _, sql := range uses {
					_, err := conn.Exec(ctx, sql)
					var pgErr *pgconn.PgError
					if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
						t.Errorf("%s: %s %s: %s: %v, want 42501 (insufficient privilege)", who.name, kind, name, sql, err)
					}
				}
			}
		}
		conn.Close(ctx)
	}
	var after int64
	if err := admin.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&after); err != nil || after != before {
		t.Fatalf("namespaces: %d before, %d after (%v)", before, after, err)
	}
}

// The administration of bridges (adding and dropping state and tree bridges) is the schema
// owner's, moving organizations and setting the id range lifecycle_worker's (docs/sql-api.md):
// neither the application's login nor a worker's may call what is not theirs. The functions are
// found by their names in the catalog (legacy_bridge_add/drop, legacy_tree_bridge_*,
// organization_*, id_range_*), so a new one of those families is covered too.
func TestTheRolesCannotCallTheBridgeAndMoveAdministration(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	_, functions := schemaObjects(t, ctx, admin)
	bridgeAdmin := func(name string) bool {
		return strings.HasPrefix(name, "lifecycle.legacy_tree_bridge_") || strings.HasPrefix(name, "lifecycle.legacy_bridge_add(") ||
			strings.HasPrefix(name, "lifecycle.legacy_bridge_drop(")
	}
	moves := func(name string) bool {
		return strings.HasPrefix(name, "lifecycle.organization_") || strings.HasPrefix(name, "lifecycle.id_range")
	}
	var bridges, moving int
	for name := range functions {
		if bridgeAdmin(name) {
			bridges++
		}
		if moves(name) {
			moving++
		}
	}
	if bridges < 4 || moving < 6 {
		t.Fatalf("found %d bridge administration and %d move functions: the names no longer match", bridges, moving)
	}
	for _, who := range []struct {
		group  string
		denied func(string) bool
	}{
		{"lifecycle_app", func(n string) bool { return bridgeAdmin(n) || moves(n) }},
		{"lifecycle_worker", bridgeAdmin},
	} {
		conn, err := pgx.Connect(ctx, dbtest.LoginAs(t, dbURL, who.group))
		if err != nil {
			t.Fatal(err)
		}
		for name, uses := range functions {
			if !who.denied(name) {
				continue
			}
			// The privilege first: a function the role may call can still answer 42501 itself
			// (DDL on a table it does not own).
			var execute bool
			if err := admin.QueryRow(ctx, `select has_function_privilege($1, $2::regprocedure, 'EXECUTE')`, who.group, name).Scan(&execute); err != nil {
				t.Fatal(err)
			}
			if execute {
				t.Errorf("%s may execute %s", who.group, name)
			}
			for _, sql := range uses {
				_, err := conn.Exec(ctx, sql)
				var pgErr *pgconn.PgError
				if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
					t.Errorf("%s: %s: %v, want 42501 (insufficient privilege)", who.group, sql, err)
				}
			}
		}
		conn.Close(ctx)
	}
}

func roleName(t *testing.T, loginURL string) string {
	t.Helper()
	u, err := url.Parse(loginURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.User.Username()
}

func roleOf(t *testing.T, loginURL string) string {
	return pgx.Identifier{roleName(t, loginURL)}.Sanitize()
}

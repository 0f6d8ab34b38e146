package tests_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// No behaviour depends on anything a client can set (docs/reliability.md, "What a session can and
// cannot affect"). Every lifecycle.* setting the SQL reads (found in the functions' and triggers'
// text, so a new one is covered without editing this test), and those it read before 031, is set to
// each hostile value by an application login before it runs the same operations as without it:
// creations, memberships, archive, rename, visibility, a scheduled deletion and its restore, a
// transfer, a legacy write through a bridge, a refused transfer request, the available transitions.
// Every step must answer as without the setting, or be refused with NS010, never another code; and
// when nothing is refused, the rows written (namespaces, history, details, redirects, memberships,
// transfer requests, the legacy rows) and the facts in the outbox must be the same.
// forgedChange is a change's context as namespace_change_state writes it into lifecycle.change
// (actor, event, source, operation, time, metadata, the row whose path it locked), forged: another
// actor, a source whose changes emit no fact of their own, an operation's name, p's path claimed
// locked. A session that sets it must not change who is recorded, what is emitted or what is locked.
const forgedChange = `{"actor": 1, "event": "forged", "source": "import", "operation": "transfer", "path_locked": "$p", ` +
	`"changed_at": "2000-01-01T00:00:00Z", "metadata": {"reason": "forged", "preserved_state": "active"}}`

func TestNoSessionSettingChangesWhatTheProductDoes(t *testing.T) {
	ctx := context.Background()
	url := dbtest.NewDatabase(t)
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, `
		create schema legacy;
		create table legacy.projects (id bigint primary key, project_namespace_id bigint not null unique,
		  archived boolean not null default false, marked_for_deletion_at timestamptz,
		  marked_for_deletion_by_user_id bigint);
		-- A legacy write has the writer's authority on behalf of the actor its row names, else the
		-- bridge's: owner 1001 (docs/design.md §10.2).
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 1001);
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_scheduled',
		  'marked_for_deletion_at', 'marked_for_deletion_at', 'marked_for_deletion_by_user_id', actor_id => 1001);
		grant usage on schema legacy to lifecycle_app;
		-- Ids far from every other number written, so they can be told apart and named.
		alter sequence lifecycle.namespaces_id_seq restart with 1000000;
		grant select, insert, update, delete on legacy.projects to lifecycle_app`); err != nil {
		t.Fatal(err)
	}

	var settings []string
	if err := admin.QueryRow(ctx, `
		select array_agg(distinct m[1] order by m[1])
		  from (select p.prosrc as src from pg_proc p where p.pronamespace = 'lifecycle'::regnamespace
		        union all
		        select pg_get_triggerdef(g.oid) from pg_trigger g where not g.tgisinternal) s,
		       regexp_matches(s.src, 'current_setting\(''lifecycle\.([a-z_]+)''', 'g') m`).Scan(&settings); err != nil {
		t.Fatal(err)
	}
	if len(settings) < 5 {
		t.Fatalf("found only %v read by the SQL: the pattern no longer matches how settings are read", settings)
	}
	settings = append(settings, "namespace_keys", "sibling_path_locks") // read before 031
	appURL := dbtest.LoginAs(t, url, "lifecycle_app")
	app, err := pgxpool.New(ctx, appURL)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()

	run := func(name, value string) settingsOutcome {
		return settingsScenario(t, ctx, admin, app, name, value)
	}
	baseline := run("", "")
	for i, s := range baseline.steps {
		if s.code != "" && !strings.HasPrefix(s.code, "NS") && !strings.HasPrefix(s.code, "ok ") {
			t.Fatalf("baseline step %d (%s) failed: %s", i, s.name, s.code)
		}
	}
	if !strings.Contains(baseline.facts, `"renamed"`) || !strings.Contains(baseline.facts, `"reason":"transfer"`) ||
		!strings.Contains(baseline.rows, "legacy") || !strings.Contains(baseline.rows, "transfer") {
		t.Fatalf("the baseline wrote too little to compare with:\n%s\n%s", baseline.rows, baseline.facts)
	}
	for _, name := range settings {
		for _, value := range []string{"on", "off", "-1", "0", "1", "x", "99999999999999999999", "{}", "$p", "$p:999", "$q", "$q:999", "legacy_bridge", "transfer", forgedChange} {
			got := run(name, value)
			refused := false
			for i, s := range got.steps {
				want := baseline.steps[i]
				switch {
				case s.code == want.code:
				case s.code == "NS010":
					refused = true
				default:
					t.Errorf("lifecycle.%s = %q: %s answered %q, want %q (as without it) or NS010", name, value, s.name, s.code, want.code)
				}
			}
			if refused {
				continue
			}
			if got.rows != baseline.rows {
				t.Errorf("lifecycle.%s = %q changed the rows written:\n%s", name, value, lineDiff(baseline.rows, got.rows))
			}
			if got.facts != baseline.facts {
				t.Errorf("lifecycle.%s = %q changed the facts:\n%s", name, value, lineDiff(baseline.facts, got.facts))
			}
		}
	}
}

type settingsStep struct{ name, code string }

type settingsOutcome struct {
	steps       []settingsStep
	rows, facts string
}

// settingsScenario makes a fresh tree (an organization, public, owned by user 1001; a group g with
// projects p, q and r and a bridged legacy row for p; a group t, internal), then as the application, with the
// setting set before each step when name is not empty, runs the steps, commits, and returns
// their answers, the rows and the facts, with ids replaced by paths.
func settingsScenario(t *testing.T, ctx context.Context, admin *pgx.Conn, app *pgxpool.Pool, name, value string) settingsOutcome {
	t.Helper()
	org := "set-" + suffix()
	ids := map[string]int64{}
	for _, n := range []struct{ parent, typ, path string }{
		{"", "organization", org}, {org, "group", "g"}, {org, "group", "t"}, {"g", "project", "p"}, {"g", "project", "q"},
		{"g", "project", "r"},
	} {
		var parent *int64
		if n.parent != "" {
			id := ids[n.parent]
			parent = &id
		}
		var id int64
		if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name, visibility)
			values ($1, $2, $3, $3, case when $3 = 't' then 'internal' else 'public' end) returning id`, parent, n.typ, n.path).Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[n.path] = id
	}
	if _, err := admin.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 1001, 50)`, ids[org]); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, `insert into legacy.projects (id, project_namespace_id) values ($1, $1)`, ids["p"]); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, `delete from lifecycle.facts`); err != nil {
		t.Fatal(err)
	}
	value = strings.NewReplacer("$p", fmt.Sprint(ids["p"]), "$q", fmt.Sprint(ids["q"])).Replace(value)

	tx, err := app.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var out settingsOutcome
	step := func(what, sql string, args ...any) {
		sp, err := tx.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Set again before each step: the product's calls clear the settings they write.
		if name != "" {
			if _, err := sp.Exec(ctx, `select set_config('lifecycle.' || $1, $2, true)`, name, value); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := sp.Query(ctx, sql, args...)
		var answer []string
		if err == nil {
			for rows.Next() {
				vals, _ := rows.Values()
				answer = append(answer, fmt.Sprint(vals))
			}
			rows.Close()
			err = rows.Err()
		}
		code := ""
		var pg *pgconn.PgError
		if errors.As(err, &pg) {
			code = pg.Code
		} else if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err != nil {
			_ = sp.Rollback(ctx)
		} else if err := sp.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if code == "" && strings.HasPrefix(what, "read:") {
			code = "ok " + strings.Join(answer, "; ")
		}
		out.steps = append(out.steps, settingsStep{what, code})
	}
	step("create a project", `insert into lifecycle.namespaces (parent_id, type, path, name, visibility) values ($1, 'project', 'new', 'new', 'public')`, ids["g"])
	step("add a member", `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 2002, 30)`, ids["g"])
	step("change a member", `update lifecycle.namespace_members set access_level = 40 where namespace_id = $1 and user_id = 2002`, ids["g"])
	step("rename a name", `update lifecycle.namespaces set name = 'Q' where id = $1`, ids["q"])
	step("archive p", `select * from lifecycle.namespace_event($1, 'archive', 1001)`, ids["p"])
	step("rename q", `select * from lifecycle.namespace_rename($1, 'q2', 1001)`, ids["q"])
	step("make q private", `select * from lifecycle.namespace_set_visibility($1, 'private', 1001)`, ids["q"])
	step("make g private (refused: p is public)", `select * from lifecycle.namespace_set_visibility($1, 'private', 1001)`, ids["g"])
	step("schedule p's deletion", `select * from lifecycle.namespace_transition($1, 'deletion_scheduled', 1001)`, ids["p"])
	step("restore p", `select * from lifecycle.namespace_event($1, 'restore', 1001)`, ids["p"])
	step("unarchive p through its legacy row", `update legacy.projects set archived = false where id = $1`, ids["p"])
	step("schedule p's deletion through its legacy row", `update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where id = $1`, ids["p"])
	step("restore p through its legacy row", `update legacy.projects set marked_for_deletion_at = null, marked_for_deletion_by_user_id = null where id = $1`, ids["p"])
	step("a transfer request by a stranger (refused)", `select * from lifecycle.namespace_transfer_request($1, $2, 9999)`, ids["q"], ids["t"])
	step("a transfer request by the owner", `select status from lifecycle.namespace_transfer_request($1, $2, 1001)`, ids["q"], ids["t"])
	step("the transfer's move", `select * from lifecycle.namespace_transfer_execute($1)`, ids["q"])
	step("a transfer of r into t, less visible", `select status from lifecycle.namespace_transfer_request($1, $2, 1001)`, ids["r"], ids["t"])
	step("its move, which lowers r's visibility", `select * from lifecycle.namespace_transfer_execute($1)`, ids["r"])
	step("read: what a stranger may do to p", `select to_state, allowed, error_code from lifecycle.namespace_available_transitions($1, 9999) order by 1`, ids["p"])
	step("read: p's effective state", `select effective_state from lifecycle.namespace_effective_state($1)`, ids["p"])
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// Names for the ids: each namespace of this tree by its path below the organization.
	label := map[string]string{}
	nrows, err := admin.Query(ctx, `select id::text, full_path from lifecycle.namespaces n
		cross join lateral (select lifecycle.namespace_full_path(n.id) as full_path) f where n.traversal_ids[1] = $1`, ids[org])
	if err != nil {
		t.Fatal(err)
	}
	for nrows.Next() {
		var id, path string
		if err := nrows.Scan(&id, &path); err != nil {
			t.Fatal(err)
		}
		label[id] = strings.TrimPrefix(path, org)
	}
	label[org] = "org"
	nrows.Close()
	var rows []string
	for _, q := range []string{
		`select 'namespace', lifecycle.namespace_full_path(n.id), n.type, n.name, n.visibility, n.state, n.state_changes,
		        n.deletion_scheduled_by, n.deletion_scheduled_at is not null from lifecycle.namespaces n where n.traversal_ids[1] = $1`,
		`select 'history', u.namespace_id, u.from_state, u.to_state, u.event, u.actor_id, u.source, u.metadata - 'at'
		   from lifecycle.namespace_state_updates u join lifecycle.namespaces n on n.id = u.namespace_id where n.traversal_ids[1] = $1`,
		`select 'details', d.namespace_id, d.state_metadata - 'last_updated_at' from lifecycle.namespace_details d
		   join lifecycle.namespaces n on n.id = d.namespace_id where n.traversal_ids[1] = $1`,
		`select 'redirect', r.old_full_path, r.namespace_id, r.kind, r.actor_id from lifecycle.namespace_redirects r
		   join lifecycle.namespaces n on n.id = r.namespace_id where n.traversal_ids[1] = $1`,
		`select 'member', m.namespace_id, m.user_id, m.access_level from lifecycle.namespace_members m
		   join lifecycle.namespaces n on n.id = m.namespace_id where n.traversal_ids[1] = $1`,
		`select 'transfer', r.namespace_id, r.to_parent_id, r.status, r.requested_by, r.decided_by from lifecycle.transfer_requests r
		   join lifecycle.namespaces n on n.id = r.namespace_id where n.traversal_ids[1] = $1`,
		`select 'legacy', l.project_namespace_id, l.archived, l.marked_for_deletion_at, l.marked_for_deletion_by_user_id
		   from legacy.projects l join lifecycle.namespaces n on n.id = l.project_namespace_id where n.traversal_ids[1] = $1`,
	} {
		r, err := admin.Query(ctx, q, ids[org])
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			vals, err := r.Values()
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, relabel(fmt.Sprint(vals), label))
		}
		r.Close()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}
	sort.Strings(rows)
	out.rows = strings.Join(rows, "\n")

	var facts []string
	// The facts the scenario wrote (no syncer runs here: they wait in the outbox).
	fr, err := admin.Query(ctx, `with f as (delete from lifecycle.facts returning *)
		select jsonb_build_object('action', action, 'namespace_id', namespace_id, 'full_path', full_path, 'actor_id', actor_id,
		                          'details', details)::text
		  from f order by id`)
	if err != nil {
		t.Fatal(err)
	}
	for fr.Next() {
		var content string
		if err := fr.Scan(&content); err != nil {
			t.Fatal(err)
		}
		var fact map[string]any
		if err := json.Unmarshal([]byte(content), &fact); err != nil {
			t.Fatalf("fact %q: %v", content, err)
		}
		if d, ok := fact["details"].(map[string]any); ok {
			for k := range d {
				if strings.HasSuffix(k, "_at") || k == "request_id" || k == "state_update_id" {
					delete(d, k)
				}
			}
		}
		b, _ := json.Marshal(fact)
		facts = append(facts, relabel(string(b), label))
	}
	fr.Close()
	out.facts = strings.Join(facts, "\n")
	return out
}

var (
	idPattern      = regexp.MustCompile(`\b[\w-]+\b`)
	requestPattern = regexp.MustCompile(`transfer-request-\d+`)
)

// relabel replaces the ids of the scenario's namespaces by their paths, and its organization's
// path (unique to the scenario) and transfer request ids by constants.
func relabel(s string, label map[string]string) string {
	s = requestPattern.ReplaceAllString(s, "transfer-request-N")
	return idPattern.ReplaceAllStringFunc(s, func(id string) string {
		if l, ok := label[id]; ok {
			return "<" + l + ">"
		}
		return id
	})
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	w, g := in(want), in(got)
	var out []string
	for l, n := range w {
		if g[l] < n {
			out = append(out, "- "+l)
		}
	}
	for l, n := range g {
		if w[l] < n {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

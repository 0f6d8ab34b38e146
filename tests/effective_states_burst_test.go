package tests_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/cmd/bench/scenario"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// A burst of creations is applied to lifecycle.effective_states with work that follows the burst,
// not its square (issue 24: 2k / 4k / 8k / 16k facts took 8.4 / 18 / 42 / 77 s, so one INSERT of
// 50,000 projects held every later change back for 14 minutes). The bursts are scenario.Burst's:
// subgroups, projects below them (roots below roots), projects right below the group, and the
// archival of a subgroup in the same call. The work is counted, not timed (a timed test fails on
// a busy machine): the rows the apply reads and writes, from pg_stat_xact_user_tables, in its own
// transaction. Eight times the facts may cost at most 16 times the rows (linear growth is 8; a
// join planned as a nested loop over the facts, issue 24's 25 s, is 64), and no burst may cost
// more than ten whole rebuilds of the table counted right after it. Each apply is also cut off at
// 16 times the first's time (at least 30 s), so a quadratic update fails in a minute instead of
// running for an hour. The times are logged.
func TestEffectiveStatesBurstGrowsLinearly(t *testing.T) {
	ctx := context.Background()
	url := dbtest.NewDatabase(t)
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = ""
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var org int64
	if err := conn.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', 'bursts', 'bursts') returning id`).Scan(&org); err != nil {
		t.Fatal(err)
	}
	// A tree around the bursts, so a plan that reads the whole table for a few rows shows.
	if _, err := conn.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'group', 'around' || i, 'around' from generate_series(1, 50) i`, org); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select g.id, 'project', 'p' || i, 'p' from lifecycle.namespaces g, generate_series(1, 100) i where g.parent_id = $1`, org); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `vacuum analyze lifecycle.namespaces`); err != nil {
		t.Fatal(err)
	}
	// Each burst is applied twice: first by a session of its own, then rolled back, and then by a
	// long-lived one, as the syncer's. Their PL/pgSQL statements run on different plans: custom
	// plans, made for the array given, in a session's first five calls; after those, the generic
	// plan the session caches, made with the unnest of an array parameter estimated at 10 rows.
	// Neither may grow faster than the work. (Since migration 034 effective_states_write runs on
	// its generic plan from the first call, so the two differ only before it.)
	for range 10 {
		if err := scenario.PendFacts(ctx, conn, []string{fmt.Sprintf(`{"action": "renamed", "namespace_id": %d}`, org)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := scenario.ApplyPending(ctx, conn); err != nil {
			t.Fatal(err)
		}
	}
	sizes := []int{2000, 4000, 8000, 16000}
	work := map[string]map[int]int64{"a new session": {}, "a long-lived session": {}}
	took := map[string]time.Duration{} // the first burst's apply, by kind: the later ones' cut-off is 16 times it
	// counted runs f in a transaction of c's (begun by the caller when open is false) and
	// returns the rows it read and wrote, as the statistics of that transaction count them.
	counted := func(c *pgx.Conn, open bool, f func() error) (int64, time.Duration) {
		t.Helper()
		if open {
			if _, err := c.Exec(ctx, "begin"); err != nil {
				t.Fatal(err)
			}
		}
		const rows = `select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0) + n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint
		                from pg_catalog.pg_stat_xact_user_tables`
		var before, after int64
		if err := c.QueryRow(ctx, rows).Scan(&before); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		if err := f(); err != nil {
			t.Fatal(err)
		}
		d := time.Since(t0)
		if err := c.QueryRow(ctx, rows).Scan(&after); err != nil {
			t.Fatal(err)
		}
		if open {
			if _, err := c.Exec(ctx, "commit"); err != nil {
				t.Fatal(err)
			}
		}
		return after - before, d
	}
	apply := func(c *pgx.Conn, open bool, kind string, n int, facts []string) {
		t.Helper()
		// The bound is the update's alone: the burst runs without one. Its facts wait in the outbox.
		limit := 30 * time.Second
		if first, ok := took[kind]; ok {
			limit = max(limit, 16*first)
		}
		if _, err := c.Exec(ctx, fmt.Sprintf("set statement_timeout = %d", limit.Milliseconds())); err != nil {
			t.Fatal(err)
		}
		var written int64
		w, d := counted(c, open, func() error {
			_, rows, err := scenario.ApplyPending(ctx, c)
			if err != nil {
				return fmt.Errorf("apply of a burst of %d creations by %s: %w", n, kind, err)
			}
			written = rows
			return nil
		})
		if _, err := c.Exec(ctx, `reset statement_timeout`); err != nil {
			t.Fatal(err)
		}
		// Every namespace of the burst is new, and the archived subgroup is one of them.
		if written != int64(n) {
			t.Fatalf("a burst of %d creations wrote %d rows by %s, want %d", n, written, kind, n)
		}
		work[kind][n] = w
		if n == sizes[0] {
			took[kind] = d
		}
		t.Logf("%d creations (%d facts) by %s: %d rows read and written, %v", n, len(facts), kind, w, d.Round(time.Millisecond))
	}
	for _, n := range sizes {
		facts, err := scenario.Burst(ctx, conn, org, n, fmt.Sprintf("burst-%d", n))
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.Exec(ctx, "begin"); err != nil {
			t.Fatal(err)
		}
		apply(fresh, false, "a new session", n, facts)
		fresh.Close(ctx) // rolled back
		apply(conn, true, "a long-lived session", n, facts)
		// The baseline, in the same session right after: the whole table rebuilt (nothing differs,
		// so nothing is written: the walk over every namespace and the comparison).
		rebuild, d := counted(conn, true, func() error {
			_, err := conn.Exec(ctx, `select lifecycle.effective_states_refresh()`)
			return err
		})
		t.Logf("the whole rebuild after it: %d rows read and written, %v", rebuild, d.Round(time.Millisecond))
		for kind := range work {
			if w := work[kind][n]; w > 10*rebuild {
				t.Errorf("a burst of %d creations cost %d rows by %s, more than 10 whole rebuilds (%d)", n, w, kind, rebuild)
			}
		}
	}
	if _, err := conn.Exec(ctx, `reset statement_timeout`); err != nil {
		t.Fatal(err)
	}
	var wrong int
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.effective_states_verify()`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 {
		t.Fatalf("%d rows of lifecycle.effective_states differ from the definition after the bursts", wrong)
	}
	for kind, w := range work {
		if g := float64(w[16000]) / float64(w[2000]); g >= 16 {
			t.Errorf("by %s, 16k creations cost %.1f× the rows of 2k (%d, %d): the update grows faster than the work", kind, g, w[16000], w[2000])
		}
	}
}

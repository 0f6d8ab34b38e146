package nslifecycle_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/bench"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// A burst of creations is applied to lifecycle.effective_states in time that follows the work, not
// its square (issue 24: 2k / 4k / 8k / 16k facts took 8.4 / 18 / 42 / 77 s, so one INSERT of 50,000
// projects held every later change back for 14 minutes). The bursts are bench.Burst's: subgroups,
// projects below them (roots below roots), projects right below the group, and the archival of a
// subgroup in the same call. Eight times the facts may take at most 16 times as long (linear
// growth is 8), and no burst may cost more than ten whole rebuilds of the table measured right
// after it, which write nothing (the 16k facts took 77 s where a rebuild took 0.72 s).
// Before migration 034 a burst of 2k took 0.55 s here, 38 rebuilds, and 16k 7.3 s, 99 rebuilds
// and 13× the 2k; after it 24 ms and 0.19 s, 1.3 and 2.3 rebuilds, 7.9×. Each apply is also cut off
// at 16 times the first's (and at least 5 s), so a quadratic update fails in seconds instead of
// running for minutes.
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
		if err := bench.PendFacts(ctx, conn, []string{fmt.Sprintf(`{"action": "renamed", "namespace_id": %d}`, org)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := bench.ApplyPending(ctx, conn); err != nil {
			t.Fatal(err)
		}
	}
	sizes := []int{2000, 4000, 8000, 16000}
	took := map[string]map[int]time.Duration{"a new session": {}, "a long-lived session": {}}
	apply := func(c *pgx.Conn, kind string, n int, facts []string) {
		t.Helper()
		limit := 5 * time.Second
		if first, ok := took[kind][sizes[0]]; ok {
			limit = max(limit, 16*first)
		}
		// The bound is the update's alone: the burst runs without one. Its facts wait in the outbox.
		if _, err := c.Exec(ctx, fmt.Sprintf("set statement_timeout = %d", limit.Milliseconds())); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		_, rows, err := bench.ApplyPending(ctx, c)
		d := time.Since(t0)
		if _, rerr := c.Exec(ctx, `reset statement_timeout`); rerr != nil && err == nil {
			err = rerr
		}
		if err != nil {
			t.Fatalf("apply of a burst of %d creations by %s (cut off at %v): %v", n, kind, limit, err)
		}
		// Every namespace of the burst is new, and the archived subgroup is one of them.
		if rows != int64(n) {
			t.Fatalf("a burst of %d creations wrote %d rows by %s, want %d", n, rows, kind, n)
		}
		took[kind][n] = d
		t.Logf("%d creations (%d facts) by %s: %v", n, len(facts), kind, d.Round(time.Millisecond))
	}
	for _, n := range sizes {
		facts, err := bench.Burst(ctx, conn, org, n, fmt.Sprintf("burst-%d", n))
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
		apply(fresh, "a new session", n, facts)
		fresh.Close(ctx) // rolled back
		apply(conn, "a long-lived session", n, facts)
		// The baseline, in the same session right after: the whole table rebuilt (nothing differs,
		// so nothing is written: the walk over every namespace and the comparison).
		t0 := time.Now()
		if _, err := conn.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
			t.Fatal(err)
		}
		rebuild := time.Since(t0)
		t.Logf("the whole rebuild after it: %v", rebuild.Round(time.Millisecond))
		for kind := range took {
			if d := took[kind][n]; d > 10*rebuild {
				t.Errorf("a burst of %d creations took %v by %s, more than 10 whole rebuilds (%v)", n, d, kind, rebuild)
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
	for kind, took := range took {
		if g := took[16000].Seconds() / took[2000].Seconds(); g >= 16 {
			t.Errorf("by %s, 16k creations took %.1f× as long as 2k (%v, %v): the update grows faster than the work", kind, g, took[16000], took[2000])
		}
	}
}

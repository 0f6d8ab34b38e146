package main

import (
	"strings"
	"testing"
	"time"
)

// The start-up drain records the whole backlog, even while another transaction holds part of it.
// An update of lifecycle.effective_states marks every unapplied fact applied in one transaction
// (95,000 of them after a long stop), and the drain skips the facts it holds (SKIP LOCKED): it used
// to take its first short batch for the end, call itself drained (/healthz 200) and leave the rest
// to the periodic drain. Here 1,000 facts wait, a session holds the 600 oldest, and the syncer
// drains in batches of 200: /healthz says it is still draining for as long as they are held, and
// once they are released it records them at once, the whole backlog recorded when it turns 200.
func TestTheStartUpDrainRecordsTheWholeBacklogWhileAnotherTransactionHoldsPartOfIt(t *testing.T) {
	e := newEnv(t, "-drain-batch", "200")
	e.exec(`insert into lifecycle.namespaces (type, path, name)
		select 'organization', 'backlog-' || g, 'backlog ' || g from generate_series(1, 1000) g`)
	var newest int64
	if err := e.pool.QueryRow(e.ctx, `select max(id) from lifecycle.facts`).Scan(&newest); err != nil {
		t.Fatal(err)
	}

	// The syncer's slot, made before the hold (making one waits for every transaction running) and
	// after the backlog, which the stream therefore never brings: the drain must record it.
	e.exec(`select pg_create_logical_replication_slot($1, 'pgoutput')`, e.slot)

	holder, err := e.pool.Begin(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(e.ctx)
	var held int
	if err := holder.QueryRow(e.ctx, `select count(*) from (select id from lifecycle.facts order by id limit 600 for update) h`).Scan(&held); err != nil || held != 600 {
		t.Fatalf("held %d facts (%v), want 600", held, err)
	}

	e.launch()
	defer e.kill()
	// The facts not held are recorded; the held ones wait, and so does the syncer's readiness.
	e.eventually("the 400 facts not held are recorded", 3*time.Minute, func() bool {
		var left int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.facts where id <= $1`, newest).Scan(&left)
		return left == 600
	})
	time.Sleep(2 * time.Second)
	if code, body := e.get("/healthz"); code == 200 || !strings.Contains(body, "draining") {
		t.Fatalf("/healthz while 600 facts of the backlog are held: %d %q, want 503 draining", code, body)
	}

	released := time.Now()
	if err := holder.Commit(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.eventually("/healthz is 200", time.Minute, func() bool {
		code, _ := e.get("/healthz")
		return code == 200
	})
	var left, audited int
	if err := e.pool.QueryRow(e.ctx, `select (select count(*) from lifecycle.facts where id <= $1),
		(select count(*) from lifecycle.audit_events where action = 'namespace_created')`, newest).Scan(&left, &audited); err != nil {
		t.Fatal(err)
	}
	if left != 0 || audited != 1000 {
		t.Fatalf("when the syncer called itself drained: %d facts of the backlog left, %d audit rows; want 0 and 1,000", left, audited)
	}
	if took := time.Since(released); took > 10*time.Second {
		t.Errorf("the held facts were recorded %s after their release, want within the drain's retries", took.Round(time.Millisecond))
	}
	if !strings.Contains(e.log.String(), `"facts":1000`) {
		t.Errorf("the syncer's log does not say it recorded the 1,000 facts waiting:\n%s", tail(e.log.String(), 10))
	}
}

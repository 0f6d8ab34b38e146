package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

// A failover loses no fact (issue 24): facts are rows of the outbox, so a promoted standby holds
// every one not yet recorded, though PostgreSQL 15 copies no logical slot to it. Syncer A records
// on primary P; killed, about 100 changes are made with no syncer running (archives, scheduled
// deletions, transfers requested and accepted, "delete now", renames, members, creations);
// restarted, A is given a burst of more changes it has no time to finish; then P crashes once its
// standby S has replayed all its WAL, S is promoted, and syncer B, with A's slot name, starts on
// S: it creates the slot and records what waits in the outbox. On S every history row then has
// exactly one audit row, the outbox is empty, the transfers have moved and the deleted namespaces
// are gone, the owner was notified of every change made while no syncer ran, and
// lifecycle.effective_states agrees with its definition.
func TestAFailoverLosesNoFact(t *testing.T) {
	p := testtools.NewCluster(t)
	primaryURL := p.CreateDatabase(t, "nslifecycle")
	s := p.Standby(t)

	a := newEnvAt(t, primaryURL)
	a.start()
	const owner, srcOwner, dstOwner = int64(11), int64(14), int64(13)
	org := a.insert(nil, "organization", "failover")
	a.member(org, owner, 50)
	src := a.insert(&org, "group", "src")
	dst := a.insert(&org, "group", "dst")
	a.member(src, srcOwner, 50)
	a.member(dst, dstOwner, 50)
	project := func(name string) int64 { return a.insert(&src, "project", name) }
	var plain, moving, doomed, renamed []int64
	for i := 0; i < 12; i++ {
		plain = append(plain, project(fmt.Sprintf("p%d", i)))
	}
	for i := 0; i < 5; i++ {
		moving = append(moving, project(fmt.Sprintf("t%d", i)))
		doomed = append(doomed, project(fmt.Sprintf("d%d", i)))
	}
	renamed = append(renamed, project("r0"), project("r1"))
	event := func(ns int64, ev string, actor *int64) {
		t.Helper()
		if _, err := a.lc.Event(a.ctx, ns, ev, actor, nil); err != nil {
			t.Fatalf("%s of %d: %v", ev, ns, err)
		}
	}
	for _, ns := range plain[:4] {
		event(ns, "archive", ptr(owner))
	}
	a.caughtUp()
	a.kill()

	// About 100 calls while no syncer runs.
	var downFrom, downTo time.Time
	if err := a.pool.QueryRow(a.ctx, `select clock_timestamp()`).Scan(&downFrom); err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, ns := range plain[:4] {
		event(ns, "unarchive", ptr(owner))
		calls++
	}
	for _, ns := range plain {
		event(ns, "archive", ptr(owner))
		calls++
	}
	for _, ns := range plain[:8] {
		event(ns, "unarchive", nil)
		calls++
	}
	for _, ns := range plain[:5] {
		event(ns, "schedule_deletion", ptr(owner))
		calls++
	}
	for _, ns := range plain[:2] {
		event(ns, "restore", ptr(owner))
		calls++
	}
	for _, ns := range moving {
		req, err := a.lc.RequestTransfer(a.ctx, ns, dst, ptr(srcOwner))
		if err != nil || req.Status != "pending" {
			t.Fatalf("request the transfer of %d: %+v, %v (want a pending request)", ns, req, err)
		}
		if req, err = a.lc.AcceptTransfer(a.ctx, req.ID, ptr(dstOwner)); err != nil || req.Status != "accepted" {
			t.Fatalf("accept the transfer of %d: %+v, %v", ns, req, err)
		}
		calls += 2
	}
	for _, ns := range doomed {
		event(ns, "schedule_deletion", ptr(owner))
		event(ns, "deletion_start", ptr(owner))
		calls += 2
	}
	for i, ns := range renamed {
		if _, err := a.lc.Rename(a.ctx, ns, fmt.Sprintf("renamed%d", i), ptr(owner)); err != nil {
			t.Fatal(err)
		}
		calls++
	}
	for i := 0; i < 10; i++ {
		user := int64(100 + i)
		a.member(plain[5+i%3], user, 30)
		a.member(plain[5+i%3], user, 40)
		calls += 2
	}
	for _, ns := range plain[5:8] {
		event(ns, "maintain", ptr(owner))
		event(ns, "unmaintain", ptr(owner))
		event(ns, "archive", ptr(owner))
		event(ns, "unarchive", ptr(owner))
		calls += 4
	}
	for i := 0; i < 10; i++ {
		a.insert(&dst, "project", fmt.Sprintf("new%d", i))
		calls++
	}
	var downFacts int
	if err := a.pool.QueryRow(a.ctx, `select clock_timestamp(), (select count(*) from lifecycle.facts)`).Scan(&downTo, &downFacts); err != nil {
		t.Fatal(err)
	}

	// A again, caught in the middle of its work when P crashes. The test holds, in a transaction
	// of its own that ends with P, the oldest fact of the backlog and the rows of the namespaces to
	// move and to delete: A's drain records the rest of the backlog (it skips rows locked), and
	// with it the transfer_started and deletion_started facts; A's stream, which brings the held
	// fact again in its first batch, waits for it in an open transaction, with the burst of changes
	// made from A's launch on, without waiting for it, received and queued behind; A's asynchronous
	// worker waits for the first namespace it is to move or delete. So at the crash A has recorded
	// the transfers and deletions but carried out none of them, and S holds facts A never
	// recorded.
	holder, err := a.pool.Begin(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Rollback(context.Background()) }() // P is gone by then: an error
	var held int64
	if err := holder.QueryRow(a.ctx, `select id from lifecycle.facts order by id limit 1 for update`).Scan(&held); err != nil {
		t.Fatal(err)
	}
	asyncWork := append(append([]int64(nil), moving...), doomed...)
	if _, err := holder.Exec(a.ctx, `select from lifecycle.namespaces where id = any ($1) for update`, asyncWork); err != nil {
		t.Fatal(err)
	}
	a.launch()
	burst, events, recordedAtCrash, blocked := 0, 0, 0, 0
	change := func() {
		t.Helper()
		ev := "unarchive" // archived while no syncer ran
		if (events/4)%2 == 1 {
			ev = "archive"
		}
		event(plain[8+events%4], ev, nil)
		events++
		burst++
		if events%10 == 0 {
			a.insert(&dst, "project", fmt.Sprintf("burst%d", events))
			burst++
		}
	}
	for deadline := time.Now().Add(60 * time.Second); ; {
		change()
		if err := a.pool.QueryRow(a.ctx, `select (select count(*) from lifecycle.audit_events where committed_at between $1 and $2),
			(select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock')`,
			downFrom, downTo).Scan(&recordedAtCrash, &blocked); err != nil {
			t.Fatal(err)
		}
		// Two sessions wait: A's stream and A's asynchronous worker.
		if recordedAtCrash == downFacts-1 && blocked >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("A has recorded %d of the %d facts of the backlog, %d sessions wait for a lock:\n%s",
				recordedAtCrash, downFacts, blocked, tail(a.log.String(), 20))
		}
	}
	for i := 0; i < 20; i++ {
		change()
	}
	s.WaitReplayed(t, p)
	p.StopImmediate()
	a.kill()
	s.Promote()

	b := newEnvAt(t, s.URL("nslifecycle"))
	b.slot = a.slot // the same syncer deployment, now pointed at the promoted standby
	var waiting int
	var lastWaiting int64
	var inProgress int
	if err := b.pool.QueryRow(b.ctx, `select count(*), coalesce(max(id), 0) from lifecycle.facts`).Scan(&waiting, &lastWaiting); err != nil {
		t.Fatal(err)
	}
	var recordedByA int
	if err := b.pool.QueryRow(b.ctx, `select (select count(*) from lifecycle.namespaces where state in (4, 5)),
		(select count(*) from lifecycle.audit_events where committed_at >= $1)`, downFrom).Scan(&inProgress, &recordedByA); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d calls while no syncer ran (%d facts), %d in the burst; A recorded %d of the backlog (all but fact %d, held); "+
		"S holds %d audit rows of facts since A's kill, %d facts wait in its lifecycle.facts, %d namespaces are in transfer_ or deletion_in_progress",
		calls, downFacts, burst, recordedAtCrash, held, recordedByA, waiting, inProgress)

	// What A left: every transfer and deletion recorded, none carried out (namespace_transfer_execute
	// and namespace_hard_delete give up on a lock after 5 s: A's worker must not have).
	var recordedStarts int
	if err := b.pool.QueryRow(b.ctx, `select count(*) from lifecycle.audit_events
		where action in ('transfer_started', 'deletion_started') and namespace_id = any ($1)`, asyncWork).Scan(&recordedStarts); err != nil {
		t.Fatal(err)
	}
	if inProgress != len(asyncWork) || recordedStarts != len(asyncWork) {
		t.Fatalf("on S at the promotion: %d namespaces in transfer_ or deletion_in_progress, %d of their start facts recorded; "+
			"the scenario wants all %d of both (A's log:\n%s)", inProgress, recordedStarts, len(asyncWork), tail(a.log.String(), 20))
	}

	started := time.Now()
	b.launch()
	b.eventually("B records every fact that waited in the outbox", 60*time.Second, func() bool {
		var left int
		_ = b.pool.QueryRow(b.ctx, `select count(*) from lifecycle.facts where id <= $1`, lastWaiting).Scan(&left)
		return left == 0
	})
	t.Logf("the last of the %d facts waiting on S was recorded %s after B started", waiting, time.Since(started).Round(time.Millisecond))
	b.eventually("B's /healthz is 200", 60*time.Second, func() bool {
		code, _ := b.get("/healthz")
		return code == 200
	})
	if code, body := b.get("/healthz"); code != 200 || !strings.HasPrefix(body, "ok") {
		t.Fatalf("B's /healthz: %d %q, want 200 ok", code, body)
	}
	// The transfers and deletions A recorded and did not carry out are B's to finish.
	finished := true
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var stuck []string
		rows, err := b.pool.Query(b.ctx, `select n.id || ' ' || s.name from lifecycle.namespaces n join lifecycle.states s on s.code = n.state
			where n.state in (4, 5) order by n.id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			stuck = append(stuck, line)
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		if len(stuck) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("%s after B started, %d namespaces are still in progress (their start facts recorded by A before the crash): %v",
				time.Since(started).Round(time.Millisecond), len(stuck), stuck)
			finished = false
			break
		}
	}
	b.caughtUp()

	log := b.log.String()
	if !strings.Contains(log, "replication slot was missing and has been created again") {
		t.Errorf("B's log does not say the slot was created again:\n%s", tail(log, 20))
	}
	if !strings.Contains(log, "recorded the facts waiting in lifecycle.facts") {
		t.Errorf("B's log does not say it recorded the facts waiting in lifecycle.facts:\n%s", tail(log, 20))
	}

	var history, audited, missing, duplicated, facts int
	if err := b.pool.QueryRow(b.ctx, `
		with a as (select (details ->> 'state_update_id')::bigint as h, count(*) as n from lifecycle.audit_events
		            where details ? 'state_update_id' group by 1)
		select (select count(*) from lifecycle.namespace_state_updates),
		       (select coalesce(sum(n), 0) from a),
		       (select count(*) from lifecycle.namespace_state_updates s where not exists (select from a where a.h = s.id)),
		       (select count(*) from a where n > 1),
		       (select count(*) from lifecycle.facts)`).Scan(&history, &audited, &missing, &duplicated, &facts); err != nil {
		t.Fatal(err)
	}
	t.Logf("on S: %d history rows, %d audit rows for them", history, audited)
	if audited != history || missing != 0 || duplicated != 0 || facts != 0 {
		t.Errorf("history %d, audit rows %d, history rows without an audit row %d, duplicated %d; facts left in the outbox %d",
			history, audited, missing, duplicated, facts)
	}
	for _, ns := range renamed {
		var n int
		if err := b.pool.QueryRow(b.ctx, `select count(*) from lifecycle.audit_events where action = 'renamed' and namespace_id = $1`, ns).Scan(&n); err != nil || n != 1 {
			t.Errorf("namespace %d: %d renamed audit rows (%v), want 1", ns, n, err)
		}
	}
	for _, ns := range moving {
		if !finished {
			break // reported above
		}
		var parent int64
		var state string
		if err := b.pool.QueryRow(b.ctx, `select n.parent_id, s.name from lifecycle.namespaces n join lifecycle.states s on s.code = n.state
			where n.id = $1`, ns).Scan(&parent, &state); err != nil || parent != dst || state != "ancestor_inherited" {
			t.Errorf("transferred namespace %d: parent %d, state %s (%v); want parent %d, ancestor_inherited", ns, parent, state, err, dst)
		}
		var completed int
		if err := b.pool.QueryRow(b.ctx, `select count(*) from lifecycle.audit_events where action = 'transfer_completed' and namespace_id = $1`,
			ns).Scan(&completed); err != nil || completed != 1 {
			t.Errorf("transferred namespace %d: %d transfer_completed audit rows (%v), want 1", ns, completed, err)
		}
	}
	for _, ns := range doomed {
		if !finished {
			break
		}
		var live, gone, hardDeleted int
		if err := b.pool.QueryRow(b.ctx, `select (select count(*) from lifecycle.namespaces where id = $1),
			(select count(*) from lifecycle.deleted_namespaces where namespace_id = $1),
			(select count(*) from lifecycle.audit_events where action = 'hard_deleted' and namespace_id = $1)`, ns).
			Scan(&live, &gone, &hardDeleted); err != nil || live != 0 || gone != 1 || hardDeleted != 1 {
			t.Errorf("deleted-now namespace %d: %d live rows, %d deleted_namespaces rows, %d hard_deleted audit rows (%v); want 0, 1, 1",
				ns, live, gone, hardDeleted, err)
		}
	}
	// Every change made while no syncer ran: audited once, and its owner (of the organization, level
	// 50) notified of it.
	var downAudited, unnotified int
	if err := b.pool.QueryRow(b.ctx, `select count(*), count(*) filter (where not exists (
			select from lifecycle.notifications n where n.audit_event_id = a.id and n.user_id = $3))
		from lifecycle.audit_events a where a.committed_at between $1 and $2`, downFrom, downTo, owner).Scan(&downAudited, &unnotified); err != nil {
		t.Fatal(err)
	}
	if downAudited != downFacts || unnotified != 0 {
		t.Errorf("%d facts written while no syncer ran: %d audit rows for them, %d without a notification of the owner",
			downFacts, downAudited, unnotified)
	}
	b.verified("lifecycle.effective_states on the promoted standby")
}

// get fetches one of the syncer's HTTP endpoints (code 0 when it does not answer).
func (e *env) get(path string) (code int, body string) {
	resp, err := http.Get("http://" + e.addr + path)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

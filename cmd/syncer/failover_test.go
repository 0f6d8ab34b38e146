package main

import (
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

	// A again, and at once a burst of changes, on until A has begun recording the backlog and for
	// a few more after: A is at work on the backlog, the burst and their transfers and deletions
	// when P crashes.
	a.launch()
	burst, events, recordedAtCrash := 0, 0, 0
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
		if err := a.pool.QueryRow(a.ctx, `select count(*) from lifecycle.audit_events where committed_at >= $1`, downFrom).
			Scan(&recordedAtCrash); err != nil {
			t.Fatal(err)
		}
		if recordedAtCrash > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("A records nothing of the backlog:\n%s", tail(a.log.String(), 20))
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
	t.Logf("%d calls while no syncer ran (%d facts), %d in the burst; A had recorded %d when the burst ended, S holds %d of its audit rows; "+
		"at the promotion %d facts wait in lifecycle.facts on S, %d namespaces are in transfer_ or deletion_in_progress",
		calls, downFacts, burst, recordedAtCrash, recordedByA, waiting, inProgress)

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
	b.eventually("no namespace stays in transfer_in_progress or deletion_in_progress", 60*time.Second, func() bool {
		var n int
		_ = b.pool.QueryRow(b.ctx, `select count(*) from lifecycle.namespaces where state in (4, 5)`).Scan(&n)
		return n == 0
	})
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

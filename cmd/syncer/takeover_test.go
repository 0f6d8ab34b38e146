package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A standby syncer takes over within seconds (issue 24): syncers A and B run with the same slot;
// B comes up as the standby (/healthz 200 "standby…", /readyz 503, lifecycle_syncer_active 0, no
// ERROR in its log). Then, five times, while changes are made continuously, the active one is
// SIGKILLed: a change committed after the kill is audited, by the other, within 5 s; the killed
// one, restarted, becomes the standby; and so far every history row has exactly one audit row and
// lifecycle.effective_states agrees with its definition.
func TestAStandbySyncerTakesOverWithinSeconds(t *testing.T) {
	const rounds, bound = 5, 5 * time.Second
	a := newEnv(t)
	b := a.sibling()
	a.start()
	org := a.insert(nil, "organization", "takeover")
	a.member(org, 11, 50)
	var projects []int64
	for i := 0; i < 20; i++ {
		projects = append(projects, a.insert(&org, "project", fmt.Sprintf("p%d", i)))
	}
	a.caughtUp()

	b.launch()
	b.waitStandby()
	if code, body := b.get("/readyz"); code != 503 {
		t.Fatalf("the standby's /readyz: %d %q, want 503", code, body)
	}
	if code, body := a.get("/readyz"); code != 200 {
		t.Fatalf("the active syncer's /readyz: %d %q, want 200", code, body)
	}
	if av, bv := a.metric("lifecycle_syncer_active"), b.metric("lifecycle_syncer_active"); av != 1 || bv != 0 {
		t.Fatalf("lifecycle_syncer_active: A %v, B %v; want 1 and 0", av, bv)
	}
	if lines := errorLines(b.log.String()); len(lines) > 0 {
		t.Fatalf("the standby logged errors:\n%s", strings.Join(lines, "\n"))
	}

	// Changes, continuously, from a goroutine; the test holds pause while it checks.
	var pause sync.Mutex
	stop, done := make(chan struct{}), make(chan error, 1)
	go func() {
		archived := make([]bool, len(projects))
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			k := i % len(projects)
			ev := "archive"
			if archived[k] {
				ev = "unarchive"
			}
			pause.Lock()
			_, err := a.lc.Event(a.ctx, projects[k], ev, nil, nil)
			pause.Unlock()
			if err != nil {
				done <- fmt.Errorf("%s %d: %w", ev, projects[k], err)
				return
			}
			archived[k] = !archived[k]
			time.Sleep(5 * time.Millisecond)
		}
	}()
	stopped := false
	stopChanges := func() {
		if !stopped {
			stopped = true
			close(stop)
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
	}
	defer stopChanges()

	active, standby := a, b
	var took []time.Duration
	for round := 1; round <= rounds; round++ {
		time.Sleep(300*time.Millisecond + rand.N(500*time.Millisecond)) // changes flow; a batch may be in flight
		active.kill()
		killed := time.Now()
		probe := a.insert(&org, "group", fmt.Sprintf("probe%d", round)) // committed after the kill
		for audited := 0; audited == 0; time.Sleep(10 * time.Millisecond) {
			if err := a.pool.QueryRow(a.ctx, `select count(*) from lifecycle.audit_events where namespace_id = $1 and action = 'namespace_created'`,
				probe).Scan(&audited); err != nil {
				t.Fatal(err)
			}
			if audited == 0 && time.Since(killed) > time.Minute {
				t.Fatalf("round %d: a change committed after the kill is not audited after a minute", round)
			}
		}
		took = append(took, time.Since(killed))
		if v := standby.metric("lifecycle_syncer_active"); v != 1 {
			t.Errorf("round %d: the syncer that took over shows lifecycle_syncer_active %v, want 1", round, v)
		}
		// The killed one again: the standby now.
		offset := len(active.log.String())
		active.launch()
		active.waitStandby()
		active, standby = standby, active

		pause.Lock()
		active.caughtUp()
		var history, audited, missing, duplicated int
		if err := a.pool.QueryRow(a.ctx, `
			with a as (select (details ->> 'state_update_id')::bigint as h, count(*) as n from lifecycle.audit_events
			            where details ? 'state_update_id' group by 1)
			select (select count(*) from lifecycle.namespace_state_updates),
			       (select coalesce(sum(n), 0) from a),
			       (select count(*) from lifecycle.namespace_state_updates s where not exists (select from a where a.h = s.id)),
			       (select count(*) from a where n > 1)`).Scan(&history, &audited, &missing, &duplicated); err != nil {
			t.Fatal(err)
		}
		if audited != history || missing != 0 || duplicated != 0 {
			t.Errorf("round %d: history %d, audit rows %d, history rows without an audit row %d, duplicated %d",
				round, history, audited, missing, duplicated)
		}
		active.verified(fmt.Sprintf("round %d: lifecycle.effective_states after the takeover", round))
		pause.Unlock()
		if code, body := active.get("/readyz"); code != 200 {
			t.Errorf("round %d: the active syncer's /readyz: %d %q, want 200", round, code, body)
		}
		if code, body := standby.get("/readyz"); code != 503 {
			t.Errorf("round %d: the restarted standby's /readyz: %d %q, want 503", round, code, body)
		}
		if lines := errorLines(standby.log.String()[offset:]); len(lines) > 0 {
			t.Errorf("round %d: the restarted standby logged errors:\n%s", round, strings.Join(lines, "\n"))
		}
		t.Logf("round %d: taken over in %s; %d history rows, each audited once", round, took[len(took)-1].Round(time.Millisecond), history)
	}
	stopChanges()

	sorted := slices.Clone(took)
	slices.Sort(sorted)
	t.Logf("takeovers (kill to the audit row of a change committed after it): min %s, median %s, max %s; all: %v",
		sorted[0].Round(time.Millisecond), sorted[len(sorted)/2].Round(time.Millisecond), sorted[len(sorted)-1].Round(time.Millisecond), took)
	for i, d := range took {
		if d >= bound {
			t.Errorf("round %d: the takeover took %s, want under %s", i+1, d.Round(time.Millisecond), bound)
		}
	}
}

// sibling is a second syncer of the same deployment: the same database and slot, a process, log
// and HTTP address of its own. It is killed when the test ends.
func (e *env) sibling() *env {
	s := &env{t: e.t, ctx: e.ctx, url: e.url, slot: e.slot, pool: e.pool, lc: e.lc, q: e.q, args: e.args, log: &syncBuffer{}}
	e.t.Cleanup(func() {
		if s.cmd != nil && s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
			_ = s.cmd.Wait()
		}
		if e.t.Failed() {
			e.t.Logf("sibling syncer log (%d bytes, last lines):\n%s", len(s.log.String()), tail(s.log.String(), 40))
		}
	})
	return s
}

// waitStandby waits until the syncer says it is a standby: /healthz 200 "standby…".
func (e *env) waitStandby() {
	e.t.Helper()
	e.eventually("the syncer is a standby", 60*time.Second, func() bool {
		code, body := e.get("/healthz")
		return code == 200 && strings.HasPrefix(body, "standby")
	})
}

// errorLines are the lines of a JSON log at level ERROR.
func errorLines(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			out = append(out, line)
		}
	}
	return out
}

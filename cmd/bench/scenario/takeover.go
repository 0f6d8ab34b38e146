package scenario

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// TakeoverResult is the standby syncer taking over (issue 24): two syncers on one slot under a
// steady stream of changes; the active one is killed (SIGKILL) again and again, and each time the
// time from the kill until a change committed after it is audited is measured.
type TakeoverResult struct {
	Kills     int       `json:"kills"`
	Takeover  Latency   `json:"kill_to_audit"`
	Rounds    []float64 `json:"kill_to_audit_seconds"`
	Changes   int       `json:"changes"`
	Audited   int       `json:"audited"`
	Duplicate int       `json:"duplicated"`
	Wrong     int       `json:"effective_states_wrong"`
}

func runTakeover(ctx context.Context, e *env) error {
	slot := e.cfg.Slot + "_takeover"
	if err := e.freshSlot(ctx, slot); err != nil {
		return err
	}
	defer e.freshSlot(context.WithoutCancel(ctx), slot)
	var group int64
	if err := e.pool.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', $2, 'takeover')
		returning id`, e.data.Roots[0], e.fixturePath("bench-takeover")).Scan(&group); err != nil {
		return err
	}
	var projects []int64
	if err := e.pool.QueryRow(ctx, `with p as (insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'project', 'p' || i, 'p' from generate_series(1, 16) i returning id) select array_agg(id) from p`, group).Scan(&projects); err != nil {
		return err
	}
	var before int64
	if err := e.pool.QueryRow(ctx, `select coalesce(max(id), 0) from lifecycle.namespace_state_updates`).Scan(&before); err != nil {
		return err
	}

	procs := make([]*syncerProc, 2)
	defer func() {
		for _, p := range procs {
			if p != nil {
				_ = p.stop()
			}
		}
	}()
	var err error
	if procs[0], err = e.startSyncer(ctx, slot); err != nil {
		return err
	}
	if procs[1], err = e.startStandby(ctx, slot); err != nil {
		return err
	}

	// The steady stream: each project archived and unarchived in turn, a change every 20 ms.
	lctx, stopLoad := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var loadErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; lctx.Err() == nil; i++ {
			ev := "archive"
			if (i/len(projects))%2 == 1 {
				ev = "unarchive"
			}
			if _, err := e.pool.Exec(lctx, `select lifecycle.namespace_event($1, $2, null)`, projects[i%len(projects)], ev); err != nil && lctx.Err() == nil {
				loadErr = err
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()

	res := &TakeoverResult{}
	e.res.Takeover = res
	var took []time.Duration
	active := 0
	for k := range e.cfg.TakeoverKills {
		time.Sleep(time.Second) // steady state before the kill
		killed := time.Now()
		procs[active].kill()
		procs[active] = nil
		var audited bool
		for !audited {
			if time.Since(killed) > 2*time.Minute {
				stopLoad()
				return fmt.Errorf("kill %d: no change committed after it was audited within 2 minutes", k+1)
			}
			time.Sleep(10 * time.Millisecond)
			if err := e.pool.QueryRow(ctx, `select exists (select from lifecycle.audit_events a
				where a.namespace_id = any ($1) and a.committed_at > $2)`, projects, killed).Scan(&audited); err != nil {
				stopLoad()
				return err
			}
		}
		d := time.Since(killed)
		took = append(took, d)
		res.Rounds = append(res.Rounds, round3(d.Seconds()))
		e.log.Info("takeover", "kill", k+1, "seconds", round3(d.Seconds()))
		// The killed one comes back as the standby.
		if procs[active], err = e.startStandby(ctx, slot); err != nil {
			stopLoad()
			return err
		}
		active = 1 - active
	}
	stopLoad()
	wg.Wait()
	if loadErr != nil {
		return fmt.Errorf("the changes: %w", loadErr)
	}
	res.Kills = len(took)
	res.Takeover = summarize(took)

	// Exactly once, and lifecycle.effective_states right, once the active syncer caught up.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := e.pool.QueryRow(ctx, `
			with a as (select (details ->> 'state_update_id')::bigint as h, count(*) as n from lifecycle.audit_events
			            where details ? 'state_update_id' group by 1)
			select (select count(*) from lifecycle.namespace_state_updates where id > $1),
			       (select count(*) from a where h > $1), (select count(*) from a where h > $1 and n > 1),
			       (select count(*) from lifecycle.effective_states_verify())`, before).
			Scan(&res.Changes, &res.Audited, &res.Duplicate, &res.Wrong); err != nil {
			return err
		}
		if res.Audited == res.Changes && res.Wrong == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	e.log.Info("takeover", "kills", res.Kills, "p50_ms", res.Takeover.P50, "p99_ms", res.Takeover.P99, "max_ms", res.Takeover.Max,
		"changes", res.Changes, "audited", res.Audited, "duplicated", res.Duplicate, "effective_states_wrong", res.Wrong)
	if res.Audited != res.Changes || res.Duplicate != 0 || res.Wrong != 0 {
		return fmt.Errorf("after %d takeovers: %d changes, %d audited, %d duplicated, %d effective_states rows wrong",
			res.Kills, res.Changes, res.Audited, res.Duplicate, res.Wrong)
	}
	return nil
}

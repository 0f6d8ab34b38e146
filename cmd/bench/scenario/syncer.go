package scenario

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SyncerResult is the syncer scenario: commit → audit-row lag at a fixed transition rate (beside
// the floor consumer's commit → received), the rates it keeps up with, and how fast it drains a
// backlog (beside the floor's).
type SyncerResult struct {
	Rate             int          `json:"rate"`
	Lag              SyncerLag    `json:"lag"`
	Steps            []SyncerStep `json:"steps"`
	HighestSustained int          `json:"highest_sustained_rate"`
	LimitedBy        string       `json:"limited_by"`
	Drain            SyncerDrain  `json:"drain"`
}

// SyncerLag: commit of a source transaction → its audit row committed (the syncer's pg_notify,
// sent at its commit, received by a listener), and → received by the floor consumer.
type SyncerLag struct {
	Offered      int     `json:"offered_tps"`
	Achieved     float64 `json:"achieved_tps"`
	Transactions int     `json:"transactions"`
	Syncer       Latency `json:"syncer"`
	Floor        Latency `json:"floor"`
	FloorTPS     float64 `json:"floor_achieved_tps"`
}

// SyncerStep is one offered rate: kept up when the load got the rate it asked for (95%), every
// transaction was audited within 5 s of the load's end, and the commit → audit p99 stayed under 1 s.
type SyncerStep struct {
	Offered  int     `json:"offered_tps"`
	Achieved float64 `json:"achieved_tps"`
	Lag      Latency `json:"lag"`
	Audited  int     `json:"audited"`
	KeptUp   bool    `json:"kept_up"`
}

// SyncerDrain: a backlog made while the syncer was stopped, recorded after it starts.
type SyncerDrain struct {
	Transactions    int     `json:"transactions"`
	Seconds         float64 `json:"seconds"`
	PerSecond       float64 `json:"per_second"`
	FloorSeconds    float64 `json:"floor_seconds"`
	FloorPerSecond  float64 `json:"floor_per_second"`
	BacklogSeconds  float64 `json:"backlog_made_in_seconds"`
	BacklogTPS      float64 `json:"backlog_tps"`
	SyncerStartedMS float64 `json:"syncer_start_ms"`
}

const (
	publication   = "nslifecycle_facts"
	syncerClients = 8 // the most clients a load of the syncer scenario uses
)

func runSyncer(ctx context.Context, e *env) error {
	if err := e.ensureTargets(ctx); err != nil {
		return err
	}
	w := transitionWorkloads[0]
	if err := e.resetTargets(ctx); err != nil {
		return err
	}
	if _, err := e.pool.Exec(ctx, `select lifecycle.syncer_publication_ensure($1)`, publication); err != nil {
		return err
	}
	if err := e.settle(ctx); err != nil {
		return err
	}
	if err := e.freshSlot(ctx, e.cfg.Slot); err != nil {
		return err
	}
	res := &SyncerResult{Rate: e.cfg.SyncerRate}
	e.res.Syncer = res
	d := e.cfg.SyncerLoad
	load := func(rate, clients int, dur time.Duration) (*pgbenchResult, error) {
		return e.pgb.run(ctx, pgbenchRun{name: "syncer-load", script: script("transition_api.sql",
			map[string]string{"on_event": w.on, "off_event": w.off}), clients: clients, duration: dur, rate: rate,
			vars: map[string]string{"per_client": strconv.Itoa(perClient)}})
	}

	// The floor at the fixed rate.
	floorSlot := e.cfg.Slot + "_floor"
	fc, err := newFloorConsumer(ctx, e.cfg.DatabaseURL, floorSlot)
	if err != nil {
		return err
	}
	if err := fc.start(ctx, publication); err != nil {
		return err
	}
	fctx, stopFloor := context.WithCancel(ctx)
	floorDone := make(chan error, 1)
	go func() { floorDone <- fc.run(fctx) }()
	fc.measure()
	lr, err := load(e.cfg.SyncerRate, 4, d)
	if err != nil {
		stopFloor()
		return err
	}
	time.Sleep(time.Second)
	_, floorLags := fc.received()
	stopFloor()
	if err := <-floorDone; err != nil {
		return fmt.Errorf("floor consumer: %w", err)
	}
	fc.close()
	if err := e.dropSlot(ctx, floorSlot); err != nil {
		return err
	}
	res.Lag.Floor, res.Lag.FloorTPS = summarize(floorLags), round3(lr.tps)
	if len(floorLags) < len(lr.latencies) {
		return fmt.Errorf("the floor consumer received %d of %d transactions", len(floorLags), len(lr.latencies))
	}
	e.log.Info("syncer floor", "rate", e.cfg.SyncerRate, "achieved", int(lr.tps), "lag_p50_ms", res.Lag.Floor.P50, "lag_p99_ms", res.Lag.Floor.P99)

	// The syncer at the fixed rate, then at rising rates.
	sp, err := e.startSyncer(ctx, e.cfg.Slot)
	if err != nil {
		return err
	}
	defer func() {
		if sp != nil {
			sp.stop()
		}
	}()
	if err := e.syncerCaughtUp(ctx); err != nil {
		return fmt.Errorf("%w\n%s", err, sp.tail())
	}
	al, err := newAuditListener(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer al.close()
	step := func(rate int) (SyncerStep, error) {
		s := SyncerStep{Offered: rate}
		since := time.Now()
		r, err := load(rate, 4, d)
		if err != nil {
			return s, err
		}
		s.Achieved = round3(r.tps)
		lags, audited, err := al.wait(ctx, e.pool, since, len(r.latencies), 5*time.Second)
		if err != nil {
			return s, err
		}
		s.Lag, s.Audited = summarize(lags), audited
		s.KeptUp = s.Achieved >= 0.95*float64(rate) && audited >= len(r.latencies) && s.Lag.P99 < 1000
		e.log.Info("syncer step", "offered", rate, "achieved", int(r.tps), "transactions", len(r.latencies), "audited", audited,
			"lag_p50_ms", s.Lag.P50, "lag_p99_ms", s.Lag.P99, "kept_up", s.KeptUp)
		if audited < len(r.latencies) {
			// Let it catch up before the next measurement.
			if err := e.syncerCaughtUp(ctx); err != nil {
				return s, err
			}
		}
		return s, nil
	}
	fixed, err := step(e.cfg.SyncerRate)
	if err != nil {
		return err
	}
	res.Lag.Offered, res.Lag.Achieved, res.Lag.Transactions, res.Lag.Syncer = fixed.Offered, fixed.Achieved, fixed.Audited, fixed.Lag
	for _, rate := range e.cfg.SyncerSteps {
		s, err := step(rate)
		if err != nil {
			return err
		}
		res.Steps = append(res.Steps, s)
		if !s.KeptUp {
			if s.Achieved < 0.95*float64(rate) {
				res.LimitedBy = "database" // the load could not be offered: the syncer was not the limit
			} else {
				res.LimitedBy = "syncer"
			}
			break
		}
		res.HighestSustained = rate
	}
	if res.LimitedBy == "" {
		res.LimitedBy = "none: every rate tried was kept up with"
	}
	if err := sp.stop(); err != nil {
		return err
	}
	sp = nil

	// A backlog made while the syncer is stopped (at full speed), then drained: by the floor on a
	// slot of its own made before the backlog, and by the syncer.
	fc, err = newFloorConsumer(ctx, e.cfg.DatabaseURL, floorSlot)
	if err != nil {
		return err
	}
	defer fc.close()
	var before int64
	if err := e.pool.QueryRow(ctx, `select coalesce(max(id), 0) from lifecycle.audit_events`).Scan(&before); err != nil {
		return err
	}
	br, err := load(0, syncerClients, d)
	if err != nil {
		return err
	}
	n := len(br.latencies)
	res.Drain.Transactions, res.Drain.BacklogSeconds, res.Drain.BacklogTPS = n, d.Seconds(), round3(br.tps)
	start := time.Now()
	if err := fc.start(ctx, publication); err != nil {
		return err
	}
	fctx, stopFloor = context.WithCancel(ctx)
	go func() { floorDone <- fc.run(fctx) }()
	for {
		got, _ := fc.received()
		if got >= n {
			break
		}
		if time.Since(start) > 10*time.Minute {
			stopFloor()
			return fmt.Errorf("the floor consumer received %d of %d backlog transactions in 10 minutes", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	res.Drain.FloorSeconds = round3(time.Since(start).Seconds())
	stopFloor()
	<-floorDone
	fc.close()
	if err := e.dropSlot(ctx, floorSlot); err != nil {
		return err
	}
	start = time.Now()
	if sp, err = e.startSyncer(ctx, e.cfg.Slot); err != nil {
		return err
	}
	res.Drain.SyncerStartedMS = ms(time.Since(start))
	for {
		var audited int
		if err := e.pool.QueryRow(ctx, `select count(*) from lifecycle.audit_events where id > $1`, before).Scan(&audited); err != nil {
			return err
		}
		if audited >= n {
			break
		}
		if time.Since(start) > 10*time.Minute {
			return fmt.Errorf("the syncer recorded %d of %d backlog transactions in 10 minutes", audited, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	elapsed := time.Since(start)
	res.Drain.Seconds = round3(elapsed.Seconds())
	res.Drain.PerSecond = round3(float64(n) / elapsed.Seconds())
	res.Drain.FloorPerSecond = round3(float64(n) / res.Drain.FloorSeconds)
	e.log.Info("syncer drain", "transactions", n, "seconds", res.Drain.Seconds, "per_second", int(res.Drain.PerSecond),
		"floor_per_second", int(res.Drain.FloorPerSecond))
	return nil
}

// ensureTargets fills lifecycle_bench.targets when the transition scenario did not run.
func (e *env) ensureTargets(ctx context.Context) error {
	var n int
	if err := e.pool.QueryRow(ctx, `select count(*) from lifecycle_bench.targets`).Scan(&n); err != nil {
		return err
	}
	if n >= syncerClients*perClient {
		return nil
	}
	_, err := e.chooseTargets(ctx, syncerClients*perClient)
	return err
}

// dropSlot drops a slot, ending its consumer's session first if it lingers (a walsender outlives
// its client's close by a moment).
func (e *env) dropSlot(ctx context.Context, slot string) error {
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var exists bool
		var pid *int32
		err := e.pool.QueryRow(ctx, `select true, active_pid from pg_replication_slots where slot_name = $1`, slot).Scan(&exists, &pid)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if pid != nil {
			if _, err := e.pool.Exec(ctx, `select pg_terminate_backend($1)`, *pid); err != nil {
				return err
			}
		} else if _, err := e.pool.Exec(ctx, `select pg_drop_replication_slot($1)`, slot); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("replication slot %s could not be dropped in 30 s", slot)
		}
	}
}

// freshSlot makes the syncer start on slot as on a new installation: no slot, no progress, so it
// creates the slot at the current position instead of working through an earlier run's backlog.
func (e *env) freshSlot(ctx context.Context, slot string) error {
	if err := e.dropSlot(ctx, slot); err != nil {
		return err
	}
	// No backlog either: the facts of the fixtures and of earlier scenarios, which no syncer
	// recorded, would otherwise be drained by this one; and lifecycle.effective_states current,
	// nothing left to apply.
	for _, q := range []string{`delete from lifecycle.syncer_progress where slot_name = $1`, `delete from lifecycle.facts`,
		`delete from lifecycle.effective_states_pending`, `select lifecycle.effective_states_refresh()`} {
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, slot)
		}
		if _, err := e.pool.Exec(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// syncerCaughtUp makes a fact (a membership of a user who is no one, added and removed) and waits
// until the syncer has recorded it: everything committed before it is recorded too. A new marker
// every few seconds, in case one committed before the syncer's slot was ready.
func (e *env) syncerCaughtUp(ctx context.Context) error {
	root := e.data.Roots[0]
	var users []int64
	defer func() {
		e.pool.Exec(context.WithoutCancel(ctx), `delete from lifecycle.namespace_members where namespace_id = $1 and user_id = any ($2)`, root, users)
	}()
	deadline := time.Now().Add(10 * time.Minute)
	var nextMarker time.Time
	for {
		if time.Now().After(nextMarker) {
			user := 1_000_000_000 + time.Now().UnixNano()%1_000_000_000
			if _, err := e.pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 10)`,
				root, user); err != nil {
				return err
			}
			users = append(users, user)
			nextMarker = time.Now().Add(5 * time.Second)
		}
		var done bool
		if err := e.pool.QueryRow(ctx, `select exists (select from lifecycle.audit_events where action = 'member_added'
			and namespace_id = $1 and (details ->> 'user_id')::bigint = any ($2))`, root, users).Scan(&done); err != nil {
			return err
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the syncer has not caught up in 10 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// auditListener LISTENs to the syncer's pg_notify (sent when an audit row's transaction commits)
// and notes when each audit row arrived. The notification carries no payload (any login may
// LISTEN): on each, the listener reads the audit rows past the last it saw, and dates them from
// the notification. A row committed between the notification and that read is dated a little
// early, by at most the read's duration.
type auditListener struct {
	conn   *pgx.Conn
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	recv   map[int64]time.Time
}

func newAuditListener(ctx context.Context, url string) (*auditListener, error) {
	conn, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	var last int64
	if err := conn.QueryRow(ctx, `select coalesce(max(id), 0) from lifecycle.audit_events`).Scan(&last); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	if _, err := conn.Exec(ctx, `listen nslifecycle_audit`); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	lctx, cancel := context.WithCancel(ctx)
	a := &auditListener{conn: conn, cancel: cancel, done: make(chan struct{}), recv: map[int64]time.Time{}}
	go func() {
		defer close(a.done)
		for {
			if _, err := conn.WaitForNotification(lctx); err != nil {
				return
			}
			now := time.Now()
			rows, err := conn.Query(lctx, `select id from lifecycle.audit_events where id > $1 order by id`, last)
			if err != nil {
				return
			}
			ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				return
			}
			a.mu.Lock()
			for _, id := range ids {
				a.recv[id] = now
				last = id
			}
			a.mu.Unlock()
		}
	}()
	return a, nil
}

// wait waits (at most `grace` after now) until `want` audit rows of source transactions committed
// since `since` have arrived, and returns their commit → arrival lags.
func (a *auditListener) wait(ctx context.Context, pool *pgxpool.Pool, since time.Time, want int, grace time.Duration) ([]time.Duration, int, error) {
	deadline := time.Now().Add(grace)
	for {
		a.mu.Lock()
		ids := make([]int64, 0, len(a.recv))
		at := make(map[int64]time.Time, len(a.recv))
		for id, t := range a.recv {
			if !t.Before(since) {
				ids = append(ids, id)
				at[id] = t
			}
		}
		a.mu.Unlock()
		rows, err := pool.Query(ctx, `select id, committed_at from lifecycle.audit_events where id = any($1) and committed_at >= $2
			and action in ('archived', 'unarchived')`, ids, since)
		if err != nil {
			return nil, 0, err
		}
		var lags []time.Duration
		var id int64
		var committed time.Time
		if _, err := pgx.ForEachRow(rows, []any{&id, &committed}, func() error {
			lags = append(lags, at[id].Sub(committed))
			return nil
		}); err != nil {
			return nil, 0, err
		}
		if len(lags) >= want || time.Now().After(deadline) {
			return lags, len(lags), nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (a *auditListener) close() {
	a.cancel()
	<-a.done
	a.conn.Close(context.Background())
}

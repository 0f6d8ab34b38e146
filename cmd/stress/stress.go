// The stress run (this file) tries to break the product's promises under load (issue: reliability): clients
// fire random lifecycle operations at a random tree while the syncer is killed and restarted and
// PostgreSQL is restarted, then the database is asked whether any invariant broke, whether every
// state change has its history row, and whether every history row reached the audit.

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

// Config is one run.
type Config struct {
	DatabaseURL     string        // a migrated database of the run's own
	Clients         int           // concurrent clients
	Duration        time.Duration // how long they fire
	Namespaces      int           // size of the random tree
	SyncerBinary    string        // the syncer to run (and kill) beside the clients
	Slot            string        // its replication slot
	KillEvery       time.Duration // SIGKILL the syncer this often (0: never)
	RestartPostgres func() error  // restarts the server once, mid-run (nil: no restart)
	Log             *slog.Logger
}

// Report is what a run did and found.
type Report struct {
	Clients, Namespaces       int
	Duration                  time.Duration
	Operations                int64
	Changes                   int64            // state changes the clients saw succeed (changed = true, or a move's end)
	Ambiguous                 int64            // calls cut off by a restart: committed or not, unknown to the client
	Refusals                  map[string]int64 // by SQLSTATE (documented refusals, lock timeouts 55P03, deadlocks 40P01)
	Other                     map[string]int64 // anything else, by error text
	SyncerKills, PGRestarts   int
	History, Counted, Audited int64    // history rows, state changes counted by the gate, audit rows of history rows
	EffectiveStatesWrong      int64    // rows of lifecycle.effective_states that differ from the definition a minute after the audit caught up
	EffectiveStatesRows       []string // the first of them
	Violations                []string
}

type client struct {
	r      *rand.Rand
	pool   *pgxpool.Pool       // the client's own: the application role's, or a superuser's
	worker *nslifecycle.Client // a superuser's, for what only workers do (hard-delete batches)
	app    bool                // pool is the application role's
	lc     *nslifecycle.Client
	ids    []int64
}

// appRole is the login the application-side clients use: a member of lifecycle_app, as a forge's
// application would be. Cluster-wide, created once and kept.
const appRole = "nslifecycle_stress_app"

// appPool connects as appRole, creating the role when it is missing.
func appPool(ctx context.Context, pool *pgxpool.Pool, databaseURL string) (*pgxpool.Pool, error) {
	if _, err := pool.Exec(ctx, `do $$ begin
		create role `+appRole+` login in role lifecycle_app;
	exception when duplicate_object then null;
	end $$`); err != nil {
		return nil, fmt.Errorf("create role %s: %w", appRole, err)
	}
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.User = appRole
	cfg.ConnConfig.Password = ""
	return pgxpool.NewWithConfig(ctx, cfg)
}

// Run builds the tree, fires the clients for cfg.Duration while killing the syncer and restarting
// PostgreSQL, waits for the syncer to catch up, and checks.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	rep := &Report{Clients: cfg.Clients, Namespaces: cfg.Namespaces, Refusals: map[string]int64{}, Other: map[string]int64{}}
	pool, err := pgxpool.New(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	ids, err := buildTree(ctx, pool, cfg.Namespaces)
	if err != nil {
		return nil, fmt.Errorf("build the tree: %w", err)
	}
	// Half the clients are the application (lifecycle_app): what it may not do (leave a state an
	// operation owns, act as the system) it is refused with a documented code; the other half act
	// with a superuser's authority, as workers and operators do.
	app, err := appPool(ctx, pool, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	defer app.Close()

	syncer := &process{bin: cfg.SyncerBinary, env: "DATABASE_URL=" + cfg.DatabaseURL,
		args: []string{"-slot", cfg.Slot, "-listen", "", "-log-format", "json", "-standby-interval", "1s", "-heartbeat-interval", "1s",
			// The clients run the moves themselves, so every state change is one they saw.
			"-async-operations=false"}}
	if err := syncer.start(); err != nil {
		return nil, err
	}
	defer syncer.stop()
	// Changes committed before the slot exists are not in it: start firing once it streams. A
	// slot reads as active while it is still being created (waiting for the transactions running
	// on the server to end, which may be long on a busy server), and a transaction that began
	// before it was ready is never decoded: so wait until a marker change made now is audited.
	if err := waitForSlot(ctx, pool, cfg.Slot, 2*time.Minute); err != nil {
		return nil, err
	}
	if err := waitForMarker(ctx, pool, 2*time.Minute); err != nil {
		return nil, err
	}

	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		ops      atomic.Int64
		changes  atomic.Int64
		unknown  atomic.Int64
		deadline = time.Now().Add(cfg.Duration)
	)
	record := func(err error) {
		var pg *pgconn.PgError
		mu.Lock()
		defer mu.Unlock()
		switch {
		case isConnectError(err) || pgconn.SafeToRetry(err) || errors.Is(err, context.DeadlineExceeded):
			// never reached the server (refused, or still recovering): nothing happened
		case errors.As(err, &pg) && (pg.Code[:2] == "NS" || pg.Code == "55P03" || pg.Code == "40P01"):
			rep.Refusals[pg.Code]++
		case errors.As(err, &pg) && (pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03"):
			unknown.Add(1) // the server went away mid-call
		default:
			if isConnectionError(err) {
				unknown.Add(1)
				return
			}
			rep.Other[err.Error()]++
		}
	}
	for i := range cfg.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := pool
			if i%2 == 0 {
				own = app
			}
			c := &client{r: rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano()))), pool: own,
				lc: nslifecycle.NewClient(own), worker: nslifecycle.NewClient(pool), app: own == app, ids: ids}
			for time.Now().Before(deadline) && ctx.Err() == nil {
				// The changes an operation committed count even when a later step of it failed
				// (a transfer started whose move was refused, a deletion started whose batch was).
				changed, err := c.operate(ctx)
				ops.Add(1)
				changes.Add(changed)
				if err != nil {
					record(nslifecycle.FromDB(err))
				}
			}
		}()
	}

	// Chaos beside the clients: kill and restart the syncer now and then, restart the server once.
	chaosDone := make(chan struct{})
	go func() {
		defer close(chaosDone)
		restarted := cfg.RestartPostgres == nil
		kill := time.NewTicker(max(cfg.KillEvery, time.Hour))
		if cfg.KillEvery > 0 {
			kill.Reset(cfg.KillEvery)
		}
		defer kill.Stop()
		restartAt := time.After(cfg.Duration / 2)
		for time.Now().Before(deadline) {
			select {
			case <-kill.C:
				syncer.kill()
				rep.SyncerKills++
				if err := syncer.start(); err != nil {
					cfg.Log.Error("restart the syncer", "err", err)
				}
			case <-restartAt:
				if !restarted {
					restarted = true
					if err := cfg.RestartPostgres(); err != nil {
						cfg.Log.Error("restart PostgreSQL", "err", err)
					} else {
						rep.PGRestarts++
					}
				}
			case <-time.After(time.Until(deadline)):
			}
		}
	}()
	wg.Wait()
	<-chaosDone
	rep.Operations, rep.Changes, rep.Ambiguous = ops.Load(), changes.Load(), unknown.Load()
	rep.Duration = cfg.Duration

	// Transfers the clients left in progress: finish them, so the counts below settle.
	if err := finishTransfers(ctx, pool, &rep.Changes); err != nil {
		return rep, err
	}
	if err := waitForAudit(ctx, pool, 2*time.Minute); err != nil {
		return rep, err
	}
	err = pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespace_state_updates),
		(select coalesce(sum(state_changes), 0) from lifecycle.namespaces) + (select count(*) from lifecycle.namespace_state_updates u
		  where not exists (select from lifecycle.namespaces n where n.id = u.namespace_id)),
		(select count(*) from lifecycle.audit_events where details ? 'state_update_id')`).Scan(&rep.History, &rep.Counted, &rep.Audited)
	if err != nil {
		return rep, err
	}
	// The syncer keeps lifecycle.effective_states from the facts: once it has caught up, the table
	// equals its definition (a little after the audit: the update follows the recording).
	for wait := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if err := pool.QueryRow(ctx, `select count(*) from lifecycle.effective_states_verify()`).Scan(&rep.EffectiveStatesWrong); err != nil {
			return rep, err
		}
		if rep.EffectiveStatesWrong == 0 || time.Now().After(wait) {
			break
		}
	}
	if rep.EffectiveStatesWrong > 0 {
		rows, err := pool.Query(ctx, `select namespace_id || ': ' || problem from lifecycle.effective_states_verify() limit 5`)
		if err != nil {
			return rep, err
		}
		rep.EffectiveStatesRows, err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return rep, err
		}
	}
	rows, err := pool.Query(ctx, `select namespace_id || ' ' || invariant || ': ' || reason from lifecycle.check_invariants()`)
	if err != nil {
		return rep, err
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return rep, err
		}
		rep.Violations = append(rep.Violations, v)
	}
	return rep, rows.Err()
}

// Failures lists what the report shows broken; empty when every promise held.
func (r *Report) Failures() []string {
	var f []string
	if len(r.Violations) > 0 {
		f = append(f, fmt.Sprintf("%d invariant violations: %v", len(r.Violations), r.Violations))
	}
	if r.History < r.Changes || r.History > r.Changes+r.Ambiguous {
		f = append(f, fmt.Sprintf("%d history rows for %d changes seen by the clients (+%d calls cut off by a restart)",
			r.History, r.Changes, r.Ambiguous))
	}
	if r.EffectiveStatesWrong != 0 {
		f = append(f, fmt.Sprintf("%d rows of lifecycle.effective_states differ from the definition (effective_states_verify): %v",
			r.EffectiveStatesWrong, r.EffectiveStatesRows))
	}
	if r.Audited != r.History {
		f = append(f, fmt.Sprintf("%d audit rows for %d history rows", r.Audited, r.History))
	}
	if len(r.Other) > 0 {
		f = append(f, fmt.Sprintf("undocumented errors: %v", r.Other))
	}
	return f
}

var events = []string{"archive", "unarchive", "schedule_deletion", "restore", "maintain", "unmaintain", "transfer_start"}

// operate does one random operation; it returns the number of state changes it committed, also
// when it fails after some.
func (c *client) operate(ctx context.Context) (int64, error) {
	ns := c.ids[c.r.IntN(len(c.ids))]
	actor := int64(1) // owns the whole tree
	switch k := c.r.IntN(11); {
	case k < 5:
		t, err := c.lc.Event(ctx, ns, events[c.r.IntN(len(events)-1)], &actor, nil)
		return b2i(t.Changed), err
	case k < 6 && c.app && c.r.IntN(2) == 0:
		// Out of a state an operation owns (a running hard delete or transfer), by hand: refused
		// to the application (NS005). (The other clients, with a worker's authority, may; they
		// meet these states through the random transitions below.)
		var busy int64
		err := c.pool.QueryRow(ctx, `select id from lifecycle.namespaces where state in (4, 5) order by random() limit 1`).Scan(&busy)
		if err != nil {
			return 0, nil // none right now
		}
		t, err := c.lc.Transition(ctx, busy, []string{"active", "archived"}[c.r.IntN(2)], &actor, nil)
		return b2i(t.Changed), err
	case k < 6:
		t, err := c.lc.Transition(ctx, ns, []string{"active", "archived", "deletion_scheduled", "maintenance"}[c.r.IntN(4)], &actor, nil)
		return b2i(t.Changed), err
	case k < 7:
		_, err := c.lc.Rename(ctx, ns, fmt.Sprintf("n%d-%d", ns, c.r.IntN(1000)), &actor)
		return 0, err
	case k < 8:
		req, err := c.lc.RequestTransfer(ctx, ns, c.ids[c.r.IntN(len(c.ids))], &actor)
		if err != nil || req.Status != "accepted" {
			return 0, err
		}
		var moved int64 = 1 // transfer_start
		outcome, err := c.lc.ExecuteTransfer(ctx, ns)
		if outcome == "completed" || outcome == "failed" {
			moved++ // transfer_done
		}
		return moved, err
	case k < 9:
		_, err := db.New(c.pool).MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: ns, UserID: int64(100 + c.r.IntN(20)),
			AccessLevel: int16(10 * (1 + c.r.IntN(5)))})
		return 0, err
	case k < 10 || c.r.IntN(10) > 0:
		_, err := c.lc.SetVisibility(ctx, ns, []string{"private", "internal", "public"}[c.r.IntN(3)], &actor)
		return 0, err
	default:
		// Now and then, delete now, then one batch of one row of the hard delete: the namespace
		// stays deletion_in_progress with part of its subtree gone, for the others to collide with
		// (rarely: each deletion takes namespaces out of the tree for good).
		t, err := c.lc.Event(ctx, ns, "deletion_start", &actor, nil)
		if err != nil || !t.Changed {
			return b2i(t.Changed), err
		}
		batch := int32(1)
		_, err = c.worker.HardDelete(ctx, ns, &batch)
		return 1, err
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// process is a binary run, killed and restarted by the chaos.
type process struct {
	bin, env string
	args     []string
	cmd      *exec.Cmd
}

func (p *process) start() error {
	p.cmd = exec.Command(p.bin, p.args...)
	p.cmd.Env = append(os.Environ(), p.env)
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return p.cmd.Start()
}

func (p *process) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		_ = p.cmd.Wait()
	}
}

func (p *process) stop() {
	if p.cmd != nil && p.cmd.Process != nil && p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}
}

// buildTree creates an organization owned by user 1 with n namespaces below it: groups nested up
// to a few levels, projects as leaves. Returns every id.
func buildTree(ctx context.Context, pool *pgxpool.Pool, n int) ([]int64, error) {
	var org int64
	if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', 'stress', 'Stress')
		returning id`).Scan(&org); err != nil {
		return nil, err
	}
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 1, 50)`, org); err != nil {
		return nil, err
	}
	ids := []int64{org}
	groups := []int64{org}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; len(ids) < n; i++ {
		parent := groups[r.IntN(len(groups))]
		typ := "project"
		if r.IntN(3) == 0 || len(groups) < 5 {
			typ = "group"
		}
		var id int64
		if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, $2, $3, $3)
			returning id`, parent, typ, fmt.Sprintf("%s%d", typ[:1], i)).Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
		if typ == "group" {
			groups = append(groups, id)
		}
	}
	return ids, nil
}

// finishTransfers moves what the clients left in transfer_in_progress (a call cut off by a
// restart), counting each move's end.
func finishTransfers(ctx context.Context, pool *pgxpool.Pool, changes *int64) error {
	rows, err := pool.Query(ctx, `select id from lifecycle.namespaces where state = 5`)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	lc := nslifecycle.NewClient(pool)
	for _, id := range ids {
		outcome, err := lc.ExecuteTransfer(ctx, id)
		if err != nil {
			return fmt.Errorf("finish the transfer of %d: %w", id, err)
		}
		if outcome == "completed" || outcome == "failed" {
			*changes++
		}
	}
	return nil
}

func waitForSlot(ctx context.Context, pool *pgxpool.Pool, slot string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		var active bool
		err := pool.QueryRow(ctx, `select coalesce((select active from pg_replication_slots where slot_name = $1), false)`, slot).Scan(&active)
		if err == nil && active {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the syncer did not start streaming from %s within %s (%v)", slot, timeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitForMarker creates a marker namespace every two seconds until the syncer has audited the
// creation of one (a marker committed while the slot was still being made is never decoded).
func waitForMarker(ctx context.Context, pool *pgxpool.Pool, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var markers []int64
	for i := 0; ; i++ {
		if i%20 == 0 {
			var marker int64
			if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'marker')
				returning id`, fmt.Sprintf("stress-marker-%d", i/20)).Scan(&marker); err != nil {
				return err
			}
			markers = append(markers, marker)
		}
		var n int
		err := pool.QueryRow(ctx, `select count(*) from lifecycle.audit_events where namespace_id = any ($1) and action = 'namespace_created'`,
			markers).Scan(&n)
		if err == nil && n > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the syncer audited none of %d marker changes within %s (%v)", len(markers), timeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitForAudit waits until every history row has its audit row and the count holds still.
func waitForAudit(ctx context.Context, pool *pgxpool.Pool, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		var history, audited int64
		err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespace_state_updates),
			(select count(*) from lifecycle.audit_events where details ? 'state_update_id')`).Scan(&history, &audited)
		if err == nil && history == audited {
			return nil
		}
		if time.Now().After(deadline) {
			var missing []string
			rows, qerr := pool.Query(ctx, `select format('history %s: namespace %s %s->%s event %s actor %s source %s at %s', u.id, u.namespace_id,
				u.from_state, u.to_state, u.event, u.actor_id, u.source, u.created_at)
				from lifecycle.namespace_state_updates u
				where not exists (select from lifecycle.audit_events a where a.details ->> 'state_update_id' = u.id::text)
				order by u.id limit 5`)
			if qerr == nil {
				for rows.Next() {
					var m string
					if rows.Scan(&m) == nil {
						missing = append(missing, m)
					}
				}
				rows.Close()
			}
			var waiting int64
			_ = pool.QueryRow(ctx, `select count(*) from lifecycle.facts`).Scan(&waiting)
			return fmt.Errorf("the audit did not catch up within %s: %d history rows, %d audited (%v); not audited: %v; facts waiting in lifecycle.facts: %d",
				timeout, history, audited, err, missing, waiting)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func isConnectError(err error) bool {
	var ce *pgconn.ConnectError
	return errors.As(err, &ce)
}

// isConnectionError: the call may or may not have reached the server before the connection broke.
func isConnectionError(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return false
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || pgconn.Timeout(err) || errors.Is(err, os.ErrDeadlineExceeded) ||
		slices.ContainsFunc([]string{"conn closed", "unexpected EOF", "connection reset", "broken pipe", "connection refused",
			"failed to connect", "timeout"}, func(sub string) bool { return strings.Contains(err.Error(), sub) })
}

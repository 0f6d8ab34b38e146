package scenario

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TransitionsInfo is the transition throughput scenario: each workload at each client count, by
// four methods, with the targets it ran on.
type TransitionsInfo struct {
	Targets       int             `json:"targets"`
	TargetGroups  int             `json:"target_groups"`
	PerClient     int             `json:"targets_per_client"`
	Runs          []TransitionRun `json:"runs"`
	ServerCPUNote string          `json:"note,omitempty"`
}

// TransitionRun is one method at one client count: the median throughput of the rounds and the
// latencies of every transaction of all rounds.
type TransitionRun struct {
	Workload string    `json:"workload"`
	Method   string    `json:"method"`
	Clients  int       `json:"clients"`
	TPS      float64   `json:"tps"`
	Rounds   []float64 `json:"tps_rounds"`
	Latency  Latency   `json:"latency"`

	lat []time.Duration
}

// The methods of the transition scenario.
const (
	MethodAPIPgbench = "api_pgbench" // lifecycle.namespace_event, driven by pgbench
	MethodRawPgbench = "raw_pgbench" // the floor: raw UPDATE + history INSERT, driven by pgbench
	MethodAPIGo      = "api_go"      // lifecycle.namespace_event, driven by Go (pgx)
	MethodAppSideGo  = "appside_go"  // the application-side state machine in Go, on the raw tables
	// the same machine keeping the product's records: the details row's metadata and an outbox row
	MethodAppSideRecordsGo = "appside_records_go"
)

// workload is a pair of events that toggle a namespace between active and a state.
type workload struct {
	name, on, off string
	onState       int16 // the on event's target state, read from lifecycle.events
}

var transitionWorkloads = []workload{
	{name: "archive/unarchive", on: "archive", off: "unarchive"},
	{name: "schedule/restore", on: "schedule_deletion", off: "restore"},
}

const perClient = 200

func runTransitions(ctx context.Context, e *env) error {
	maxClients := 0
	for _, c := range e.cfg.Clients {
		maxClients = max(maxClients, c)
	}
	info, err := e.chooseTargets(ctx, maxClients*perClient)
	if err != nil {
		return err
	}
	e.res.Transitions = info
	app, err := e.appSide(ctx)
	if err != nil {
		return err
	}
	apiSQL := `select e.changed from lifecycle_bench.targets t join lifecycle.namespaces n on n.id = t.id
		cross join lateral lifecycle.namespace_event(t.id, case when n.state = 0 then $2 else $3 end, t.actor) e
		where t.slot = $1`
	for _, w := range transitionWorkloads {
		if err := e.pool.QueryRow(ctx, `select target_state from lifecycle.events where name = $1`, w.on).Scan(&w.onState); err != nil {
			return err
		}
		if err := e.resetTargets(ctx); err != nil {
			return err
		}
		if err := e.settle(ctx); err != nil {
			return err
		}
		vals := map[string]string{"on_event": w.on, "off_event": w.off, "on_state": strconv.Itoa(int(w.onState))}
		methods := []struct {
			name string
			run  func(clients int) (*pgbenchResult, error)
		}{
			{MethodAPIPgbench, func(c int) (*pgbenchResult, error) {
				return e.pgb.run(ctx, pgbenchRun{name: "api", script: script("transition_api.sql", vals), clients: c,
					duration: e.cfg.Duration, vars: map[string]string{"per_client": strconv.Itoa(perClient)}})
			}},
			{MethodRawPgbench, func(c int) (*pgbenchResult, error) {
				return e.pgb.run(ctx, pgbenchRun{name: "raw", script: script("transition_raw.sql", vals), clients: c,
					duration: e.cfg.Duration, vars: map[string]string{"per_client": strconv.Itoa(perClient)}})
			}},
			{MethodAPIGo, func(c int) (*pgbenchResult, error) {
				return drive(ctx, e.cfg.DatabaseURL, c, e.cfg.Duration, func(ctx context.Context, conn *pgx.Conn, client int, r *rand.Rand) error {
					var changed bool
					return conn.QueryRow(ctx, apiSQL, client*perClient+r.IntN(perClient), w.on, w.off).Scan(&changed)
				})
			}},
			{MethodAppSideGo, func(c int) (*pgbenchResult, error) {
				return drive(ctx, e.cfg.DatabaseURL, c, e.cfg.Duration, func(ctx context.Context, conn *pgx.Conn, client int, r *rand.Rand) error {
					t := app.targets[client*perClient+r.IntN(perClient)]
					return app.toggle(ctx, conn, t.id, t.actor, w.onState, w.on, w.off, false)
				})
			}},
			{MethodAppSideRecordsGo, func(c int) (*pgbenchResult, error) {
				return drive(ctx, e.cfg.DatabaseURL, c, e.cfg.Duration, func(ctx context.Context, conn *pgx.Conn, client int, r *rand.Rand) error {
					t := app.targets[client*perClient+r.IntN(perClient)]
					return app.toggle(ctx, conn, t.id, t.actor, w.onState, w.on, w.off, true)
				})
			}},
		}
		runs := map[string]*TransitionRun{}
		var order []string
		for round := range e.cfg.Rounds {
			for _, c := range e.cfg.Clients {
				for _, m := range methods {
					res, err := m.run(c)
					if err != nil {
						return fmt.Errorf("%s %s at %d clients: %w", w.name, m.name, c, err)
					}
					key := fmt.Sprintf("%s/%d", m.name, c)
					r := runs[key]
					if r == nil {
						r = &TransitionRun{Workload: w.name, Method: m.name, Clients: c}
						runs[key] = r
						order = append(order, key)
					}
					r.Rounds = append(r.Rounds, round3(res.tps))
					r.lat = append(r.lat, res.latencies...)
					e.log.Info("transitions", "workload", w.name, "method", m.name, "clients", c, "round", round+1,
						"tps", int(res.tps))
				}
			}
		}
		for _, k := range order {
			r := runs[k]
			r.TPS = round3(median(r.Rounds))
			r.Latency = summarize(r.lat)
			r.lat = nil
			info.Runs = append(info.Runs, *r)
		}
	}
	// The last workload leaves some targets scheduled for deletion or archived; the scenarios
	// after this one pick namespaces from the same hierarchy and expect it as generated.
	return e.resetTargets(ctx)
}

type target struct{ id, actor int64 }

// chooseTargets picks up to n namespaces to toggle: active groups and projects under active
// ancestors, no one an ancestor of another (so concurrent clients never refuse each other through
// a guard), each acted on by the owner of its organization; and fills lifecycle_bench.targets.
func (e *env) chooseTargets(ctx context.Context, n int) (*TransitionsInfo, error) {
	rows, err := e.pool.Query(ctx, `select n.id, n.traversal_ids, n.type = 'group',
			(select m.user_id from lifecycle.namespace_members m where m.namespace_id = n.traversal_ids[1] and m.access_level = 50
			  order by m.user_id limit 1)
		  from lifecycle.namespaces n
		 where n.state = 0 and n.type in ('group', 'project')
		   and not exists (select from lifecycle.namespaces a where a.id = any (n.traversal_ids) and a.state <> 0)
		 order by random() limit $1`, n*4)
	if err != nil {
		return nil, err
	}
	var (
		id, actor int64
		path      []int64
		group     bool
	)
	chosen := map[int64]bool{}  // ids taken
	covered := map[int64]bool{} // ancestors of ids taken
	info := &TransitionsInfo{PerClient: perClient}
	var copyRows [][]any
	_, err = pgx.ForEachRow(rows, []any{&id, &path, &group, &actor}, func() error {
		if len(copyRows) == n || covered[id] {
			return nil
		}
		for _, a := range path[:len(path)-1] {
			if chosen[a] {
				return nil
			}
		}
		chosen[id] = true
		for _, a := range path[:len(path)-1] {
			covered[a] = true
		}
		copyRows = append(copyRows, []any{int32(len(copyRows)), id, actor})
		if group {
			info.TargetGroups++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(copyRows) < n {
		return nil, fmt.Errorf("only %d of %d transition targets found", len(copyRows), n)
	}
	info.Targets = len(copyRows)
	if _, err := e.pool.Exec(ctx, `truncate lifecycle_bench.targets`); err != nil {
		return nil, err
	}
	_, err = e.pool.CopyFrom(ctx, pgx.Identifier{"lifecycle_bench", "targets"}, []string{"slot", "id", "actor"}, pgx.CopyFromRows(copyRows))
	return info, err
}

// appSide loads the application-side machine's rules and the targets it acts on.
func (e *env) appSide(ctx context.Context) (*appSideRun, error) {
	conn, err := e.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	a, err := loadAppSide(ctx, conn.Conn())
	if err != nil {
		return nil, err
	}
	// The targets' details rows, for the machine that keeps the product's records.
	if _, err := conn.Exec(ctx, `insert into lifecycle_bench.namespace_details select d.* from lifecycle.namespace_details d
		join lifecycle_bench.targets t on t.id = d.namespace_id on conflict do nothing`); err != nil {
		return nil, err
	}
	rows, err := conn.Query(ctx, `select id, actor from lifecycle_bench.targets order by slot`)
	if err != nil {
		return nil, err
	}
	targets, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (target, error) {
		var t target
		return t, row.Scan(&t.id, &t.actor)
	})
	return &appSideRun{appSide: a, targets: targets}, err
}

type appSideRun struct {
	*appSide
	targets []target
}

// resetTargets brings every target back to active, through the API on the product's tables and
// raw on the floor's, so each workload (and each scenario after them) starts from the same states.
func (e *env) resetTargets(ctx context.Context) error {
	// A client of the scenario before may still be finishing a call whose context was canceled
	// (the server ends the statement it has): a target can change state under this statement, which
	// then refuses (NS001) and runs again on what it finds.
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		_, err = e.pool.Exec(ctx, `select lifecycle.namespace_event(t.id,
				case n.state when 1 then 'unarchive' when 2 then 'restore' end, t.actor)
			  from lifecycle_bench.targets t join lifecycle.namespaces n on n.id = t.id where n.state in (1, 2)`)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "NS001" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("reset targets: %w", err)
	}
	_, err = e.pool.Exec(ctx, `update lifecycle_bench.namespaces n set state = 0 from lifecycle_bench.targets t
		where n.id = t.id and n.state <> 0`)
	return err
}

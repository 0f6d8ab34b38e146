package scenario

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// VacuumResult is the vacuum scenario (issue 25): a steady transition load on the generated
// hierarchy under PostgreSQL's autovacuum defaults and under the per-table settings measured
// (those the migrations set, or -vacuum-settings), side by side in every round, each side starting
// from the same compacted tables. A transition leaves a dead row in each table it updates, and
// none of lifecycle.namespaces' can be HOT (docs/benchmarks.md): what they cost until vacuum
// reclaims them is measured here.
type VacuumResult struct {
	Namespaces int          `json:"namespaces"`
	Targets    int          `json:"targets"` // projects toggled (archive/unarchive), a tenth of the namespaces
	Clients    int          `json:"clients"`
	Seconds    float64      `json:"seconds"` // of each side's load, each round
	Naptime    string       `json:"autovacuum_naptime"`
	Sides      []VacuumSide `json:"sides"`
}

// VacuumSide is one set of settings: the load's throughput (median of the rounds) and latency
// (every transaction of every round), and each table's figures (medians of the rounds).
type VacuumSide struct {
	Name      string              `json:"name"`     // "defaults" or "tuned"
	Settings  map[string][]string `json:"settings"` // the tables' autovacuum reloptions during the side
	TPS       float64             `json:"tps"`
	Rounds    []float64           `json:"tps_rounds"`
	MinWindow float64             `json:"slowest_10s_tps"` // median over the rounds of the slowest 10 s of each
	Latency   Latency             `json:"latency"`
	// The state changes each round made: rows of the history written during the load.
	Transitions []int64         `json:"transitions_rounds"`
	Tables      []VacuumTable   `json:"tables"`
	PerRound    [][]VacuumTable `json:"table_rounds"`

	lat     []time.Duration
	windows []float64
}

// VacuumTable is one table during one side's load: sizes before and after (bytes), the most dead
// rows seen, the updates and how many were HOT, the autovacuum and autoanalyze runs, and the share
// of the samples (one a second) in which a vacuum of it was running. Updates and HOT updates are
// the statistics' (pg_stat_user_tables), which may also carry a few earlier writes whose session
// sent them late; every transition updates one row of each table.
type VacuumTable struct {
	Table          string  `json:"table"`
	HeapBefore     int64   `json:"heap_before"`
	HeapAfter      int64   `json:"heap_after"`
	IndexesBefore  int64   `json:"indexes_before"`
	IndexesAfter   int64   `json:"indexes_after"`
	MaxDead        int64   `json:"max_dead_rows"`
	MeanDead       int64   `json:"mean_dead_rows"`
	Updates        int64   `json:"updates"`
	HOTUpdates     int64   `json:"hot_updates"`
	Autovacuums    int64   `json:"autovacuums"`
	Autoanalyzes   int64   `json:"autoanalyzes"`
	VacuumingShare float64 `json:"vacuuming_share"`
}

// vacuumTables are the tables a transition updates (the others it writes are insert-only: the
// history, the outbox, which the syncer empties and which has settings of its own since 035).
var vacuumTables = []string{"lifecycle.namespaces", "lifecycle.namespace_details"}

const vacuumClients = 8

var (
	reloptionName  = regexp.MustCompile(`^autovacuum_[a-z_]+$`)
	reloptionValue = regexp.MustCompile(`^([0-9]+(\.[0-9]+)?|true|false|on|off)$`)
)

// ParseVacuumSettings reads -vacuum-settings: "table.option=value,…", the table without its
// schema (namespaces.autovacuum_vacuum_scale_factor=0.01,namespace_details.autovacuum_…=…).
func ParseVacuumSettings(s string) (map[string][]string, error) {
	out := map[string][]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		table, opt, ok := strings.Cut(strings.TrimSpace(f), ".")
		name, value, ok2 := strings.Cut(opt, "=")
		qualified := "lifecycle." + table
		if !ok || !ok2 || !slices.Contains(vacuumTables, qualified) || !reloptionName.MatchString(name) || !reloptionValue.MatchString(value) {
			return nil, fmt.Errorf("bad -vacuum-settings entry %q: want table.autovacuum_option=number, table one of %v", f, vacuumTables)
		}
		out[qualified] = append(out[qualified], name+"="+value)
	}
	return out, nil
}

func runVacuum(ctx context.Context, e *env) error {
	conn, err := connect(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	migrated := map[string][]string{} // every reloption as found, restored at the end
	for _, t := range vacuumTables {
		var opts []string
		if err := conn.QueryRow(ctx, `select coalesce(reloptions, '{}') from pg_catalog.pg_class where oid = $1::regclass`, t).Scan(&opts); err != nil {
			return err
		}
		migrated[t] = opts
	}
	// The side measured against the defaults: -vacuum-settings, else the autovacuum settings the
	// migrations left on the tables.
	tuned := e.cfg.VacuumSettings
	if len(tuned) == 0 {
		tuned = map[string][]string{}
		for t, opts := range migrated {
			for _, o := range opts {
				if reloptionName.MatchString(strings.SplitN(o, "=", 2)[0]) {
					tuned[t] = append(tuned[t], o)
				}
			}
		}
	}
	if len(tuned) == 0 {
		return fmt.Errorf("nothing to measure against the defaults: the tables have no autovacuum settings and -vacuum-settings is empty")
	}
	defer func() {
		if err := setReloptions(context.WithoutCancel(ctx), conn, migrated); err != nil {
			e.log.Error("vacuum: restore the tables' settings", "err", err)
		}
	}()

	n := e.data.Namespaces / 10
	targets, err := e.chooseProjects(ctx, n)
	if err != nil {
		return err
	}
	res := &VacuumResult{Namespaces: e.data.Namespaces, Targets: targets, Clients: vacuumClients, Seconds: e.cfg.VacuumDuration.Seconds()}
	if err := conn.QueryRow(ctx, `select current_setting('autovacuum_naptime')`).Scan(&res.Naptime); err != nil {
		return err
	}
	e.res.Vacuum = res
	res.Sides = []VacuumSide{{Name: "defaults", Settings: map[string][]string{}}, {Name: "tuned", Settings: tuned}}
	perClient := targets / vacuumClients
	vals := map[string]string{"on_event": "archive", "off_event": "unarchive", "on_state": "1"}
	for round := range e.cfg.Rounds {
		// The sides alternate which goes first, so a drift of the machine over the run weighs on both.
		order := []int{0, 1}
		if round%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			side := &res.Sides[i]
			if err := e.vacuumPrepare(ctx, conn, side.Settings); err != nil {
				return fmt.Errorf("%s: %w", side.Name, err)
			}
			before, err := vacuumSnapshot(ctx, conn)
			if err != nil {
				return err
			}
			var lastUpdate int64
			if err := conn.QueryRow(ctx, `select coalesce(max(id), 0) from lifecycle.namespace_state_updates`).Scan(&lastUpdate); err != nil {
				return err
			}
			sctx, stop := context.WithCancel(ctx)
			var samples vacuumSamples
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				samples.run(sctx, e.cfg.DatabaseURL)
			}()
			pr, err := e.pgb.run(ctx, pgbenchRun{name: "vacuum", script: script("transition_api.sql", vals), clients: vacuumClients,
				duration: e.cfg.VacuumDuration, vars: map[string]string{"per_client": strconv.Itoa(perClient)}})
			stop()
			wg.Wait()
			if err != nil {
				return fmt.Errorf("%s: %w", side.Name, err)
			}
			if samples.err != nil {
				return fmt.Errorf("%s: samples: %w", side.Name, samples.err)
			}
			// The transitions made, counted in the history (one row each), not in the statistics.
			var transitions int64
			if err := conn.QueryRow(ctx, `select count(*) from lifecycle.namespace_state_updates where id > $1`, lastUpdate).Scan(&transitions); err != nil {
				return err
			}
			after, err := e.vacuumSettled(ctx, conn, before, transitions)
			if err != nil {
				return err
			}
			var tables []VacuumTable
			for _, t := range vacuumTables {
				b, a, s := before[t], after[t], samples.of(t)
				tables = append(tables, VacuumTable{Table: t, HeapBefore: b.heap, HeapAfter: a.heap, IndexesBefore: b.indexes, IndexesAfter: a.indexes,
					MaxDead: max(s.maxDead, a.dead), MeanDead: s.meanDead(), Updates: a.updates - b.updates, HOTUpdates: a.hot - b.hot,
					Autovacuums: a.autovacuums - b.autovacuums, Autoanalyzes: a.autoanalyzes - b.autoanalyzes, VacuumingShare: s.vacuumingShare()})
			}
			side.PerRound = append(side.PerRound, tables)
			side.Rounds = append(side.Rounds, round3(pr.tps))
			side.lat = append(side.lat, pr.latencies...)
			side.Transitions = append(side.Transitions, transitions)
			e.log.Info("vacuum", "side", side.Name, "round", round+1, "tps", int(pr.tps), "transactions", len(pr.latencies), "transitions", transitions,
				"namespaces_updates", tables[0].Updates, "details_updates", tables[1].Updates, "slowest_10s_tps", int(slowestWindow(pr.ends, 10*time.Second)),
				"namespaces_max_dead", tables[0].MaxDead, "namespaces_autovacuums", tables[0].Autovacuums,
				"namespaces_indexes_mb", tables[0].IndexesAfter>>20)
			side.windows = append(side.windows, slowestWindow(pr.ends, 10*time.Second))
		}
	}
	for i := range res.Sides {
		s := &res.Sides[i]
		s.TPS = round3(median(s.Rounds))
		s.MinWindow = round3(median(s.windows))
		s.Latency = summarize(s.lat)
		s.lat, s.windows = nil, nil
		s.Tables = medianTables(s.PerRound)
	}
	// The targets back to active, and the tables vacuumed, for the scenarios after this one.
	if err := resetProjects(ctx, conn); err != nil {
		return err
	}
	return e.settle(ctx)
}

// chooseProjects fills lifecycle_bench.targets with up to n active projects under active
// ancestors, at random over the whole table, each acted on by its organization's owner; a project
// is no one's ancestor, so the clients never refuse each other. It returns how many it found.
func (e *env) chooseProjects(ctx context.Context, n int) (int, error) {
	if _, err := e.pool.Exec(ctx, `truncate lifecycle_bench.targets`); err != nil {
		return 0, err
	}
	tag, err := e.pool.Exec(ctx, `insert into lifecycle_bench.targets (slot, id, actor)
		select (row_number() over ())::int - 1, p.id, p.actor
		  from (select n.id,
		               (select m.user_id from lifecycle.namespace_members m
		                 where m.namespace_id = n.traversal_ids[1] and m.access_level = 50 order by m.user_id limit 1) as actor
		          from lifecycle.namespaces n
		         where n.type = 'project' and n.state = 0
		           and not exists (select from lifecycle.namespaces a where a.id = any (n.traversal_ids) and a.state <> 0)
		         order by random() limit $1) p
		 where p.actor is not null`, n)
	if err != nil {
		return 0, err
	}
	found := int(tag.RowsAffected())
	if found < vacuumClients {
		return 0, fmt.Errorf("only %d transition targets found", found)
	}
	return found, nil
}

// resetProjects brings the archived targets back to active through the API, and has the session
// that did it send its statistics before its next statement returns (an idle session sends them
// up to a second later, which would count its updates in the load measured next).
func resetProjects(ctx context.Context, conn interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}) error {
	_, err := conn.Exec(ctx, `select lifecycle.namespace_event(t.id, 'unarchive', t.actor)
		  from lifecycle_bench.targets t join lifecycle.namespaces n on n.id = t.id where n.state = 1`)
	if err != nil {
		return fmt.Errorf("reset targets: %w", err)
	}
	_, err = conn.Exec(ctx, `select pg_catalog.pg_stat_force_next_flush()`)
	return err
}

// vacuumPrepare makes every side start alike: the targets active, the side's settings on the
// tables, the tables rewritten compact (VACUUM FULL) and vacuumed (which zeroes their dead-row
// count, which VACUUM FULL leaves as it was), statistics fresh, and a checkpoint.
func (e *env) vacuumPrepare(ctx context.Context, conn *pgx.Conn, settings map[string][]string) error {
	if err := resetProjects(ctx, conn); err != nil {
		return err
	}
	if err := setReloptions(ctx, conn, settings); err != nil {
		return err
	}
	for _, t := range vacuumTables {
		if _, err := conn.Exec(ctx, "vacuum full "+t); err != nil {
			return err
		}
		if _, err := conn.Exec(ctx, "vacuum (analyze) "+t); err != nil {
			return err
		}
	}
	_, err := conn.Exec(ctx, "checkpoint")
	return err
}

// setReloptions resets every autovacuum setting of the tables, then sets those given (and any
// other reloption given, as found at the start).
func setReloptions(ctx context.Context, conn *pgx.Conn, settings map[string][]string) error {
	for _, t := range vacuumTables {
		var names []string
		if err := conn.QueryRow(ctx, `select coalesce(array_agg(split_part(o, '=', 1)), '{}')
			from pg_catalog.pg_class c, unnest(c.reloptions) o where c.oid = $1::regclass and o like 'autovacuum\_%'`, t).Scan(&names); err != nil {
			return err
		}
		if len(names) > 0 {
			if _, err := conn.Exec(ctx, fmt.Sprintf("alter table %s reset (%s)", t, strings.Join(names, ", "))); err != nil {
				return err
			}
		}
		if opts := settings[t]; len(opts) > 0 {
			if _, err := conn.Exec(ctx, fmt.Sprintf("alter table %s set (%s)", t, strings.Join(opts, ", "))); err != nil {
				return err
			}
		}
	}
	return nil
}

// vacuumSettled reads the tables after a load of n transitions, once the statistics show them: a
// session sends its last statistics as it ends, after pgbench has exited and after the session has
// left pg_stat_activity. Each transition updates one row of each table; a table that shows fewer
// after 30 s is read as it is, and said so.
func (e *env) vacuumSettled(ctx context.Context, conn *pgx.Conn, before map[string]vacuumStats, n int64) (map[string]vacuumStats, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		after, err := vacuumSnapshot(ctx, conn)
		if err != nil {
			return nil, err
		}
		shown := true
		for _, t := range vacuumTables {
			shown = shown && after[t].updates-before[t].updates >= n
		}
		if shown {
			return after, nil
		}
		if time.Now().After(deadline) {
			e.log.Warn("vacuum: the statistics show fewer updates than transactions 30 s after the load", "transactions", n)
			return after, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

type vacuumStats struct {
	heap, indexes, dead, updates, hot, autovacuums, autoanalyzes int64
}

// vacuumSnapshot reads the tables' sizes and counters.
func vacuumSnapshot(ctx context.Context, conn *pgx.Conn) (map[string]vacuumStats, error) {
	if _, err := conn.Exec(ctx, `select pg_stat_clear_snapshot()`); err != nil {
		return nil, err
	}
	rows, err := conn.Query(ctx, `select s.relid::regclass::text, pg_relation_size(s.relid), pg_indexes_size(s.relid), s.n_dead_tup,
			s.n_tup_upd, s.n_tup_hot_upd, s.autovacuum_count, s.autoanalyze_count
		  from pg_catalog.pg_stat_user_tables s where s.relid = any ($1::regclass[])`, vacuumTables)
	if err != nil {
		return nil, err
	}
	out := map[string]vacuumStats{}
	var t string
	var s vacuumStats
	_, err = pgx.ForEachRow(rows, []any{&t, &s.heap, &s.indexes, &s.dead, &s.updates, &s.hot, &s.autovacuums, &s.autoanalyzes}, func() error {
		out[t] = s
		return nil
	})
	if err == nil && len(out) != len(vacuumTables) {
		err = fmt.Errorf("statistics of %d of the %d tables", len(out), len(vacuumTables))
	}
	return out, err
}

// vacuumSamples are the dead-row counts and running vacuums, read once a second during a load.
type vacuumSamples struct {
	byTable map[string]*tableSamples
	err     error
}

type tableSamples struct {
	n, vacuuming, maxDead, sumDead int64
}

func (t *tableSamples) meanDead() int64 {
	if t.n == 0 {
		return 0
	}
	return t.sumDead / t.n
}

func (t *tableSamples) vacuumingShare() float64 {
	if t.n == 0 {
		return 0
	}
	return round3(float64(t.vacuuming) / float64(t.n))
}

func (v *vacuumSamples) of(t string) *tableSamples {
	if s := v.byTable[t]; s != nil {
		return s
	}
	return &tableSamples{}
}

func (v *vacuumSamples) run(ctx context.Context, url string) {
	v.byTable = map[string]*tableSamples{}
	conn, err := connect(ctx, url)
	if err != nil {
		v.err = err
		return
	}
	defer conn.Close(context.WithoutCancel(ctx))
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		rows, err := conn.Query(ctx, `select s.relid::regclass::text, s.n_dead_tup,
				exists (select from pg_catalog.pg_stat_progress_vacuum p where p.relid = s.relid)
			  from pg_catalog.pg_stat_user_tables s where s.relid = any ($1::regclass[])`, vacuumTables)
		if err != nil {
			if ctx.Err() == nil {
				v.err = err
			}
			return
		}
		var t string
		var dead int64
		var vacuuming bool
		_, err = pgx.ForEachRow(rows, []any{&t, &dead, &vacuuming}, func() error {
			s := v.byTable[t]
			if s == nil {
				s = &tableSamples{}
				v.byTable[t] = s
			}
			s.n++
			s.sumDead += dead
			s.maxDead = max(s.maxDead, dead)
			if vacuuming {
				s.vacuuming++
			}
			return nil
		})
		if err != nil {
			if ctx.Err() == nil {
				v.err = err
			}
			return
		}
		// Each sample its own snapshot of the statistics.
		if _, err := conn.Exec(ctx, `select pg_stat_clear_snapshot()`); err != nil && ctx.Err() == nil {
			v.err = err
			return
		}
	}
}

// slowestWindow is the lowest throughput over consecutive windows of length w of a load whose
// transactions ended at ends (the last, partial window left out).
func slowestWindow(ends []time.Time, w time.Duration) float64 {
	if len(ends) == 0 {
		return 0
	}
	s := slices.Clone(ends)
	slices.SortFunc(s, func(a, b time.Time) int { return a.Compare(b) })
	start, last := s[0], s[len(s)-1]
	windows := int(last.Sub(start) / w)
	if windows == 0 {
		return float64(len(s)) / max(last.Sub(start).Seconds(), 1e-9)
	}
	counts := make([]int, windows)
	for _, t := range s {
		if k := int(t.Sub(start) / w); k < windows {
			counts[k]++
		}
	}
	return round3(float64(slices.Min(counts)) / w.Seconds())
}

// medianTables is each table's figures, the median of each over the rounds.
func medianTables(rounds [][]VacuumTable) []VacuumTable {
	if len(rounds) == 0 {
		return nil
	}
	var out []VacuumTable
	for i := range rounds[0] {
		col := func(f func(VacuumTable) float64) float64 {
			var v []float64
			for _, r := range rounds {
				v = append(v, f(r[i]))
			}
			return median(v)
		}
		i64 := func(f func(VacuumTable) int64) int64 {
			return int64(col(func(t VacuumTable) float64 { return float64(f(t)) }))
		}
		out = append(out, VacuumTable{Table: rounds[0][i].Table,
			HeapBefore:     i64(func(t VacuumTable) int64 { return t.HeapBefore }),
			HeapAfter:      i64(func(t VacuumTable) int64 { return t.HeapAfter }),
			IndexesBefore:  i64(func(t VacuumTable) int64 { return t.IndexesBefore }),
			IndexesAfter:   i64(func(t VacuumTable) int64 { return t.IndexesAfter }),
			MaxDead:        i64(func(t VacuumTable) int64 { return t.MaxDead }),
			MeanDead:       i64(func(t VacuumTable) int64 { return t.MeanDead }),
			Updates:        i64(func(t VacuumTable) int64 { return t.Updates }),
			HOTUpdates:     i64(func(t VacuumTable) int64 { return t.HOTUpdates }),
			Autovacuums:    i64(func(t VacuumTable) int64 { return t.Autovacuums }),
			Autoanalyzes:   i64(func(t VacuumTable) int64 { return t.Autoanalyzes }),
			VacuumingShare: round3(col(func(t VacuumTable) float64 { return t.VacuumingShare })),
		})
	}
	return out
}

// sortedSettings writes a side's settings as "table: a=1, b=2; …" in table order.
func sortedSettings(m map[string][]string) string {
	if len(m) == 0 {
		return "PostgreSQL's defaults"
	}
	var tables []string
	for t := range m {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	var parts []string
	for _, t := range tables {
		parts = append(parts, fmt.Sprintf("`%s` (%s)", t, strings.Join(m[t], ", ")))
	}
	return strings.Join(parts, "; ")
}

package scenario

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

//go:embed sql/*.sql pgbench/*.sql
var files embed.FS

// Config is one bench run (cmd/bench's flags).
type Config struct {
	Label           string        // "quick" or "full": names the run in the report
	Commit          string        // the code measured (git describe), for the report
	DatabaseURL     string        // a freshly migrated database of the run's own
	Namespaces      int           // size of the generated hierarchy, and of the forest the import scenario stages
	Duration        time.Duration // of one throughput measurement
	Rounds          int           // repetitions of each measurement; medians are reported
	Clients         []int         // client counts of the transition scenario
	TransferSizes   []int         // subtree sizes moved by the transfer scenario
	BurstSizes      []int         // creations per burst of the effective_states_burst scenario
	SweepGroups     int           // sweeper scenario: groups past their grace period …
	SweepSize       int           // … with this many descendants each
	HardDeleteSizes []int         // hard_delete scenario: descendants of each group deleted alone
	SyncerRate      int           // transitions per second of the syncer lag measurement
	TakeoverKills   int           // takeover scenario: times the active syncer is killed
	SyncerLoad      time.Duration // length of each load of the syncer scenario
	SyncerSteps     []int         // rates tried for the highest sustained one
	Scenarios       []string      // run only these (names as in Scenarios); empty: all
	Reuse           bool          // use the hierarchy a previous run left in the database
	Pgbench         string        // pgbench binary
	Syncer          string        // cmd/syncer binary
	Slot            string        // the syncer's replication slot (cluster-wide name)
	Sweeper         string        // cmd/sweeper binary
	ImportBatch     int           // import scenario: the batch size of namespace_import_run
	UpgradeFrom     int           // upgrade scenario: down to this version and back up (0: the newest but one)
	UpgradeHold     time.Duration // upgrade scenario: how long the one long reader keeps its transaction open
	// upgrade scenario: the migrations it moves the database down and up with (nil: the embedded
	// ones; a test gives more after the baseline)
	Migrations   *migration.Set
	LoadByImport bool // generate the hierarchy through the product's import (Shape.ByImport)
	// vacuum scenario: the length of each side's load, and the settings measured against the
	// defaults (table → "option=value"; empty: those the migrations set)
	VacuumDuration time.Duration
	VacuumSettings map[string][]string
	ScratchDir     string
	Log            *slog.Logger
}

// Scenarios in the order they run; later ones rely on nothing earlier ones leave behind but the
// generated hierarchy and the baseline tables. effective_states_burst runs last: its bursts add
// 130,000 namespaces a round to the tree, which the others would be measured on.
var Scenarios = []string{"effective_states", "effective_state", "transitions", "scheduling", "transfer", "sweeper", "hard_delete", "syncer", "takeover", "import", "adopt_check", "adoption", "upgrade", "vacuum", "effective_states_burst"}

// askedOnly are the scenarios a run makes only when -scenarios names them: vacuum loads the
// database for minutes per side and round (autovacuum's defaults wait for a fifth of the table in
// dead rows, and look for work once a minute).
var askedOnly = map[string]bool{"vacuum": true}

// ownData are the scenarios that bring their data in databases of their own: a run of only these
// generates no hierarchy.
var ownData = map[string]bool{"import": true, "adopt_check": true, "adoption": true}

// env is what every scenario works with.
type env struct {
	cfg  Config
	pool *pgxpool.Pool
	pgb  pgbench
	log  *slog.Logger
	data *Loaded
	res  *Results
}

// Run generates the hierarchy, sets up the baselines and runs the scenarios, filling Results as it
// goes: on an error the results so far are returned with it.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	res := &Results{Label: cfg.Label, Started: time.Now().UTC(), Config: cfg.describe()}
	pcfg, err := pgxpool.ParseConfig(cfg.DatabaseURL)
	if err != nil {
		return res, err
	}
	pcfg.ConnConfig.RuntimeParams["search_path"] = ""
	pcfg.MaxConns = 8
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	e := &env{cfg: cfg, pool: pool, pgb: pgbench{bin: cfg.Pgbench, url: cfg.DatabaseURL, dir: cfg.ScratchDir}, log: cfg.Log, res: res}
	if res.Machine, err = describeMachine(ctx, pool, cfg.Commit); err != nil {
		return res, err
	}

	if len(cfg.Scenarios) > 0 && !slices.ContainsFunc(cfg.Scenarios, func(s string) bool { return !ownData[s] }) {
		e.data = &Loaded{}
		e.log.Info("no hierarchy: the scenarios asked for bring their own data", "scenarios", cfg.Scenarios)
	} else if cfg.Reuse {
		if e.data, err = Existing(ctx, pool); err != nil {
			return res, fmt.Errorf("reuse: %w", err)
		}
		e.log.Info("reusing the hierarchy in the database", "namespaces", e.data.Namespaces)
	} else {
		e.log.Info("generating", "namespaces", cfg.Namespaces)
		shape := DefaultShape(cfg.Namespaces)
		shape.ByImport = cfg.LoadByImport
		e.data, err = Generate(ctx, pool, shape)
		if err != nil {
			return res, fmt.Errorf("generate: %w", err)
		}
		e.log.Info("generated", "namespaces", e.data.Namespaces, "load", e.data.LoadTime.Round(time.Millisecond).String(), "by", e.data.LoadedBy,
			"max_depth", e.data.Depth, "heavy", e.data.HeavyDescendants)
		if err := e.exec(ctx, "sql/baseline.sql"); err != nil {
			return res, fmt.Errorf("baseline tables: %w", err)
		}
	}
	res.Data = dataResult(e.data)

	for _, name := range Scenarios {
		if len(cfg.Scenarios) > 0 && !slices.Contains(cfg.Scenarios, name) || len(cfg.Scenarios) == 0 && askedOnly[name] {
			continue
		}
		e.log.Info("scenario", "name", name)
		start := time.Now()
		if err := scenarioFuncs[name](ctx, e); err != nil {
			return res, fmt.Errorf("%s: %w", name, err)
		}
		e.log.Info("scenario done", "name", name, "took", time.Since(start).Round(time.Second).String())
	}
	res.Finished = time.Now().UTC()
	res.Targets = evaluateTargets(res)
	return res, nil
}

var scenarioFuncs = map[string]func(context.Context, *env) error{
	"effective_states":       runEffectiveStates,
	"effective_states_burst": runEffectiveStatesBurst,
	"effective_state":        runEffectiveState,
	"transitions":            runTransitions,
	"scheduling":             runScheduling,
	"transfer":               runTransfer,
	"sweeper":                runSweeper,
	"hard_delete":            runHardDelete,
	"syncer":                 runSyncer,
	"takeover":               runTakeover,
	"import":                 runImport,
	"adopt_check":            runAdoptCheck,
	"adoption":               runAdoption,
	"upgrade":                runUpgrade,
	"vacuum":                 runVacuum,
}

// exec runs one of the embedded SQL files.
func (e *env) exec(ctx context.Context, name string) error {
	sql, err := files.ReadFile(name)
	if err != nil {
		return err
	}
	_, err = e.pool.Exec(ctx, string(sql))
	return err
}

// script is an embedded pgbench script with its placeholders ({{name}}) filled from the bench's
// own constants.
func script(name string, values map[string]string) string {
	b, err := files.ReadFile("pgbench/" + name)
	if err != nil {
		panic(err)
	}
	s := string(b)
	for k, v := range values {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	return s
}

// settle makes the measurements that follow start alike: a checkpoint (so none lands in the
// middle of a short run by chance), and fresh statistics and visibility maps on the tables the
// scenarios churn.
func (e *env) settle(ctx context.Context) error {
	_, err := e.pool.Exec(ctx, `checkpoint`)
	if err != nil {
		return err
	}
	for _, t := range []string{"lifecycle.namespaces", "lifecycle.namespace_details", "lifecycle.namespace_state_updates",
		"lifecycle_bench.namespaces", "lifecycle_bench.state_updates"} {
		if _, err := e.pool.Exec(ctx, "vacuum (analyze) "+t); err != nil {
			return err
		}
	}
	return nil
}

// settledConn settles the database (settle) and opens a connection of the scenario's own.
func (e *env) settledConn(ctx context.Context) (*pgx.Conn, error) {
	if err := e.settle(ctx); err != nil {
		return nil, err
	}
	return connect(ctx, e.cfg.DatabaseURL)
}

// fixturePath names a scenario's fixture uniquely, so a run with -reuse can add it again.
func (e *env) fixturePath(name string) string {
	return fmt.Sprintf("%s-%d", name, time.Now().UnixNano())
}

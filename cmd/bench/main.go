// Command bench runs the benchmarks of docs/benchmarks.md against a freshly migrated database of
// its own (make bench, make bench-full): it generates the hierarchy, runs every scenario with its
// baseline in the same run, and writes the results as JSON. With -render it writes the figures of
// results files into the generated part of a Markdown file instead:
//
//	bench -render docs/benchmarks.md docs/benchmarks/quick.json docs/benchmarks/full.json
//
// The database comes from DATABASE_URL (or the libpq PG* variables). Exit status: 0 when every
// scenario ran and met every target it measured, 3 when a target of the run is missed (the
// results are written; the missed targets are printed last), 1 when a scenario failed, 2 on bad
// flags.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nslifecycle/nslifecycle/cmd/bench/scenario"
	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := scenario.Config{DatabaseURL: os.Getenv("DATABASE_URL")}
	var (
		out       = fs.String("out", "", "write the results (JSON) to this file")
		clients   = fs.String("clients", "1,4,8,16", "client counts of the transition scenario")
		sizes     = fs.String("transfer-sizes", "1,100,10000", "subtree sizes the transfer scenario moves")
		hardSizes = fs.String("hard-delete-sizes", "100000", "hard_delete scenario: descendants of each group hard-deleted alone")
		bursts    = fs.String("burst-sizes", "2000,4000,8000,16000,50000", "creations per burst of the effective_states_burst scenario")
		steps     = fs.String("syncer-steps", "250,500,1000,1500,2000,3000", "transition rates tried for the syncer's highest sustained rate")
		only      = fs.String("scenarios", "", "run only these scenarios (comma-separated: "+strings.Join(scenario.Scenarios, ",")+")")
		logFormat = fs.String("log-format", "text", "log format: text or json")
		render    = fs.String("render", "", "render the results files given as arguments into this Markdown file's generated part, and exit")
		vacuum    = fs.String("vacuum-settings", "", "vacuum scenario: the tables' autovacuum settings measured against PostgreSQL's defaults, as table.option=value,… (namespaces.autovacuum_vacuum_scale_factor=0.01); empty: those the migrations set")
	)
	fs.StringVar(&cfg.Label, "label", "quick", "name of the run in the report")
	fs.IntVar(&cfg.Namespaces, "namespaces", 100_000, "namespaces to generate")
	fs.DurationVar(&cfg.Duration, "duration", 5*time.Second, "length of one throughput measurement")
	fs.IntVar(&cfg.Rounds, "rounds", 3, "repetitions of each measurement (medians are reported)")
	fs.IntVar(&cfg.SweepGroups, "sweep-groups", 1000, "sweeper scenario: groups past their grace period")
	fs.IntVar(&cfg.SweepSize, "sweep-descendants", 100, "sweeper scenario: descendants of each group")
	fs.IntVar(&cfg.SyncerRate, "syncer-rate", 500, "transitions per second of the syncer's lag measurement")
	fs.DurationVar(&cfg.SyncerLoad, "syncer-load", 15*time.Second, "length of each load of the syncer scenario")
	fs.StringVar(&cfg.Commit, "commit", "", "the code measured (git describe), for the report")
	fs.BoolVar(&cfg.Reuse, "reuse", false, "use the hierarchy a previous run left in the database instead of generating one; adopt_check: keep its adopted database (<db>_adopt) and measure one a previous run kept again")
	fs.StringVar(&cfg.Pgbench, "pgbench", "pgbench", "the pgbench binary")
	fs.StringVar(&cfg.Syncer, "syncer", "", "the cmd/syncer binary")
	fs.StringVar(&cfg.Slot, "slot", "nslifecycle_bench", "the syncer's replication slot (dropped by make bench afterwards)")
	fs.StringVar(&cfg.Sweeper, "sweeper", "", "the cmd/sweeper binary")
	fs.BoolVar(&cfg.LoadByImport, "load-by-import", false, "generate the hierarchy through lifecycle.namespace_import_run instead of COPY through the row triggers (about five times the rate; make bench-scale)")
	fs.IntVar(&cfg.ImportBatch, "import-batch", 10_000, "import scenario: the batch size passed to lifecycle.namespace_import_run")
	fs.IntVar(&cfg.TakeoverKills, "takeover-kills", 30, "takeover scenario: times the active syncer is killed (the p99 is over them)")
	fs.IntVar(&cfg.UpgradeFrom, "upgrade-from", 0, "upgrade scenario: migrate down to this version and back up to the database's, the newest (0: the newest but one)")
	fs.DurationVar(&cfg.VacuumDuration, "vacuum-duration", 3*time.Minute, "vacuum scenario: the length of each side's load in each round")
	fs.DurationVar(&cfg.UpgradeHold, "upgrade-hold", 20*time.Second, "upgrade scenario: how long one reader keeps a transaction open across the migration")
	var version bool
	buildinfo.Flag(fs, &version)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if version {
		fmt.Fprintln(os.Stdout, buildinfo.Describe("bench"))
		return 0
	}
	if *render != "" {
		if _, err := scenario.UpdateDoc(*render, fs.Args(), true); err != nil {
			fmt.Fprintf(stderr, "bench: render: %v\n", err)
			return 1
		}
		return 0
	}
	log, err := logging.New(stderr, *logFormat, "info")
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 2
	}
	cfg.Log = log
	var bad error
	ints := func(s string) []int {
		var v []int
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				bad = fmt.Errorf("bad number %q in a list", f)
			}
			v = append(v, n)
		}
		return v
	}
	cfg.Clients, cfg.TransferSizes, cfg.SyncerSteps, cfg.BurstSizes = ints(*clients), ints(*sizes), ints(*steps), ints(*bursts)
	cfg.HardDeleteSizes = ints(*hardSizes)
	if *only != "" {
		cfg.Scenarios = strings.Split(*only, ",")
	}
	if cfg.VacuumSettings, err = scenario.ParseVacuumSettings(*vacuum); err != nil {
		bad = err
	}
	if bad != nil || cfg.Namespaces < 1000 || cfg.Rounds < 1 || cfg.Duration < time.Second || cfg.SyncerLoad < time.Second || cfg.ImportBatch < 1 || cfg.VacuumDuration < time.Second || *out == "" {
		fmt.Fprintf(stderr, "bench: bad flags (%v): -out is required, -namespaces at least 1000, -rounds at least 1, -duration at least 1s, -import-batch at least 1, -vacuum-duration at least 1s\n", bad)
		return 2
	}
	cfg.ScratchDir, err = os.MkdirTemp("", "nslifecycle-bench-")
	if err != nil {
		log.Error("scratch directory", "err", err)
		return 2
	}
	defer os.RemoveAll(cfg.ScratchDir)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, runErr := scenario.Run(ctx, cfg)
	b, err := json.MarshalIndent(res, "", "  ")
	if err == nil {
		err = os.WriteFile(*out, append(b, '\n'), 0o644)
	}
	if err != nil {
		log.Error("write results", "path", *out, "err", err)
		return 1
	}
	if runErr != nil {
		log.Error("bench failed; the results so far are written", "err", runErr, "out", *out)
		return 1
	}
	log.Info("results written", "out", *out)
	if missed := scenario.Missed(res.Targets); len(missed) > 0 {
		fmt.Fprintf(stderr, "bench: %d targets missed in this run (docs/benchmarks.md names the issue of each):\n", len(missed))
		for _, t := range missed {
			fmt.Fprintf(stderr, "  MISSED %s: %s (target %s)\n", t.Name, t.Measured, t.Target)
		}
		return 3
	}
	return 0
}

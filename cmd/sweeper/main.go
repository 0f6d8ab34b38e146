// Command sweeper runs the time-based lifecycle work once and exits (a systemd timer runs it; see
// deploy/systemd): transfer requests past their expiry, adjourned deletions whose grace period is
// over (deleted when the user who scheduled them still may, restored otherwise), and operations
// stuck in progress. The rules are SQL (sql/functions/sweep_*.sql); this is flags, logs and metrics.
//
// The database comes from DATABASE_URL or the libpq PG* variables; the role must be a member of
// lifecycle_worker. Exit status: 0 all done, 1 some namespaces failed or are stuck, 2 could not
// run (bad flags, database unreachable).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
	"github.com/nslifecycle/nslifecycle/internal/sweeper"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// options are the sweeper's flags.
type options struct {
	version                               bool
	cfg                                   sweeper.Config
	now, logFormat, logLevel, metricsFile string
}

// flagSet defines the flags. docs/operations.md's table is generated from it (make generate).
func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("sweeper", flag.ContinueOnError)
	fs.StringVar(&o.now, "now", "", "pretend the time is this (RFC 3339), for dry runs and tests; default: the database's clock")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&o.metricsFile, "metrics-file", "", "write Prometheus metrics to this file (node_exporter textfile collector)")
	fs.BoolVar(&o.cfg.DryRun, "dry-run", false, "report what a run would do and change nothing (every change rolled back, hard deletes only counted)")
	fs.IntVar(&o.cfg.BatchSize, "batch-size", 100, "adjourned deletions read per page")
	fs.IntVar(&o.cfg.Max, "max", 0, "namespaces handled per run (0: no limit)")
	fs.DurationVar(&o.cfg.Pace, "pace", 0, "pause between namespaces, to spread the load (seed 004 staggers by 20s)")
	fs.DurationVar(&o.cfg.StuckAfter, "stuck-after", 10*time.Minute, "resume transfers and deletions in progress for this long")
	fs.DurationVar(&o.cfg.CreationTimeout, "creation-timeout", 24*time.Hour, "delete creations in progress for this long")
	fs.IntVar(&o.cfg.MaxAttempts, "max-attempts", 5, "failed hard deletes before a namespace is reported as stuck instead of retried")
	fs.IntVar(&o.cfg.HardDeleteBatch, "hard-delete-batch", 0, "rows per hard-delete transaction (0: lifecycle.settings.hard_delete_batch_size)")
	buildinfo.Flag(fs, &o.version)
	return fs
}

func run(args []string, stderr io.Writer) int {
	var o options
	fs := flagSet(&o)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.version {
		fmt.Fprintln(os.Stdout, buildinfo.Describe("sweeper"))
		return 0
	}
	cfg := o.cfg

	log, err := logging.New(stderr, o.logFormat, o.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "sweeper: %v\n", err)
		return 2
	}
	if o.now != "" {
		t, err := time.Parse(time.RFC3339, o.now)
		if err != nil {
			log.Error("bad -now", "err", err)
			return 2
		}
		cfg.Now = t
	}
	if cfg.BatchSize < 1 || cfg.MaxAttempts < 1 || cfg.Max < 0 || cfg.Pace < 0 || cfg.HardDeleteBatch < 0 {
		log.Error("bad flags: -batch-size and -max-attempts must be at least 1; -max, -pace and -hard-delete-batch not negative")
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// An empty DATABASE_URL lets pgx fall back to the libpq PG* variables.
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Error("database", "err", err)
		return 2
	}
	defer pool.Close()

	sum, err := sweeper.Run(ctx, pool, cfg, log)
	if err != nil {
		log.Error("sweep could not run", "err", err)
		writeMetrics(log, o.metricsFile, nil, false)
		return 2
	}
	ok := sum.Failed == 0 && sum.Stuck == 0 && ctx.Err() == nil
	writeMetrics(log, o.metricsFile, sum, ok)
	if !ok {
		return 1
	}
	return 0
}

// writeMetrics writes the run's figures for node_exporter's textfile collector (atomically: a
// temporary file renamed into place).
func writeMetrics(log *slog.Logger, path string, sum *sweeper.Summary, ok bool) {
	if path == "" {
		return
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(buildinfo.Gauge("sweeper"))
	gauge := func(name, help string, v float64) {
		g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
		g.Set(v)
		reg.MustRegister(g)
	}
	gauge("lifecycle_sweeper_last_run_timestamp_seconds", "When the last sweep ended.", float64(time.Now().Unix()))
	success := 0.0
	if ok {
		success = 1
	}
	gauge("lifecycle_sweeper_last_run_success", "1 when the last sweep finished with nothing failed or stuck.", success)
	if sum != nil {
		gauge("lifecycle_sweeper_last_run_duration_seconds", "How long the last sweep took.", sum.Duration.Seconds())
		gauge("lifecycle_sweeper_stuck_namespaces", "Namespaces the last sweep reported as stuck.", float64(sum.Stuck))
		gauge("lifecycle_sweeper_transfer_requests_expired", "Transfer requests the last sweep expired.", float64(sum.TransferRequestsExpired))
		outcomes := prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "lifecycle_sweeper_namespaces",
			Help: "Namespaces the last sweep handled, by action and outcome.",
		}, []string{"action", "outcome"})
		for action, byOutcome := range sum.Outcomes {
			for outcome, n := range byOutcome {
				outcomes.WithLabelValues(action, outcome).Set(float64(n))
			}
		}
		reg.MustRegister(outcomes)
	}
	if err := prometheus.WriteToTextfile(path, reg); err != nil {
		log.Error("write metrics", "path", path, "err", err)
	}
}

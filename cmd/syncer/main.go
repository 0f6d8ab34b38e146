// Command syncer is the long-running half of the product (docs/design.md §6): it turns every
// committed lifecycle fact (a row of the outbox lifecycle.facts, brought by a logical replication
// slot) into exactly one audit row, with notifications, pg_notify and signed webhook deliveries;
// it runs the asynchronous half of transfers and "delete now", and keeps
// lifecycle.effective_states fresh. Any number may run with the same configuration: the one that
// holds the slot is active, the others wait as standbys. /healthz (200 for the active one and for
// a standby), /readyz (200 for the active one only) and /metrics are served over HTTP. SIGTERM or
// SIGINT: the transaction in hand is finished, the position reported, exit 0.
//
// The database comes from DATABASE_URL (a URL or libpq keywords; the PG* variables fill the
// rest). The role needs REPLICATION and membership of lifecycle_worker. Exit status: 0 after a
// clean shutdown, 2 when it could not start, 3 when the server refuses the role a replication
// connection (one ERROR line says what to grant; the systemd units do not restart it then).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/nslifecycle/nslifecycle/internal/buildinfo"
	"github.com/nslifecycle/nslifecycle/internal/logging"
	"github.com/nslifecycle/nslifecycle/internal/syncer"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// exitNoReplicationRight is the exit status when the server refuses the role a replication
// connection: deploy/systemd's units name it in RestartPreventExitStatus=, since restarting
// cannot grant the right.
const exitNoReplicationRight = 3

// options are the syncer's flags.
type options struct {
	version                     bool
	cfg                         syncer.Config
	listen, logFormat, logLevel string
	async                       bool
}

// flagSet defines the flags; defaults that come from the environment are read here.
// docs/operations.md's table is generated from it (make generate).
func flagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("syncer", flag.ContinueOnError)
	cfg := &o.cfg
	fs.StringVar(&o.listen, "listen", "127.0.0.1:9187", "address for /healthz and /metrics (empty: none)")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.Int64Var(&cfg.HealthMaxLagBytes, "health-max-lag-bytes", 64<<20, "/healthz fails when the slot is further behind than this")
	fs.StringVar(&cfg.Slot, "slot", envOr("LIFECYCLE_SLOT", "nslifecycle_syncer"), "logical replication slot (env LIFECYCLE_SLOT)")
	fs.StringVar(&cfg.Publication, "publication", envOr("LIFECYCLE_PUBLICATION", "nslifecycle_facts"), "publication (env LIFECYCLE_PUBLICATION)")
	fs.DurationVar(&cfg.StandbyInterval, "standby-interval", 10*time.Second, "report the confirmed position at least this often")
	fs.DurationVar(&cfg.HeartbeatInterval, "heartbeat-interval", 30*time.Second, "heartbeat message interval (keeps an idle slot moving)")
	fs.DurationVar(&cfg.RefreshDebounce, "refresh-debounce", 0, "update lifecycle.effective_states this long after a change (changes recorded meanwhile share the update)")
	fs.DurationVar(&cfg.RefreshMinInterval, "refresh-min-interval", 0, "at least this long between the end of one update of lifecycle.effective_states and the start of the next")
	fs.Float64Var(&cfg.RefreshMaxShare, "refresh-max-share", 0.5, "updates of lifecycle.effective_states take at most this share of the time, beyond 2 s of updating at once (a burst): then the pause after one grows with its duration (1: no cap; a whole rebuild is not counted)")
	fs.IntVar(&cfg.BatchMax, "batch-max", 500, "source transactions recorded in one transaction at most (group commit)")
	fs.DurationVar(&cfg.BatchWait, "batch-wait", 2*time.Millisecond, "how long a received transaction waits for more to be recorded with it")
	fs.IntVar(&cfg.FactMaxBytes, "fact-max-bytes", 4<<20, "a logical message with the fact prefix (how facts were carried before the outbox) larger than this is ignored, unread")
	fs.DurationVar(&cfg.DrainInterval, "drain-interval", 5*time.Second, "record the facts at least this old that the stream did not bring, this often")
	fs.IntVar(&cfg.DrainBatch, "drain-batch", 5000, "facts recorded per transaction when draining lifecycle.facts")
	fs.DurationVar(&cfg.StandbyPoll, "standby-poll", time.Second, "how often a standby looks whether the slot is free to take over")
	fs.DurationVar(&cfg.HealthMaxUnrecorded, "health-max-unrecorded", 10*time.Second, "/healthz fails while a fact has waited in lifecycle.facts longer than this")
	fs.DurationVar(&cfg.WebhookTimeout, "webhook-timeout", 10*time.Second, "timeout of one webhook attempt")
	fs.IntVar(&cfg.WebhookMaxAttempts, "webhook-max-attempts", 8, "attempts before a delivery is dead")
	fs.IntVar(&cfg.WebhookWorkers, "webhook-workers", 4, "webhook attempts in parallel")
	fs.DurationVar(&cfg.WebhookBackoff, "webhook-backoff", 10*time.Second, "first webhook retry after this; doubles, jittered, at most an hour")
	fs.DurationVar(&cfg.DeliveryPoll, "delivery-poll", time.Second, "how often to look for due webhook deliveries when idle")
	fs.BoolVar(&o.async, "async-operations", true, "run the moves of accepted transfers and \"delete now\" (false: leave them to the sweeper or a client)")
	fs.IntVar(&cfg.HardDeleteBatch, "hard-delete-batch", 0, "rows per hard-delete batch of a \"delete now\" (0: lifecycle.settings.hard_delete_batch_size)")
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
		fmt.Fprintln(os.Stdout, buildinfo.Describe("syncer"))
		return 0
	}
	cfg := o.cfg
	cfg.DatabaseURL = os.Getenv("DATABASE_URL")
	cfg.NoAsync = !o.async

	log, err := logging.New(stderr, o.logFormat, o.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "syncer: %v\n", err)
		return 2
	}
	if cfg.StandbyInterval <= 0 || cfg.HeartbeatInterval <= 0 || cfg.RefreshDebounce < 0 || cfg.RefreshMinInterval < 0 ||
		!(cfg.RefreshMaxShare > 0 && cfg.RefreshMaxShare <= 1) ||
		cfg.BatchMax < 1 || cfg.BatchWait < 0 || cfg.FactMaxBytes < 1024 || cfg.WebhookTimeout <= 0 ||
		cfg.WebhookMaxAttempts < 1 || cfg.WebhookWorkers < 1 || cfg.WebhookBackoff <= 0 || cfg.DeliveryPoll <= 0 || cfg.HardDeleteBatch < 0 ||
		cfg.DrainInterval <= 0 || cfg.DrainBatch < 1 || cfg.StandbyPoll <= 0 || cfg.HealthMaxUnrecorded <= 0 {
		log.Error("bad flags: intervals and timeouts must be positive, counts at least 1, -refresh-max-share in (0, 1], -fact-max-bytes at least 1024")
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	pool, err := pgxpool.New(ctx, cfg.DatabaseURL)
	if err != nil {
		log.Error("database", "err", err)
		return 2
	}
	defer pool.Close()
	if err := pool.Ping(ctx); err != nil {
		log.Error("database unreachable", "err", err)
		return 2
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), buildinfo.Gauge("syncer"))
	s := syncer.New(pool, cfg, log, reg)
	// Before /metrics is served: the first scrape has every counter family.
	if err := s.ExportKnownActions(ctx); err != nil {
		log.Warn("the audit counter's actions appear at their first fact", "err", err)
	}

	if o.listen != "" {
		ln, err := net.Listen("tcp", o.listen)
		if err != nil {
			log.Error("listen", "addr", o.listen, "err", err)
			return 2
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("/healthz", answer(s.Healthy))
		mux.HandleFunc("/readyz", answer(s.Ready))
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("http", "err", err)
			}
		}()
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}()
		log.Info("serving /healthz, /readyz and /metrics", "addr", ln.Addr().String())
	}

	if err := s.Run(ctx); err != nil {
		if rr := (*syncer.ReplicationRightError)(nil); errors.As(err, &rr) {
			// A configuration error no retry mends: said once, with what to do, and exit.
			log.Error("the syncer's role lacks the replication right (REPLICATION, or rds_replication on Amazon RDS): "+
				"grant it, then start the syncer again; see docs/operations.md, Managed PostgreSQL",
				"role", rr.Role, "grant", rr.Grant(), "err", rr.Err.Message, "sqlstate", rr.Err.Code)
			return exitNoReplicationRight
		}
		log.Error("syncer", "err", err)
		return 1
	}
	log.Info("shut down")
	return 0
}

// answer serves a check: 200 with its reason when it holds, 503 with it when not.
func answer(check func() (bool, string)) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		ok, why := check()
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		fmt.Fprintln(w, why)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

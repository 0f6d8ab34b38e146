package syncer

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

// Config is the syncer's settings (cmd/syncer's flags).
type Config struct {
	DatabaseURL        string        // also the replication connection's (replication=database is added)
	Slot               string        // the persistent logical slot
	Publication        string        // the publication (TRUNCATE of the fact tables)
	StandbyInterval    time.Duration // how often the confirmed position is reported at the least
	HeartbeatInterval  time.Duration // non-transactional message that keeps an idle slot moving
	RefreshDebounce    time.Duration // lifecycle.effective_states is updated this long after changes
	RefreshMinInterval time.Duration // at least this long from the end of one update to the start of the next
	RefreshMaxShare    float64       // and long enough that updating takes at most this share of the time (0 or 1: no cap)
	BatchMax           int           // source transactions recorded in one transaction of ours at most
	BatchWait          time.Duration // how long the first of a batch waits for more
	FactMaxBytes       int           // a message with the fact prefix larger than this is a dead letter, unread
	WebhookTimeout     time.Duration
	WebhookMaxAttempts int
	WebhookBackoff     time.Duration // first retry after this (doubling, jittered, at most an hour)
	WebhookWorkers     int
	DeliveryPoll       time.Duration
	HealthMaxLagBytes  int64
	HardDeleteBatch    int  // rows per hard-delete batch of a "delete now"; 0: lifecycle.settings
	NoAsync            bool // leave transfers and "delete now" to others (the sweeper's recovery, a client)
}

// Syncer is the long-running service.
type Syncer struct {
	cfg       Config
	pool      *pgxpool.Pool
	log       *slog.Logger
	metrics   *metrics
	async     *asyncWorker
	refresher *refresher
	client    *http.Client // webhook deliveries, through guard
	guard     *guard

	mu          sync.Mutex
	connected   bool
	lastContact time.Time
	lagBytes    int64
}

// New prepares a syncer; Run starts it. Its metrics are registered on reg.
func New(pool *pgxpool.Pool, cfg Config, log *slog.Logger, reg prometheus.Registerer) *Syncer {
	s := &Syncer{cfg: cfg, pool: pool, log: log, metrics: newMetrics(reg), guard: newGuard()}
	s.client = webhookClient(s.guard, cfg.WebhookTimeout)
	s.async = &asyncWorker{s: s, jobs: make(chan job, 1024)}
	s.refresher = newRefresher(s)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "lifecycle_syncer_effective_states_lag_seconds",
		Help: "Age of the oldest recorded change lifecycle.effective_states does not show yet, from its commit (0 when current)."},
		s.refresher.lag))
	return s
}

// Run consumes the slot until ctx ends, reconnecting with backoff after failures, while the
// webhook, asynchronous-operation, refresh, heartbeat and lag loops run beside it. Returns when
// every loop has stopped.
func (s *Syncer) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, loop := range []func(context.Context){s.deliverLoop, s.async.run, s.refresher.run, s.heartbeatLoop, s.lagLoop} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loop(ctx)
		}()
	}
	backoff := 200 * time.Millisecond
	for ctx.Err() == nil {
		started := time.Now()
		err := s.streamOnce(ctx)
		if err == nil || ctx.Err() != nil {
			break
		}
		s.metrics.reconnects.Inc()
		if time.Since(started) > time.Minute {
			backoff = 200 * time.Millisecond
		}
		wait := backoff/2 + time.Duration(rand.Int64N(int64(backoff)))
		s.log.Error("replication session ended; reconnecting", "err", err, "in", wait.Round(time.Millisecond).String())
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		backoff = min(backoff*2, 30*time.Second)
	}
	wg.Wait()
	return nil
}

func (s *Syncer) setConnected(c bool) {
	s.mu.Lock()
	s.connected = c
	s.mu.Unlock()
}

func (s *Syncer) touch() {
	s.mu.Lock()
	s.lastContact = time.Now()
	s.mu.Unlock()
}

// Healthy: streaming, heard from the server recently, and the slot not too far behind.
func (s *Syncer) Healthy() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.connected:
		return false, "not connected to the replication slot"
	case time.Since(s.lastContact) > 3*s.cfg.StandbyInterval+10*time.Second:
		return false, "no message from the server for " + time.Since(s.lastContact).Round(time.Second).String()
	case s.lagBytes > s.cfg.HealthMaxLagBytes:
		return false, "replication lag over the threshold"
	}
	return true, "ok"
}

// heartbeatLoop emits a non-transactional message now and then: with no lifecycle traffic the
// slot would otherwise see no WAL of its own, confirm nothing, and pin WAL on the server.
func (s *Syncer) heartbeatLoop(ctx context.Context) {
	t := time.NewTicker(s.cfg.HeartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := db.New(s.pool).SyncerHeartbeat(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("heartbeat", "err", nslifecycle.FromDB(err))
			}
		}
	}
}

// lagLoop samples how far the slot is behind the server, for /metrics and /healthz.
func (s *Syncer) lagLoop(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		row, err := db.New(s.pool).SyncerSlotLag(ctx, s.cfg.Slot)
		if err == nil {
			s.mu.Lock()
			s.lagBytes = row.LagBytes
			s.mu.Unlock()
			s.metrics.lagBytes.Set(float64(row.LagBytes))
		} else if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
			s.log.Debug("slot lag", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

type metrics struct {
	events        *prometheus.CounterVec
	transactions  prometheus.Counter
	batches       prometheus.Counter
	batchSize     prometheus.Histogram
	lastCommit    prometheus.Gauge
	commitToAudit prometheus.Histogram
	lagBytes      prometheus.Gauge
	connected     prometheus.Gauge
	reconnects    prometheus.Counter
	slotRecreated prometheus.Counter
	deadLetters   *prometheus.CounterVec
	deliveries    *prometheus.CounterVec
	asyncOps      *prometheus.CounterVec
	refreshes     prometheus.Histogram
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lifecycle_syncer_audit_events_total",
			Help: "Facts recorded as audit rows, by action."}, []string{"action"}),
		transactions: prometheus.NewCounter(prometheus.CounterOpts{Name: "lifecycle_syncer_transactions_total",
			Help: "Source transactions recorded."}),
		batches: prometheus.NewCounter(prometheus.CounterOpts{Name: "lifecycle_syncer_batches_total",
			Help: "Transactions of the syncer's own that recorded source transactions (group commits)."}),
		batchSize: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "lifecycle_syncer_batch_transactions",
			Help: "Source transactions recorded per transaction of the syncer's own.", Buckets: prometheus.ExponentialBuckets(1, 2, 11)}),
		lastCommit: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lifecycle_syncer_last_commit_timestamp_seconds",
			Help: "Commit time of the last source transaction recorded."}),
		commitToAudit: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "lifecycle_syncer_commit_to_audit_seconds",
			Help: "From a source transaction's commit to its audit rows' commit.", Buckets: prometheus.ExponentialBuckets(0.005, 2, 14)}),
		lagBytes: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lifecycle_syncer_replication_lag_bytes",
			Help: "WAL between the server's position and the slot's confirmed position."}),
		connected: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lifecycle_syncer_connected",
			Help: "1 while streaming from the slot."}),
		reconnects: prometheus.NewCounter(prometheus.CounterOpts{Name: "lifecycle_syncer_reconnects_total",
			Help: "Replication sessions that ended in an error."}),
		slotRecreated: prometheus.NewCounter(prometheus.CounterOpts{Name: "lifecycle_syncer_slot_recreated_total",
			Help: "Times the slot was found missing after progress had been recorded (facts were lost)."}),
		deadLetters: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lifecycle_syncer_dead_letters_total",
			Help: "Messages with the fact prefix recorded in lifecycle.fact_dead_letters instead of as audit rows, by reason."}, []string{"reason"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lifecycle_syncer_webhook_deliveries_total",
			Help: "Webhook delivery attempts, by resulting status."}, []string{"status"}),
		asyncOps: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lifecycle_syncer_async_operations_total",
			Help: "Asynchronous operations run, by kind and outcome."}, []string{"kind", "outcome"}),
		refreshes: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "lifecycle_syncer_effective_states_refresh_seconds",
			Help: "Duration of lifecycle.effective_states updates (the subtrees recorded changes touched, or the table whole at start).", Buckets: prometheus.ExponentialBuckets(0.005, 2, 14)}),
	}
	// Every counter shows from the start, at 0, each known label value of a vector too: rate() and
	// increase() need a sample before the first event to see it (a series that appears at 1 is no
	// increase), and the alerts of deploy/prometheus/lifecycle.rules.yml are increases. A vector's
	// label values come from where they are defined: asyncOutcomes, deadLetterReasons,
	// deliveryStatuses. The actions of audit_events_total are an open set (the schema's triggers and
	// lifecycle.state_transitions.audit_action, rows of the database): only forged_fact, the one the
	// syncer names itself, is known here; the others appear at their first fact.
	for kind, outcomes := range asyncOutcomes {
		for _, outcome := range outcomes {
			m.asyncOps.WithLabelValues(kind, outcome).Add(0)
		}
	}
	for _, r := range deadLetterReasons {
		m.deadLetters.WithLabelValues(r).Add(0)
	}
	for _, st := range deliveryStatuses {
		m.deliveries.WithLabelValues(st).Add(0)
	}
	m.events.WithLabelValues(actionForgedFact).Add(0)
	reg.MustRegister(m.events, m.transactions, m.batches, m.batchSize, m.lastCommit, m.commitToAudit, m.lagBytes, m.connected, m.reconnects,
		m.slotRecreated, m.deadLetters, m.deliveries, m.asyncOps, m.refreshes)
	return m
}

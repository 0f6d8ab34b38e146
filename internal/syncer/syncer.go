package syncer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// Config is the syncer's settings (cmd/syncer's flags).
type Config struct {
	DatabaseURL         string        // also the replication connection's (replication=database is added)
	Slot                string        // the persistent logical slot
	Publication         string        // the publication (the inserts into lifecycle.facts)
	StandbyInterval     time.Duration // how often the confirmed position is reported at the least
	HeartbeatInterval   time.Duration // non-transactional message that keeps an idle slot moving
	RefreshDebounce     time.Duration // lifecycle.effective_states is updated this long after changes
	RefreshMinInterval  time.Duration // at least this long from the end of one update to the start of the next
	RefreshMaxShare     float64       // and long enough that updating takes at most this share of the time (0 or 1: no cap)
	BatchMax            int           // source transactions recorded in one transaction of ours at most
	BatchWait           time.Duration // how long the first of a batch waits for more
	FactMaxBytes        int           // a message with the fact prefix larger than this is ignored, unread
	DrainInterval       time.Duration // how often the outbox is drained of what the stream did not bring
	DrainBatch          int           // facts recorded per transaction of a drain
	StandbyPoll         time.Duration // how often a standby looks whether the slot is free
	HealthMaxUnrecorded time.Duration // /healthz fails while a fact has waited in the outbox longer than this
	WebhookTimeout      time.Duration
	WebhookMaxAttempts  int
	WebhookBackoff      time.Duration // first retry after this (doubling, jittered, at most an hour)
	WebhookWorkers      int
	DeliveryPoll        time.Duration
	HealthMaxLagBytes   int64
	HardDeleteBatch     int  // rows per hard-delete batch of a "delete now"; 0: lifecycle.settings
	NoAsync             bool // leave transfers and "delete now" to others (the sweeper's recovery, a client)
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
	active      bool // holding the slot
	standby     bool // waiting for the slot another syncer holds
	drained     bool // the outbox was drained since this syncer became active
	lastContact time.Time
	lagBytes    int64
	unrecorded  float64       // age in seconds of the oldest fact in the outbox (0: none)
	applyLag    atomic.Uint64 // math.Float64bits of the effective-state lag
}

// New prepares a syncer; Run starts it. Its metrics are registered on reg.
func New(pool *pgxpool.Pool, cfg Config, log *slog.Logger, reg prometheus.Registerer) *Syncer {
	s := &Syncer{cfg: cfg, pool: pool, log: log, metrics: newMetrics(reg), guard: newGuard()}
	s.client = webhookClient(s.guard, cfg.WebhookTimeout)
	s.async = &asyncWorker{s: s, jobs: make(chan job, 1024)}
	s.refresher = newRefresher(s)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "lifecycle_syncer_effective_states_lag_seconds",
		Help: "Age of the oldest recorded change lifecycle.effective_states does not show yet, from its commit (0 when current)."},
		func() float64 { return math.Float64frombits(s.applyLag.Load()) }))
	return s
}

// ExportKnownActions exports lifecycle_syncer_audit_events_total at 0 for every action the rules
// name (lifecycle.state_transitions.audit_action), so the family is on /metrics from the start and
// increase() sees each state change's first fact. Called before /metrics is served; an action
// added to the rules later appears at its first fact.
func (s *Syncer) ExportKnownActions(ctx context.Context) error {
	actions, err := db.New(s.pool).AuditActionsOfTransitions(ctx)
	if err != nil {
		return fmt.Errorf("audit actions of lifecycle.state_transitions: %w", err)
	}
	s.metrics.exportActions(actions)
	return nil
}

// Run consumes the slot until ctx ends, reconnecting with backoff after failures, while the
// webhook, asynchronous-operation, refresh, heartbeat and lag loops run beside it. Returns when
// every loop has stopped: nil when ctx ended, a *ReplicationRightError when the server refuses the
// role a replication connection (at the start, or at a reconnect), which no retry can mend.
func (s *Syncer) Run(ctx context.Context) error {
	if err := s.checkReplicationRight(ctx); err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
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
		if rr := (*ReplicationRightError)(nil); errors.As(err, &rr) {
			stop()
			wg.Wait()
			return rr
		}
		if errors.Is(err, errStandby) {
			// Not a failure: wait quietly, and look again soon, so a takeover is quick.
			if s.setStandby(true) {
				s.log.Info("standby: another syncer holds the slot; taking over when it goes", "slot", s.cfg.Slot)
			}
			select {
			case <-ctx.Done():
			case <-time.After(s.cfg.StandbyPoll):
			}
			continue
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

// setActive: this syncer took the slot (true) or let it go (false).
func (s *Syncer) setActive(a bool) {
	s.mu.Lock()
	s.active, s.connected, s.drained = a, a, false
	if a {
		s.standby = false
		s.lastContact = time.Now()
	}
	s.mu.Unlock()
	if a {
		s.metrics.active.Set(1)
		s.metrics.connected.Set(1)
	} else {
		s.metrics.active.Set(0)
		s.metrics.connected.Set(0)
	}
}

// setStandby marks this syncer a standby; true when it was not one already.
func (s *Syncer) setStandby(b bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	was := s.standby
	s.standby = b
	return b && !was
}

func (s *Syncer) setDrained() {
	s.mu.Lock()
	s.drained = true
	s.mu.Unlock()
}

func (s *Syncer) touch() {
	s.mu.Lock()
	s.lastContact = time.Now()
	s.mu.Unlock()
}

// Healthy: the active syncer, streaming, heard from the server recently, the outbox drained since
// it took over, no fact waiting in it for long, the slot not too far behind; or a standby, while
// no fact waits for long (a standby that sees facts wait is not covered by an active one).
func (s *Syncer) Healthy() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	waiting := time.Duration(s.unrecorded * float64(time.Second))
	switch {
	case waiting > s.cfg.HealthMaxUnrecorded:
		return false, "facts unrecorded: the oldest has waited " + waiting.Round(time.Second).String() + " in lifecycle.facts"
	case s.standby:
		return true, "standby: another syncer holds the slot"
	case !s.connected:
		return false, "not connected to the replication slot"
	case !s.drained:
		return false, "draining the facts left in lifecycle.facts"
	case time.Since(s.lastContact) > 3*s.cfg.StandbyInterval+10*time.Second:
		return false, "no message from the server for " + time.Since(s.lastContact).Round(time.Second).String()
	case s.lagBytes > s.cfg.HealthMaxLagBytes:
		return false, "replication lag over the threshold"
	}
	return true, "ok"
}

// Ready: the active syncer, healthy (the readiness endpoint: one of any number is ready).
func (s *Syncer) Ready() (bool, string) {
	ok, why := s.Healthy()
	s.mu.Lock()
	active := s.active
	s.mu.Unlock()
	if ok && !active {
		return false, why
	}
	return ok, why
}

// unfinishedEvery is how often the active syncer looks for work facts asked of it that is still
// undone (a job dropped while the database was unreachable), and how old such work must be.
const unfinishedEvery = time.Minute

// resumeUnfinished queues the moves and "delete now"s that recorded facts asked for and that are
// still in progress (in that state for at least minAge): the facts were recorded by a syncer that
// died before doing the work, on a primary since failed over, or the job was dropped. All of them
// when this syncer becomes active (minAge 0), then now and then those that have waited.
func (s *Syncer) resumeUnfinished(ctx context.Context, minAge time.Duration) {
	if s.cfg.NoAsync {
		return
	}
	rows, err := db.New(s.pool).SyncerUnfinishedWork(ctx, minAge.Seconds())
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("look for unfinished transfers and deletions", "err", dberr.FromDB(err))
		}
		return
	}
	for _, r := range rows {
		// The operations the syncer runs: their states are read from lifecycle.states above.
		kind, ok := map[string]string{"transfer": "transfer", "hard_delete": "delete_now"}[r.Operation]
		if !ok {
			s.log.Warn("a namespace in the state of an operation the syncer does not run", "namespace_id", r.NamespaceID, "operation", r.Operation)
			continue
		}
		s.async.enqueue(job{kind: kind, namespaceID: r.NamespaceID})
	}
	if len(rows) > 0 {
		s.log.Info("resumed work recorded facts asked for and nobody finished", "namespaces", len(rows))
	}
}

// drainRetry is how soon the start-up drain tries again for facts of its backlog another
// transaction held.
const drainRetry = 250 * time.Millisecond

// drain records what is in the outbox and the stream did not bring, while this syncer is active:
// everything at once when it becomes active (facts committed while no syncer ran, before the slot
// existed on a promoted standby, or recorded by nobody when the last active syncer died), then
// every DrainInterval the facts at least that old, leaving fresh ones to the stream.
func (s *Syncer) drain(ctx context.Context) {
	var minAge time.Duration
	total := 0
	resumed := time.Now()
	// The backlog of the start: the facts waiting when this syncer became active, up to the newest.
	backlog, err := db.New(s.pool).FactsNewest(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("read lifecycle.facts", "err", dberr.FromDB(err))
	}
	retry := drainRetry / 2
	for ctx.Err() == nil {
		rows, err := db.New(s.pool).FactsRecordPending(ctx, db.FactsRecordPendingParams{
			MaxFacts: int32(s.cfg.DrainBatch), MinAgeSeconds: minAge.Seconds()})
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("drain lifecycle.facts", "err", dberr.FromDB(err))
			}
		} else {
			s.recorded(recordedFacts(rows), true)
			total += len(rows)
			if len(rows) == s.cfg.DrainBatch {
				continue // more waiting
			}
			if minAge == 0 {
				// A short batch skipped the facts another transaction holds: an update of
				// lifecycle.effective_states marking a large backlog applied, the stream recording
				// some. The start-up drain goes on, in short steps, until no fact of its backlog is
				// left, rather than call itself done after the first batch it could take.
				// Each try that finds nothing waits twice as long as the last, up to the
				// drain's interval: a long update is not asked every 250 ms.
				if oldest, err := db.New(s.pool).FactsOldest(ctx); err == nil && oldest != 0 && oldest <= backlog {
					if len(rows) == 0 {
						retry = min(2*retry, max(s.cfg.DrainInterval, drainRetry))
					} else {
						retry = drainRetry
					}
					select {
					case <-ctx.Done():
					case <-time.After(retry):
					}
					continue
				}
				s.setDrained()
				if total > 0 {
					s.log.Info("recorded the facts waiting in "+factsTable, "facts", total)
				}
				s.resumeUnfinished(ctx, 0)
			} else if len(rows) > 0 {
				s.log.Info("recorded facts the stream did not bring", "facts", len(rows))
			}
			if time.Since(resumed) > unfinishedEvery {
				s.resumeUnfinished(ctx, unfinishedEvery)
				resumed = time.Now()
			}
			minAge = s.cfg.DrainInterval
		}
		select {
		case <-ctx.Done():
		case <-time.After(s.cfg.DrainInterval):
		}
	}
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
				s.log.Warn("heartbeat", "err", dberr.FromDB(err))
			}
		}
	}
}

// lagLoop samples, every second, how far the slot is behind the server, how many facts wait in
// the outbox and since when, and how far lifecycle.effective_states is behind, for /metrics and
// /healthz.
func (s *Syncer) lagLoop(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		q := db.New(s.pool)
		if row, err := q.SyncerSlotLag(ctx, s.cfg.Slot); err == nil {
			s.mu.Lock()
			s.lagBytes = row.LagBytes
			s.mu.Unlock()
			s.metrics.lagBytes.Set(float64(row.LagBytes))
		} else if ctx.Err() == nil && !errors.Is(err, pgx.ErrNoRows) {
			s.log.Debug("slot lag", "err", err)
		}
		if row, err := q.FactsUnrecorded(ctx); err == nil {
			s.mu.Lock()
			s.unrecorded = row.OldestSeconds
			s.mu.Unlock()
			s.metrics.unrecorded.Set(float64(row.Facts))
			s.metrics.unrecordedAge.Set(row.OldestSeconds)
		} else if ctx.Err() == nil {
			s.log.Debug("facts unrecorded", "err", err)
		}
		if row, err := q.EffectiveStatesLag(ctx); err == nil {
			s.applyLag.Store(math.Float64bits(row.LagSeconds))
		} else if ctx.Err() == nil {
			s.log.Debug("effective-state lag", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

type metrics struct {
	events          *prometheus.CounterVec
	transactions    prometheus.Counter
	batches         prometheus.Counter
	batchSize       prometheus.Histogram
	lastCommit      prometheus.Gauge
	commitToAudit   prometheus.Histogram
	lagBytes        prometheus.Gauge
	connected       prometheus.Gauge
	reconnects      prometheus.Counter
	slotRecreated   prometheus.Counter
	active          prometheus.Gauge
	unrecorded      prometheus.Gauge
	unrecordedAge   prometheus.Gauge
	drained         prometheus.Counter
	messagesIgnored prometheus.Counter
	deliveries      *prometheus.CounterVec
	asyncOps        *prometheus.CounterVec
	refreshes       prometheus.Histogram
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
			Help: "Times the slot was found missing after progress had been recorded (after a failover; the outbox kept the facts)."}),
		active: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lifecycle_syncer_active",
			Help: "1 while this syncer holds the slot (the active one), 0 while it is a standby or reconnecting."}),
		unrecorded: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lifecycle_syncer_facts_unrecorded",
			Help: "Facts waiting in lifecycle.facts to be recorded."}),
		unrecordedAge: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lifecycle_syncer_oldest_unrecorded_fact_seconds",
			Help: "How long the oldest fact in lifecycle.facts has waited (0: none)."}),
		drained: prometheus.NewCounter(prometheus.CounterOpts{Name: "lifecycle_syncer_facts_drained_total",
			Help: "Facts recorded from lifecycle.facts that the stream had not brought (after a failover, a takeover, a stop)."}),
		messagesIgnored: prometheus.NewCounter(prometheus.CounterOpts{Name: "lifecycle_syncer_messages_ignored_total",
			Help: "Logical messages with the fact prefix that are no fact (not one of before migration 035 that verifies)."}),
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
	// label values come from where they are defined: asyncOutcomes, deliveryStatuses. The actions
	// of audit_events_total are rows of the database (lifecycle.state_transitions.audit_action) and
	// the triggers' own: ExportKnownActions exports the former at 0; the latter appear at their
	// first fact.
	for kind, outcomes := range asyncOutcomes {
		for _, outcome := range outcomes {
			m.asyncOps.WithLabelValues(kind, outcome).Add(0)
		}
	}
	for _, st := range deliveryStatuses {
		m.deliveries.WithLabelValues(st).Add(0)
	}
	reg.MustRegister(m.events, m.transactions, m.batches, m.batchSize, m.lastCommit, m.commitToAudit, m.lagBytes, m.connected, m.reconnects,
		m.slotRecreated, m.active, m.unrecorded, m.unrecordedAge, m.drained, m.messagesIgnored, m.deliveries, m.asyncOps, m.refreshes)
	return m
}

// exportActions exports the audit counter of each action at 0 (Add(0) on a series that exists
// leaves it as it is).
func (m *metrics) exportActions(actions []string) {
	for _, a := range actions {
		m.events.WithLabelValues(a).Add(0)
	}
}

// Package syncer turns committed lifecycle facts into audit rows, notifications and webhook
// deliveries, exactly once (docs/design.md §6). The facts are transactional logical messages the SQL
// triggers emit (sql/006_facts_and_audit.sql); this package reads them from a persistent logical
// replication slot (pgoutput), records each source transaction's facts together with its commit
// position in one transaction, and reports to the server only what it has recorded. Beside the
// stream it delivers webhooks, runs the asynchronous half of transfers and "delete now", and
// keeps lifecycle.effective_states current.
package syncer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

const (
	factPrefix = "nslifecycle.fact"
	// pgoutput's protocol 1: whole transactions, sent at commit. Not protocol 2's streaming: on
	// PostgreSQL 15 a streamed message carries the top-level transaction's id even when a
	// subtransaction emitted it, so a fact of a rolled-back savepoint could not be told from a
	// kept one (docs/operations.md, replication-slot care).
	protoVersion = "1"
)

// fact is one fact message, as emitted by lifecycle.fact_emit (decodeFact reads it), or a message
// with the fact prefix that cannot be one (dead).
type fact struct {
	Action      string
	NamespaceID *int64
	ActorID     *int64
	Traversal   []int64
	raw         []byte
	seen        bool        // synthesized from what the replication protocol itself showed (not a message)
	dead        *deadLetter // not a fact: recorded as a dead letter
}

// sourceTx is a source transaction being received: its facts, kept until its commit arrives.
type sourceTx struct {
	xid   uint32 // its transaction id, as logical decoding gives it
	facts []fact
}

// stream is one replication session, in two goroutines joined by a bounded queue: the receiver
// (run: the replication connection, decoding, the position reports) and the recorder (record:
// group commits of the source transactions queued). The receiver goes on decoding while a batch
// commits, and the recorder takes every transaction queued meanwhile as its next batch: under
// load, batches grow by themselves; when quiet, a transaction is recorded as soon as it arrives
// (after BatchWait, when set).
type stream struct {
	s         *Syncer
	conn      *pgconn.PgConn
	relations map[uint32]string
	tx        *sourceTx     // non-nil between Begin and Commit: something is in flight
	from      pglogrepl.LSN // where the session started: a transaction ending at or before it was recorded before
	acked     pglogrepl.LSN // the position confirmed to the server (the receiver's)
	queue     chan committed
	// Source transactions queued or being recorded, and the end of the last one recorded: the
	// recorder's, read by the receiver. Nothing is confirmed to the server before it is recorded.
	outstanding atomic.Int64
	recorded    atomic.Uint64
}

// committed is a source transaction whose commit has arrived.
type committed struct {
	tx       *sourceTx
	commit   *pglogrepl.CommitMessage
	received time.Time
}

// streamOnce connects, makes sure the publication and the slot exist, and consumes the slot until
// ctx ends (nil) or the session fails (the error; the caller reconnects).
func (s *Syncer) streamOnce(ctx context.Context) error {
	q := db.New(s.pool)
	switch outcome, err := q.SyncerPublicationEnsure(ctx, s.cfg.Publication); {
	case err != nil:
		return fmt.Errorf("publication %s: %w", s.cfg.Publication, nslifecycle.FromDB(err))
	case outcome == "created":
		s.log.Info("publication created", "publication", s.cfg.Publication)
	case outcome == "altered":
		s.log.Warn("publication had been changed; its tables and operations were set back", "publication", s.cfg.Publication)
	}

	recorded, err := s.recordedLSN(ctx)
	if err != nil {
		return err
	}
	cfg, err := pgconn.ParseConfig(s.cfg.DatabaseURL)
	if err != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.RuntimeParams["replication"] = "database"
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("replication connection: %w", err)
	}
	defer conn.Close(context.Background())

	if err := s.ensureSlot(ctx, conn, recorded); err != nil {
		return err
	}
	err = pglogrepl.StartReplication(ctx, conn, s.cfg.Slot, recorded, pglogrepl.StartReplicationOptions{
		PluginArgs: []string{
			"proto_version '" + protoVersion + "'",
			"publication_names '" + s.cfg.Publication + "'",
			"messages 'true'",
		},
	})
	if err != nil {
		return fmt.Errorf("start replication from %s: %w", recorded, err)
	}
	s.metrics.connected.Set(1)
	defer s.metrics.connected.Set(0)
	s.setConnected(true)
	defer s.setConnected(false)
	s.log.Info("streaming", "slot", s.cfg.Slot, "publication", s.cfg.Publication, "from", recorded.String())

	st := &stream{s: s, conn: conn, relations: map[uint32]string{}, from: recorded, acked: recorded,
		queue: make(chan committed, s.cfg.BatchMax)}
	st.recorded.Store(uint64(recorded))
	return st.run(ctx)
}

// recordedLSN is the end of the last source transaction recorded (0 before the first).
func (s *Syncer) recordedLSN(ctx context.Context) (pglogrepl.LSN, error) {
	text, err := db.New(s.pool).SyncerProgressGet(ctx, s.cfg.Slot)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read progress: %w", nslifecycle.FromDB(err))
	}
	return pglogrepl.ParseLSN(text)
}

// ensureSlot creates the slot when it is missing. A missing slot after progress was recorded means
// facts were lost (the slot was dropped): say so loudly.
func (s *Syncer) ensureSlot(ctx context.Context, conn *pgconn.PgConn, recorded pglogrepl.LSN) error {
	slot, err := db.New(s.pool).SyncerSlotGet(ctx, s.cfg.Slot)
	if err == nil {
		// Slot names are cluster-wide: one of this name may be another database's, or not ours.
		if slot.Database != slot.CurrentDatabase || slot.Plugin != "pgoutput" || slot.SlotType != "logical" {
			return fmt.Errorf("replication slot %s exists but is a %s slot of database %q with plugin %q, not this database's pgoutput slot: choose another -slot",
				s.cfg.Slot, slot.SlotType, slot.Database, slot.Plugin)
		}
		return nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("look up slot %s: %w", s.cfg.Slot, nslifecycle.FromDB(err))
	}
	res, err := pglogrepl.CreateReplicationSlot(ctx, conn, s.cfg.Slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"})
	if err != nil {
		return fmt.Errorf("create slot %s: %w", s.cfg.Slot, err)
	}
	if recorded != 0 {
		s.metrics.slotRecreated.Inc()
		s.log.Error("REPLICATION SLOT WAS MISSING and has been recreated: lifecycle changes committed between the last recorded position and now were NOT audited",
			"slot", s.cfg.Slot, "last_recorded", recorded.String(), "new_slot_starts_at", res.ConsistentPoint)
	} else {
		s.log.Info("replication slot created", "slot", s.cfg.Slot, "starts_at", res.ConsistentPoint)
	}
	return nil
}

// run receives until ctx ends (nil: what was queued is recorded, and that position reported) or
// the session fails (the receiver's or the recorder's error).
func (st *stream) run(ctx context.Context) error {
	s := st.s
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	recorder := make(chan error, 1)
	go func() {
		err := st.record()
		if err != nil {
			cancel(err) // the receiver stops too
		}
		recorder <- err
	}()
	err := st.receive(rctx)
	// Nothing half-recorded: a source transaction is queued only once its commit has arrived,
	// and recorded whole or not at all. What is queued is recorded before the recorder ends.
	close(st.queue)
	if rerr := <-recorder; rerr != nil {
		return rerr
	}
	if err != nil {
		return err
	}
	st.sendStatus(context.Background())
	s.log.Info("stopped", "recorded", pglogrepl.LSN(st.recorded.Load()).String())
	return nil
}

// receive reads the replication stream until ctx ends (nil) or the session fails.
func (st *stream) receive(ctx context.Context) error {
	s := st.s
	nextStatus := time.Now().Add(s.cfg.StandbyInterval)
	for ctx.Err() == nil {
		if time.Now().After(nextStatus) {
			if err := st.sendStatus(ctx); err != nil {
				return err
			}
			nextStatus = time.Now().Add(s.cfg.StandbyInterval)
		}
		rctx, cancel := context.WithDeadline(ctx, nextStatus)
		msg, err := st.conn.ReceiveMessage(rctx)
		cancel()
		if err != nil {
			if pgconn.Timeout(err) || (ctx.Err() != nil && errors.Is(err, context.Canceled)) {
				continue
			}
			return fmt.Errorf("receive: %w", err)
		}
		s.touch()
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			if err := st.handle(ctx, m.Data); err != nil {
				return err
			}
		case *pgproto3.ErrorResponse:
			return fmt.Errorf("server: %s (%s)", m.Message, m.Code)
		}
	}
	return nil
}

func (st *stream) handle(ctx context.Context, data []byte) error {
	switch data[0] {
	case pglogrepl.PrimaryKeepaliveMessageByteID:
		ka, err := pglogrepl.ParsePrimaryKeepaliveMessage(data[1:])
		if err != nil {
			return err
		}
		// With nothing in flight, all WAL up to the server's end has been seen: confirming it
		// keeps an idle slot from pinning WAL. Mid-transaction, or with a batch not yet
		// recorded, only what is recorded.
		if st.idle() && ka.ServerWALEnd > st.acked {
			st.acked = ka.ServerWALEnd
		}
		if ka.ReplyRequested {
			return st.sendStatus(ctx)
		}
	case pglogrepl.XLogDataByteID:
		xld, err := pglogrepl.ParseXLogData(data[1:])
		if err != nil {
			return err
		}
		msg, err := pglogrepl.Parse(xld.WALData)
		if err != nil {
			return fmt.Errorf("decode pgoutput: %w", err)
		}
		return st.apply(ctx, msg)
	}
	return nil
}

func (st *stream) apply(ctx context.Context, msg pglogrepl.Message) error {
	switch m := msg.(type) {
	case *pglogrepl.BeginMessage:
		st.tx = &sourceTx{xid: m.Xid}
	case *pglogrepl.RelationMessage:
		st.relations[m.RelationID] = m.Namespace + "." + m.RelationName
	case *pglogrepl.LogicalDecodingMessage:
		if !m.Transactional {
			// A heartbeat (or another producer's message) outside any transaction.
			if st.idle() && m.LSN > st.acked {
				st.acked = m.LSN
			}
			return nil
		}
		if st.tx == nil || m.Prefix != factPrefix {
			return nil
		}
		// Anyone may emit a message with this prefix: whatever it holds, it becomes a fact that
		// lifecycle.audit_record can record, or a dead letter. decodeFact copies what it keeps: the
		// message lives in the connection's receive buffer, reused by the next one, and the
		// transaction's facts are kept until its commit arrives.
		st.tx.facts = append(st.tx.facts, decodeFact(m.Content, st.s.cfg.FactMaxBytes))
	case *pglogrepl.TruncateMessage:
		// A TRUNCATE fires no row triggers; the publication is how it is seen. It is a fact too.
		if st.tx == nil {
			return nil
		}
		var tables []string
		for _, id := range m.RelationIDs {
			tables = append(tables, st.relations[id])
		}
		raw, _ := json.Marshal(map[string]any{"action": "table_truncated", "details": map[string]any{
			"tables": tables, "cascade": m.Option&1 != 0, "restart_identity": m.Option&2 != 0}})
		st.tx.facts = append(st.tx.facts, fact{Action: "table_truncated", raw: raw, seen: true})
	case *pglogrepl.CommitMessage:
		tx := st.tx
		st.tx = nil
		if tx == nil {
			return nil
		}
		if m.TransactionEndLSN <= st.from {
			return nil // recorded before a restart: the slot sent it again
		}
		// Outstanding from now until the recorder has recorded it: the receiver confirms nothing
		// past what is recorded while anything is outstanding (idle).
		st.outstanding.Add(1)
		select {
		case st.queue <- committed{tx: tx, commit: m, received: time.Now()}:
		case <-ctx.Done():
			// Shutting down with the queue full: not recorded, so not confirmed; sent again.
			st.outstanding.Add(-1)
		}
	}
	return nil
}

// idle: no source transaction being received, none queued or being recorded.
func (st *stream) idle() bool { return st.tx == nil && st.outstanding.Load() == 0 }

// record is the recorder: it takes the source transactions queued, in commit order, as batches
// (every one already queued, up to BatchMax transactions or ten times as many facts, so that a
// transaction of ours stays short; waiting at most until BatchWait after the first arrived for
// more), records each batch in one transaction, and only then counts its transactions as recorded
// (and so as confirmable to the server). It returns when the queue is closed and empty (nil) or a
// batch could not be recorded.
func (st *stream) record() error {
	s := st.s
	var batch []committed
	for {
		first, ok := <-st.queue
		if !ok {
			return nil
		}
		batch = append(batch[:0], first)
		facts := len(first.tx.facts)
		var wait *time.Timer
	collect:
		for len(batch) < s.cfg.BatchMax && facts < 10*s.cfg.BatchMax {
			var c committed
			select {
			case c, ok = <-st.queue:
			default:
				left := time.Until(first.received.Add(s.cfg.BatchWait))
				if left <= 0 {
					break collect
				}
				if wait == nil {
					wait = time.NewTimer(left)
				}
				select {
				case c, ok = <-st.queue:
				case <-wait.C:
					break collect
				}
			}
			if !ok {
				break // closed: record what is in hand; the next receive ends the loop
			}
			batch = append(batch, c)
			facts += len(c.tx.facts)
		}
		if wait != nil {
			wait.Stop()
		}
		if err := s.record(context.Background(), batch); err != nil {
			return err
		}
		st.recorded.Store(uint64(batch[len(batch)-1].commit.TransactionEndLSN))
		st.outstanding.Add(-int64(len(batch)))
		clear(batch) // let the recorded facts go
	}
}

// sendStatus reports the confirmed position, with write, flush and apply all set explicitly (a
// zero flush would be filled with the write position by pglogrepl).
func (st *stream) sendStatus(ctx context.Context) error {
	st.acked = max(st.acked, pglogrepl.LSN(st.recorded.Load()))
	if st.acked == 0 {
		return nil
	}
	err := pglogrepl.SendStandbyStatusUpdate(ctx, st.conn, pglogrepl.StandbyStatusUpdate{
		WALWritePosition: st.acked, WALFlushPosition: st.acked, WALApplyPosition: st.acked, ClientTime: time.Now(),
	})
	if err != nil {
		return fmt.Errorf("standby status: %w", err)
	}
	return nil
}

// record writes the facts of a batch of source transactions and the end position of the last one
// in one transaction: all or none (a crash replays the batch from the last recorded position, and
// the idempotency keys skip what a replay sees twice). The facts go pipelined, in one round trip,
// and one commit, so one WAL flush, covers the whole batch. A message that is no fact is recorded
// as a dead letter in the same transaction. When the batch fails all the same, for a reason that
// running it again would not cure (not a lost connection, a deadlock, a shutdown: those end the
// session, which reconnects and gets the batch again), it is recorded again fact by fact, a fact
// that fails becoming a dead letter: what anyone emits can hold the stream up for one batch, never
// for ever. Afterwards, outside it, the asynchronous work the facts ask for is queued.
func (s *Syncer) record(ctx context.Context, batch []committed) error {
	// The batch in hand is finished even when shutdown has begun.
	ctx = context.WithoutCancel(ctx)
	last := batch[len(batch)-1].commit
	var items []item
	for t := range batch {
		for i := range batch[t].tx.facts {
			items = append(items, item{c: &batch[t], i: i})
		}
	}
	var outcomes []outcome
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) (err error) {
		outcomes, err = s.recordBatch(ctx, tx, items, last)
		return err
	})
	if err != nil && !nslifecycle.Transient(err) {
		s.log.Error("recording a batch failed; recording it again fact by fact, a fact that fails as a dead letter",
			"err", err, "from", batch[0].commit.CommitLSN.String(), "to", last.CommitLSN.String(), "facts", len(items))
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) (err error) {
			outcomes, err = s.recordEach(ctx, tx, items, last)
			return err
		})
	}
	if err != nil {
		return err
	}
	s.metrics.batches.Inc()
	s.metrics.batchSize.Observe(float64(len(batch)))
	var changed time.Time // the first source transaction that changed something
	var facts [][]byte    // and the facts recorded
	var xids []int64      // and the transactions they came from
	var lastTx *sourceTx
	for k, it := range items {
		f, o := it.fact(), outcomes[k]
		switch {
		case o.dead != nil:
			if o.fresh {
				s.metrics.deadLetters.WithLabelValues(o.dead.reason).Inc()
				s.log.Warn("a message with the fact prefix was recorded as a dead letter (lifecycle.fact_dead_letters)",
					"lsn", it.c.commit.CommitLSN.String(), "position", it.i, "reason", o.dead.reason, "detail", o.dead.detail(),
					"bytes", o.dead.size)
			}
			continue
		case o.forged:
			// Not emitted by this schema: recorded as such, and acted on by no one.
			s.log.Warn("a fact message that does not verify was recorded as forged_fact", "lsn", it.c.commit.CommitLSN.String(),
				"claimed_action", f.Action, "audit_event_id", o.auditEventID)
			s.metrics.events.WithLabelValues(actionForgedFact).Inc()
			continue
		}
		s.metrics.events.WithLabelValues(f.Action).Inc()
		s.afterFact(*f)
		if changed.IsZero() {
			changed = it.c.commit.CommitTime
		}
		facts = append(facts, f.raw)
		if it.c.tx != lastTx {
			lastTx = it.c.tx
			xids = append(xids, int64(lastTx.xid))
		}
	}
	for _, c := range batch {
		s.metrics.transactions.Inc()
		s.metrics.commitToAudit.Observe(time.Since(c.commit.CommitTime).Seconds())
	}
	s.metrics.lastCommit.Set(float64(last.CommitTime.UnixNano()) / 1e9)
	// Every recorded fact goes to the update of lifecycle.effective_states (no list here of which
	// facts matter to it: effective_states_apply decides); the facts of many batches share one.
	if !changed.IsZero() {
		s.refresher.changed(changed, xids, facts...)
	}
	return nil
}

// item is one fact of a batch: its source transaction, and its position there.
type item struct {
	c *committed
	i int
}

func (it item) fact() *fact { return &it.c.tx.facts[it.i] }

// outcome is what recording one fact did, acted on once its batch has committed.
type outcome struct {
	forged       bool        // recorded as forged_fact
	auditEventID int64       // of the forged_fact row (0: recorded before)
	dead         *deadLetter // recorded as a dead letter (its own reason, or the error that failed it)
	fresh        bool        // the dead letter was recorded now, not before
}

// recordBatch records a batch's facts, its dead letters and its progress in tx, the facts
// pipelined.
func (s *Syncer) recordBatch(ctx context.Context, tx pgx.Tx, items []item, last *pglogrepl.CommitMessage) ([]outcome, error) {
	q := db.New(tx)
	outcomes := make([]outcome, len(items))
	var (
		params []db.AuditRecordParams
		from   []int // the item of each fact sent
	)
	for k, it := range items {
		if f := it.fact(); f.dead != nil {
			fresh, err := s.recordDeadLetter(ctx, q, it, f.dead)
			if err != nil {
				return nil, err
			}
			outcomes[k] = outcome{dead: f.dead, fresh: fresh}
			continue
		}
		params = append(params, auditRecordParams(it))
		from = append(from, k)
	}
	if len(params) > 0 {
		var failed error
		results := q.AuditRecord(ctx, params)
		results.QueryRow(func(j int, rec db.AuditRecordRow, err error) {
			it := items[from[j]]
			switch {
			case failed != nil:
			case err != nil:
				failed = fmt.Errorf("record fact %d of %s: %w", it.i, it.c.commit.CommitLSN, nslifecycle.FromDB(err))
			case rec.Action == actionForgedFact:
				outcomes[from[j]] = outcome{forged: true, auditEventID: rec.AuditEventID}
			}
		})
		if err := results.Close(); err != nil && failed == nil {
			failed = fmt.Errorf("record facts: %w", nslifecycle.FromDB(err))
		}
		if failed != nil {
			return nil, failed
		}
	}
	return outcomes, s.saveProgress(ctx, q, last)
}

// recordEach records a batch that failed as a whole again, each fact in a savepoint of its own: a
// fact that fails for a reason of its own (not a transient one, which ends the attempt) becomes a
// dead letter with the error as its detail.
func (s *Syncer) recordEach(ctx context.Context, tx pgx.Tx, items []item, last *pglogrepl.CommitMessage) ([]outcome, error) {
	q := db.New(tx)
	outcomes := make([]outcome, len(items))
	for k, it := range items {
		f := it.fact()
		if f.dead != nil {
			fresh, err := s.recordDeadLetter(ctx, q, it, f.dead)
			if err != nil {
				return nil, err
			}
			outcomes[k] = outcome{dead: f.dead, fresh: fresh}
			continue
		}
		sp, err := tx.Begin(ctx) // a savepoint
		if err != nil {
			return nil, err
		}
		var rec db.AuditRecordRow
		results := db.New(sp).AuditRecord(ctx, []db.AuditRecordParams{auditRecordParams(it)})
		results.QueryRow(func(_ int, r db.AuditRecordRow, e error) { rec, err = r, e })
		if cerr := results.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			if err := sp.Commit(ctx); err != nil {
				return nil, err
			}
			outcomes[k] = outcome{forged: rec.Action == actionForgedFact, auditEventID: rec.AuditEventID}
			continue
		}
		if rerr := sp.Rollback(ctx); rerr != nil {
			return nil, rerr
		}
		if nslifecycle.Transient(err) {
			return nil, fmt.Errorf("record fact %d of %s: %w", it.i, it.c.commit.CommitLSN, nslifecycle.FromDB(err))
		}
		dead := newDeadLetter(reasonRecordFailed, nslifecycle.FromDB(err), f.raw)
		fresh, err := s.recordDeadLetter(ctx, q, it, dead)
		if err != nil {
			return nil, err
		}
		outcomes[k] = outcome{dead: dead, fresh: fresh}
	}
	return outcomes, s.saveProgress(ctx, q, last)
}

func auditRecordParams(it item) db.AuditRecordParams {
	c, f := it.c, it.fact()
	return db.AuditRecordParams{
		IdempotencyKey: fmt.Sprintf("%s/%d", c.commit.CommitLSN, it.i),
		SourceLsn:      c.commit.CommitLSN.String(),
		SourcePosition: int32(it.i),
		CommittedAt:    c.commit.CommitTime,
		Fact:           f.raw,
		Verify:         !f.seen,
	}
}

// recordDeadLetter records a dead letter at its fact's source position; fresh is false when one
// was recorded there before (a replay).
func (s *Syncer) recordDeadLetter(ctx context.Context, q *db.Queries, it item, d *deadLetter) (fresh bool, err error) {
	id, err := q.FactDeadLetterRecord(ctx, db.FactDeadLetterRecordParams{
		SourceLsn: it.c.commit.CommitLSN.String(), SourcePosition: int32(it.i), CommittedAt: it.c.commit.CommitTime,
		Reason: d.reason, Detail: d.detail(), Payload: d.payload, PayloadBytes: int64(d.size),
	})
	if err != nil {
		return false, fmt.Errorf("record dead letter %d of %s: %w", it.i, it.c.commit.CommitLSN, nslifecycle.FromDB(err))
	}
	return id != 0, nil
}

// saveProgress records the end of the batch's last source transaction.
func (s *Syncer) saveProgress(ctx context.Context, q *db.Queries, last *pglogrepl.CommitMessage) error {
	return q.SyncerProgressSave(ctx, db.SyncerProgressSaveParams{
		SlotName: s.cfg.Slot, Lsn: last.TransactionEndLSN.String(), CommittedAt: last.CommitTime,
	})
}

// afterFact queues what a recorded fact asks for: a transfer to move, a "delete now" to carry out
// (the sweeper's own deletions it carries out itself).
func (s *Syncer) afterFact(f fact) {
	switch {
	case s.cfg.NoAsync:
	case f.Action == "transfer_started" && f.NamespaceID != nil:
		s.async.enqueue(job{kind: "transfer", namespaceID: *f.NamespaceID})
	case f.Action == "deletion_started" && f.NamespaceID != nil && f.ActorID != nil:
		s.async.enqueue(job{kind: "delete_now", namespaceID: *f.NamespaceID})
	}
}

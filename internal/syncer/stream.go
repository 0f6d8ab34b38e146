// Package syncer turns committed lifecycle facts into audit rows, notifications and webhook
// deliveries, exactly once (DESIGN §6). The facts are transactional logical messages the SQL
// triggers emit (sql/006_facts_and_audit.sql); this package reads them from a persistent logical
// replication slot (pgoutput), records each source transaction's facts together with its commit
// position in one transaction, and reports to the server only what it has recorded. Beside the
// stream it delivers webhooks, runs the asynchronous half of transfers and "delete now", and
// refreshes lifecycle.effective_states.
package syncer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// pgoutput's protocol 1: whole transactions, sent at commit; no streamed, possibly aborted,
	// transactions to undo (protocol 2's streaming is off).
	protoVersion = "1"
)

// fact is one fact message, as emitted by lifecycle.fact_emit.
type fact struct {
	Action      string  `json:"action"`
	NamespaceID *int64  `json:"namespace_id"`
	ActorID     *int64  `json:"actor_id"`
	Traversal   []int64 `json:"traversal_ids"`
	raw         []byte
	seen        bool // synthesized from what the replication protocol itself showed (not a message)
}

// sourceTx is a source transaction being received: its facts, kept until its commit arrives.
type sourceTx struct {
	facts []fact
}

// stream is one replication session.
type stream struct {
	s         *Syncer
	conn      *pgconn.PgConn
	relations map[uint32]string
	tx        *sourceTx // non-nil between Begin and Commit: something is in flight
	// Committed source transactions received but not yet recorded: recorded together, in one
	// transaction of ours (group commit), when the batch is full or BatchWait has passed.
	pending      []committed
	pendingSince time.Time
	recorded     pglogrepl.LSN
	acked        pglogrepl.LSN
}

// committed is a source transaction whose commit has arrived.
type committed struct {
	tx     *sourceTx
	commit *pglogrepl.CommitMessage
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

	st := &stream{s: s, conn: conn, relations: map[uint32]string{}, recorded: recorded, acked: recorded}
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

func (st *stream) run(ctx context.Context) error {
	s := st.s
	nextStatus := time.Now().Add(s.cfg.StandbyInterval)
	for {
		if ctx.Err() != nil {
			// Nothing half-recorded: a transaction is recorded whole or not at all. The batch in
			// hand is complete source transactions: record it, report where we are, and leave.
			if err := st.flush(ctx); err != nil {
				return err
			}
			st.sendStatus(context.Background())
			s.log.Info("stopped", "recorded", st.recorded.String())
			return nil
		}
		if len(st.pending) > 0 && !time.Now().Before(st.pendingSince.Add(s.cfg.BatchWait)) {
			if err := st.flush(ctx); err != nil {
				return err
			}
		}
		if time.Now().After(nextStatus) {
			if err := st.sendStatus(ctx); err != nil {
				return err
			}
			nextStatus = time.Now().Add(s.cfg.StandbyInterval)
		}

		deadline := nextStatus
		if len(st.pending) > 0 && st.pendingSince.Add(s.cfg.BatchWait).Before(deadline) {
			deadline = st.pendingSince.Add(s.cfg.BatchWait)
		}
		rctx, cancel := context.WithDeadline(ctx, deadline)
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
		st.tx = &sourceTx{}
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
		var f fact
		if err := json.Unmarshal(m.Content, &f); err != nil {
			st.s.log.Error("a fact message that is not JSON; recorded as is", "lsn", m.LSN.String(), "err", err)
			f = fact{Action: "unreadable_fact"}
			f.raw, _ = json.Marshal(map[string]any{"action": "unreadable_fact", "details": map[string]any{"content": string(m.Content)}})
		} else {
			// The message lives in the connection's receive buffer, reused by the next one; the
			// transaction's facts are kept until its commit arrives.
			f.raw = bytes.Clone(m.Content)
		}
		st.tx.facts = append(st.tx.facts, f)
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
		if m.TransactionEndLSN <= st.recorded {
			return nil // recorded before a restart: the slot sent it again
		}
		if len(st.pending) == 0 {
			st.pendingSince = time.Now()
		}
		st.pending = append(st.pending, committed{tx: tx, commit: m})
		if len(st.pending) >= st.s.cfg.BatchMax {
			return st.flush(ctx)
		}
	}
	return nil
}

// idle: no source transaction being received, none received and not yet recorded.
func (st *stream) idle() bool { return st.tx == nil && len(st.pending) == 0 }

// flush records the pending source transactions, and only then counts them as recorded (and so
// as confirmable to the server).
func (st *stream) flush(ctx context.Context) error {
	if len(st.pending) == 0 {
		return nil
	}
	if err := st.s.record(ctx, st.pending); err != nil {
		return err
	}
	st.recorded = st.pending[len(st.pending)-1].commit.TransactionEndLSN
	if st.recorded > st.acked {
		st.acked = st.recorded
	}
	st.pending = st.pending[:0]
	return nil
}

// sendStatus reports the confirmed position, with write, flush and apply all set explicitly (a
// zero flush would be filled with the write position by pglogrepl).
func (st *stream) sendStatus(ctx context.Context) error {
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
// the idempotency keys skip what a replay sees twice). One commit, so one WAL flush, for the whole
// batch. Afterwards, outside it, the asynchronous work the facts ask for is queued.
func (s *Syncer) record(ctx context.Context, batch []committed) error {
	// The batch in hand is finished even when shutdown has begun.
	ctx = context.WithoutCancel(ctx)
	last := batch[len(batch)-1].commit
	err := pgx.BeginFunc(ctx, s.pool, func(dbtx pgx.Tx) error {
		q := db.New(dbtx)
		for _, c := range batch {
			for i, f := range c.tx.facts {
				rec, err := q.AuditRecord(ctx, db.AuditRecordParams{
					IdempotencyKey: fmt.Sprintf("%s/%d", c.commit.CommitLSN, i),
					SourceLsn:      c.commit.CommitLSN.String(),
					SourcePosition: int32(i),
					CommittedAt:    c.commit.CommitTime,
					Fact:           f.raw,
					Verify:         !f.seen,
				})
				if err != nil {
					return fmt.Errorf("record fact %d of %s: %w", i, c.commit.CommitLSN, nslifecycle.FromDB(err))
				}
				if rec.Action == "forged_fact" {
					// Not emitted by this schema: recorded as such, and acted on by no one.
					s.log.Warn("a fact message that does not verify was recorded as forged_fact", "lsn", c.commit.CommitLSN.String(),
						"claimed_action", f.Action, "audit_event_id", rec.AuditEventID)
					c.tx.facts[i].Action = "forged_fact"
				}
			}
		}
		return q.SyncerProgressSave(ctx, db.SyncerProgressSaveParams{
			SlotName: s.cfg.Slot, Lsn: last.TransactionEndLSN.String(), CommittedAt: last.CommitTime,
		})
	})
	if err != nil {
		return err
	}
	s.metrics.batches.Inc()
	s.metrics.batchSize.Observe(float64(len(batch)))
	for _, c := range batch {
		s.metrics.transactions.Inc()
		s.metrics.commitToAudit.Observe(time.Since(c.commit.CommitTime).Seconds())
		for _, f := range c.tx.facts {
			s.metrics.events.WithLabelValues(f.Action).Inc()
			if f.Action != "forged_fact" {
				s.afterFact(f)
			}
		}
	}
	s.metrics.lastCommit.Set(float64(last.CommitTime.UnixNano()) / 1e9)
	return nil
}

// afterFact queues what a recorded fact asks for: a transfer to move, a "delete now" to carry out
// (the sweeper's own deletions it carries out itself). Every recorded transaction also asks for a
// refresh of the effective-state view; the refresher's debounce makes that one refresh a period.
func (s *Syncer) afterFact(f fact) {
	switch {
	case s.cfg.NoAsync:
	case f.Action == "transfer_started" && f.NamespaceID != nil:
		s.async.enqueue(job{kind: "transfer", namespaceID: *f.NamespaceID})
	case f.Action == "deletion_started" && f.NamespaceID != nil && f.ActorID != nil:
		s.async.enqueue(job{kind: "delete_now", namespaceID: *f.NamespaceID})
	}
	s.refresher.changed()
}

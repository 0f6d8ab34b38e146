// Package syncer turns committed lifecycle facts into audit rows, notifications and webhook
// deliveries, exactly once (docs/design.md §6). The facts are rows of lifecycle.facts, an outbox
// the SQL triggers write in the change's own transaction (sql/functions/fact_emit.sql), where they
// stay until lifecycle.facts_record writes their audit rows and deletes them: a promoted standby
// holds every fact not yet recorded. This package learns of them fast from a persistent logical
// replication slot (pgoutput, a publication of the outbox's inserts), with their commit position
// and time, and drains what the stream did not bring. One syncer is active, the holder of the
// slot; others wait as standbys and take over when it goes. Beside the stream it delivers
// webhooks, runs the asynchronous half of transfers and "delete now", and keeps
// lifecycle.effective_states current.
package syncer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

const (
	// The prefix of the logical messages facts were before the outbox: those still in the slot at
	// the upgrade are adopted into the outbox (lifecycle.fact_message_adopt); one written from
	// lifecycle.fact_message_horizon on is no fact, and skipped unread.
	factPrefix = "nslifecycle.fact"
	// The outbox, the one table the syncer's publication publishes (its inserts).
	factsTable = "lifecycle.facts"
	// pgoutput's protocol 1: whole transactions, sent at commit (a rolled-back savepoint's rows
	// are not sent at all).
	protoVersion = "1"
)

// fact is one message with the fact prefix, as lifecycle.fact_emit emitted it before migration 035
// (decodeFact reads it), or one that cannot be a fact (refused: ignored).
type fact struct {
	Action      string
	NamespaceID *int64
	ActorID     *int64
	Traversal   []int64
	raw         []byte
	refused     *refusal // not a fact: ignored
}

// sourceTx is a source transaction being received: its facts, kept until its commit arrives.
type sourceTx struct {
	xid     uint32 // its transaction id, as logical decoding gives it
	entries []entry
}

// entry is one fact of a source transaction, at its position there: a row of the outbox (id), or
// a message from before migration 035 (legacy).
type entry struct {
	id     int64
	legacy *fact
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
	idColumn  map[uint32]int // the position of id among the columns of an outbox relation
	tx        *sourceTx      // non-nil between Begin and Commit: something is in flight
	from      pglogrepl.LSN  // where the session started: a transaction ending at or before it was recorded before
	horizon   pglogrepl.LSN  // a message with the fact prefix from here on is no fact (lifecycle.fact_message_horizon)
	acked     pglogrepl.LSN  // the position confirmed to the server (the receiver's)
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

// errStandby: another syncer holds the slot; this one waits as its standby.
var errStandby = errors.New("the slot is held by another syncer")

// streamOnce connects, makes sure the publication and the slot exist, takes the slot (errStandby
// when another syncer holds it) and consumes it until ctx ends (nil) or the session fails (the
// error; the caller reconnects). While it holds the slot this syncer is the active one: it also
// drains the outbox and keeps lifecycle.effective_states.
func (s *Syncer) streamOnce(ctx context.Context) error {
	q := db.New(s.pool)
	// Asked first on an ordinary connection: a standby trying START_REPLICATION every second
	// would put an ERROR in the server's log each time.
	if slot, err := q.SyncerSlotLag(ctx, s.cfg.Slot); err == nil && slot.Active != nil && *slot.Active {
		return errStandby
	}
	switch outcome, err := q.SyncerPublicationEnsure(ctx, s.cfg.Publication); {
	case err != nil:
		return fmt.Errorf("publication %s: %w", s.cfg.Publication, dberr.FromDB(err))
	case outcome == "created":
		s.log.Info("publication created", "publication", s.cfg.Publication)
	case outcome == "altered":
		s.log.Info("publication set to the inserts into "+factsTable, "publication", s.cfg.Publication)
	}

	recorded, err := s.recordedLSN(ctx)
	if err != nil {
		return err
	}
	horizonText, err := q.FactMessageHorizon(ctx)
	if err != nil {
		return fmt.Errorf("read lifecycle.fact_message_horizon (a schema older than this syncer? migrate it): %w", dberr.FromDB(err))
	}
	horizon, err := pglogrepl.ParseLSN(horizonText)
	if err != nil {
		return fmt.Errorf("lifecycle.fact_message_horizon: %w", err)
	}
	cfg, err := s.replicationConfig()
	if err != nil {
		return err
	}
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if rr := replicationRefused(cfg.User, err); rr != nil {
		return rr
	}
	if err != nil {
		return fmt.Errorf("replication connection: %w", err)
	}
	defer conn.Close(context.Background())

	if err := s.ensureSlot(ctx, conn, cfg.User, recorded); err != nil {
		return err
	}
	err = pglogrepl.StartReplication(ctx, conn, s.cfg.Slot, recorded, pglogrepl.StartReplicationOptions{
		PluginArgs: []string{
			"proto_version '" + protoVersion + "'",
			"publication_names '" + s.cfg.Publication + "'",
			"messages 'true'",
		},
	})
	if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "55006" {
		return errStandby // taken between the look and the start
	}
	if rr := replicationRefused(cfg.User, err); rr != nil {
		return rr
	}
	if err != nil {
		return fmt.Errorf("start replication from %s: %w", recorded, err)
	}
	s.setActive(true)
	defer s.setActive(false)
	s.log.Info("streaming", "role", "active", "slot", s.cfg.Slot, "publication", s.cfg.Publication, "from", recorded.String())

	st := &stream{s: s, conn: conn, relations: map[uint32]string{}, idColumn: map[uint32]int{}, from: recorded, acked: recorded,
		horizon: horizon, queue: make(chan committed, s.cfg.BatchMax)}
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
		return 0, fmt.Errorf("read progress: %w", dberr.FromDB(err))
	}
	return pglogrepl.ParseLSN(text)
}

// ensureSlot creates the slot when it is missing (errStandby when another syncer just did).
func (s *Syncer) ensureSlot(ctx context.Context, conn *pgconn.PgConn, role string, recorded pglogrepl.LSN) error {
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
		return fmt.Errorf("look up slot %s: %w", s.cfg.Slot, dberr.FromDB(err))
	}
	res, err := pglogrepl.CreateReplicationSlot(ctx, conn, s.cfg.Slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"})
	if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "42710" {
		return errStandby // another syncer created it first
	}
	if rr := replicationRefused(role, err); rr != nil {
		return rr
	}
	if err != nil {
		return fmt.Errorf("create slot %s: %w", s.cfg.Slot, err)
	}
	if recorded != 0 {
		// After a failover (PostgreSQL 15 copies no logical slot to a standby) or a dropped slot.
		// Nothing is lost: the facts committed meanwhile wait in the outbox, and the drain records them.
		s.metrics.slotRecreated.Inc()
		s.log.Warn("replication slot was missing and has been created again; the facts committed meanwhile are recorded from "+factsTable,
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
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		s.drain(rctx)
	}()
	// What the last active syncer recorded and did not apply is applied now.
	s.refresher.wake()
	err := st.receive(rctx)
	// Nothing half-recorded: a source transaction is queued only once its commit has arrived,
	// and recorded whole or not at all. What is queued is recorded before the recorder ends.
	close(st.queue)
	cancel(nil)
	<-drained
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
		delete(st.idColumn, m.RelationID)
		for i, c := range m.Columns {
			if c.Name == "id" {
				st.idColumn[m.RelationID] = i
			}
		}
	case *pglogrepl.InsertMessage:
		// A fact: a row of the outbox (the publication publishes nothing else). Its id is all
		// the syncer takes from the stream; facts_record reads the row itself.
		col, ok := st.idColumn[m.RelationID]
		if st.tx == nil || st.relations[m.RelationID] != factsTable || !ok || m.Tuple == nil || col >= len(m.Tuple.Columns) {
			return nil
		}
		id, err := strconv.ParseInt(string(m.Tuple.Columns[col].Data), 10, 64)
		if err != nil {
			return fmt.Errorf("decode the id of a row of %s: %w", factsTable, err)
		}
		st.tx.entries = append(st.tx.entries, entry{id: id})
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
		if m.LSN >= st.horizon {
			// No fact can be written so since the outbox: skipped unread and held nowhere, so a
			// burst of them costs a syncer nothing but their bytes on the wire.
			st.s.metrics.messagesIgnored.Inc()
			return nil
		}
		// A fact of before the outbox, or anything anyone emitted with the prefix then: adopted if
		// it verifies, ignored if not. decodeFact copies what it keeps: the message lives in the
		// connection's receive buffer, reused by the next one.
		f := decodeFact(m.Content, st.s.cfg.FactMaxBytes)
		if f.refused != nil {
			st.s.metrics.messagesIgnored.Inc()
			return nil
		}
		st.tx.entries = append(st.tx.entries, entry{legacy: &f})
	case *pglogrepl.CommitMessage:
		tx := st.tx
		st.tx = nil
		if tx == nil || len(tx.entries) == 0 {
			return nil
		}
		if m.TransactionEndLSN <= st.from {
			return nil // recorded before a restart: the slot sent it again
		}
		// lifecycle.effective_states is updated from the outbox, not from the audit rows: a change
		// shows without waiting for the recording of a burst before it. A commit reaches a
		// replication client a moment before new snapshots show it; the update asked for a few
		// milliseconds later almost always sees it, and the recording's wake-up catches the rest.
		time.AfterFunc(visibleAfter, st.s.refresher.wake)
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
		facts := len(first.tx.entries)
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
			facts += len(c.tx.entries)
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
// in one transaction: all or none. A crash replays the batch from the last recorded position, and
// the facts recorded meanwhile are gone from the outbox, so nothing is recorded twice. Messages
// from before migration 035 are adopted into the outbox first, in the same transaction. A batch
// that fails ends the session, which reconnects and gets it again; its facts wait in the outbox
// meanwhile (and /healthz says so once they are old). Afterwards, outside it, the asynchronous
// work the facts ask for is queued.
func (s *Syncer) record(ctx context.Context, batch []committed) error {
	// The batch in hand is finished even when shutdown has begun.
	ctx = context.WithoutCancel(ctx)
	last := batch[len(batch)-1].commit
	var recorded []recordedFact
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) (err error) {
		recorded, err = s.recordBatch(ctx, tx, batch)
		if err != nil {
			return err
		}
		return s.saveProgress(ctx, db.New(tx), last)
	})
	if err != nil {
		return fmt.Errorf("record %d source transactions from %s to %s: %w", len(batch), batch[0].commit.CommitLSN,
			last.CommitLSN, dberr.FromDB(err))
	}
	s.metrics.batches.Inc()
	s.metrics.batchSize.Observe(float64(len(batch)))
	for _, c := range batch {
		s.metrics.transactions.Inc()
		s.metrics.commitToAudit.Observe(time.Since(c.commit.CommitTime).Seconds())
	}
	s.metrics.lastCommit.Set(float64(last.CommitTime.UnixNano()) / 1e9)
	s.recorded(recorded, false)
	return nil
}

// visibleAfter is how long after a commit arrives the update of lifecycle.effective_states is
// asked for (see apply).
const visibleAfter = 5 * time.Millisecond

// recordChunk bounds the facts of one call of facts_record: a burst of 50,000 facts in one source
// transaction is recorded in a few statements of bounded memory.
const recordChunk = 10_000

// recordBatch adopts the batch's messages from before migration 035 (pipelined) and records its
// facts with their commit positions and times, in tx.
func (s *Syncer) recordBatch(ctx context.Context, tx pgx.Tx, batch []committed) ([]recordedFact, error) {
	q := db.New(tx)
	var (
		adopt   []db.FactMessageAdoptParams
		adopted []int // the position in p.FactIds of each message adopted
		p       db.FactsRecordParams
	)
	for _, c := range batch {
		for i, e := range c.tx.entries {
			p.FactIds = append(p.FactIds, e.id)
			p.SourceLsns = append(p.SourceLsns, c.commit.CommitLSN.String())
			p.SourcePositions = append(p.SourcePositions, int32(i))
			p.CommittedAts = append(p.CommittedAts, c.commit.CommitTime)
			if e.legacy != nil {
				adopt = append(adopt, db.FactMessageAdoptParams{Fact: e.legacy.raw, CommittedAt: c.commit.CommitTime})
				adopted = append(adopted, len(p.FactIds)-1)
			}
		}
		p.SourceXids = append(p.SourceXids, int64(c.tx.xid))
	}
	if len(adopt) > 0 {
		var failed error
		results := q.FactMessageAdopt(ctx, adopt)
		results.QueryRow(func(j int, id int64, err error) {
			if err != nil && failed == nil {
				failed = fmt.Errorf("adopt a fact message of before migration 035: %w", err)
			}
			p.FactIds[adopted[j]] = id // 0: no fact, skipped below
			if id == 0 {
				s.metrics.messagesIgnored.Inc()
			}
		})
		if err := results.Close(); err != nil && failed == nil {
			failed = err
		}
		if failed != nil {
			return nil, failed
		}
	}
	var recorded []recordedFact
	for from := 0; from < len(p.FactIds); from += recordChunk {
		to := min(from+recordChunk, len(p.FactIds))
		rows, err := q.FactsRecord(ctx, db.FactsRecordParams{FactIds: p.FactIds[from:to], SourceLsns: p.SourceLsns[from:to],
			SourcePositions: p.SourcePositions[from:to], CommittedAts: p.CommittedAts[from:to], SourceXids: p.SourceXids})
		if err != nil {
			return nil, err
		}
		recorded = append(recorded, recordedFacts(rows)...)
		p.SourceXids = nil // visible once waited for
	}
	return recorded, nil
}

// saveProgress records the end of the batch's last source transaction.
func (s *Syncer) saveProgress(ctx context.Context, q *db.Queries, last *pglogrepl.CommitMessage) error {
	return q.SyncerProgressSave(ctx, db.SyncerProgressSaveParams{
		SlotName: s.cfg.Slot, Lsn: last.TransactionEndLSN.String(), CommittedAt: last.CommitTime,
	})
}

// recorded acts on facts just recorded (drained: from the outbox, not brought by the stream):
// counts them, queues the asynchronous work they ask for, and has lifecycle.effective_states
// updated (which facts matter to it is decided in effective_states_apply, not here).
func (s *Syncer) recorded(rows []recordedFact, drained bool) {
	for _, r := range rows {
		s.metrics.events.WithLabelValues(r.action).Inc()
		s.afterFact(r)
	}
	if drained {
		s.metrics.drained.Add(float64(len(rows)))
	}
	if len(rows) > 0 {
		s.refresher.wake()
	}
}

// afterFact queues what a recorded fact asks for: a transfer to move, a "delete now" to carry out
// (the sweeper's own deletions it carries out itself).
func (s *Syncer) afterFact(f recordedFact) {
	switch {
	case s.cfg.NoAsync:
	case f.action == "transfer_started" && f.namespaceID != nil:
		s.async.enqueue(job{kind: "transfer", namespaceID: *f.namespaceID})
	case f.action == "deletion_started" && f.namespaceID != nil && f.actorID != nil:
		s.async.enqueue(job{kind: "delete_now", namespaceID: *f.namespaceID})
	}
}

// recordedFact is what the syncer acts on of a fact lifecycle.facts_record recorded.
type recordedFact struct {
	action               string
	namespaceID, actorID *int64
}

// recordedFacts converts the rows of facts_record and facts_record_pending (one shape, two sqlc
// types, whose columns sqlc cannot tell are never null) at one place.
func recordedFacts[T db.FactsRecordRow | db.FactsRecordPendingRow](rows []T) []recordedFact {
	out := make([]recordedFact, len(rows))
	for i, r := range rows {
		row := db.FactsRecordRow(r)
		if row.Action != nil {
			out[i].action = *row.Action
		}
		out[i].namespaceID, out[i].actorID = row.NamespaceID, row.ActorID
	}
	return out
}

package scenario

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// floorConsumer is the syncer's baseline: a logical replication consumer of the same publication
// and fact messages (pgoutput, protocol 1) that only receives: per source transaction it notes how
// long after the commit the commit arrived, and confirms it. No audit row, no write, no fan-out.
type floorConsumer struct {
	conn *pgconn.PgConn
	slot string

	mu      sync.Mutex
	commits int             // transactions received that carried at least one fact
	lags    []time.Duration // commit → received, per such transaction
	window  time.Time       // lags are kept for commits at or after this
}

// newFloorConsumer creates its slot now, so it sees everything committed from here on; start begins
// the streaming.
func newFloorConsumer(ctx context.Context, url, slot string) (*floorConsumer, error) {
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["replication"] = "database"
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := pglogrepl.CreateReplicationSlot(ctx, conn, slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"}); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("create slot %s: %w", slot, err)
	}
	return &floorConsumer{conn: conn, slot: slot}, nil
}

// start streams the slot: the same publication and options as the syncer's.
func (f *floorConsumer) start(ctx context.Context, publication string) error {
	return pglogrepl.StartReplication(ctx, f.conn, f.slot, 0, pglogrepl.StartReplicationOptions{PluginArgs: []string{
		"proto_version '1'", "publication_names '" + publication + "'", "messages 'true'"}})
}

// run receives until ctx ends.
func (f *floorConsumer) run(ctx context.Context) error {
	var acked pglogrepl.LSN
	inTx, hasFact := false, false
	nextStatus := time.Now()
	for {
		if time.Now().After(nextStatus) && acked > 0 {
			if err := pglogrepl.SendStandbyStatusUpdate(ctx, f.conn, pglogrepl.StandbyStatusUpdate{
				WALWritePosition: acked, WALFlushPosition: acked, WALApplyPosition: acked}); err != nil {
				return err
			}
			nextStatus = time.Now().Add(time.Second)
		}
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		msg, err := f.conn.ReceiveMessage(rctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			return err
		}
		cd, ok := msg.(*pgproto3.CopyData)
		if !ok || cd.Data[0] != pglogrepl.XLogDataByteID {
			continue
		}
		xld, err := pglogrepl.ParseXLogData(cd.Data[1:])
		if err != nil {
			return err
		}
		m, err := pglogrepl.Parse(xld.WALData)
		if err != nil {
			return err
		}
		switch m := m.(type) {
		case *pglogrepl.BeginMessage:
			inTx, hasFact = true, false
		case *pglogrepl.InsertMessage:
			// The publication publishes the inserts into lifecycle.facts alone: each is a fact.
			if inTx {
				hasFact = true
			}
		case *pglogrepl.CommitMessage:
			lag := time.Since(m.CommitTime)
			inTx = false
			acked = m.TransactionEndLSN
			if hasFact {
				f.mu.Lock()
				f.commits++
				if !f.window.IsZero() && !m.CommitTime.Before(f.window) {
					f.lags = append(f.lags, lag)
				}
				f.mu.Unlock()
			}
		}
	}
}

// measure starts keeping the lags of commits from now on, and returns the ones kept so far.
func (f *floorConsumer) measure() {
	f.mu.Lock()
	f.window, f.lags = time.Now(), nil
	f.mu.Unlock()
}

func (f *floorConsumer) received() (int, []time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.commits, append([]time.Duration(nil), f.lags...)
}

func (f *floorConsumer) close() { f.conn.Close(context.Background()) }

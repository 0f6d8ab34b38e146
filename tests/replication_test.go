package tests_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// The syncer needs wal_level=logical and a replication connection that can hold a pgoutput slot.
// This holds on the private cluster and must hold on any server DATABASE_URL names.
func TestServerSupportsLogicalReplication(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.URL(t)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	conn, err := pgconn.Connect(ctx, dsn+sep+"replication=database")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)

	sys, err := pglogrepl.IdentifySystem(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if sys.XLogPos == 0 {
		t.Fatal("IDENTIFY_SYSTEM returned no WAL position")
	}

	// Slots are cluster-wide: a name of its own, so concurrent runs on one server do not collide.
	slot := fmt.Sprintf("nslifecycle_probe_%d_%d", os.Getpid(), time.Now().UnixNano())
	res, err := pglogrepl.CreateReplicationSlot(ctx, conn, slot, "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{Temporary: true})
	if err != nil {
		t.Fatalf("create a pgoutput slot (wal_level must be logical): %v", err)
	}
	if res.SlotName != slot || res.OutputPlugin != "pgoutput" {
		t.Fatalf("slot %q with plugin %q, want %q with pgoutput", res.SlotName, res.OutputPlugin, slot)
	}
}

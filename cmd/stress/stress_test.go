package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/logging"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// The short form of make stress: a few clients for a few seconds while the syncer is killed and
// restarted (no PostgreSQL restart: the server may be shared). Every promise must hold.
func TestShortStress(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "syncer")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/syncer").CombinedOutput(); err != nil {
		t.Fatalf("build the syncer: %v\n%s", err, out)
	}
	log, _ := logging.New(os.Stderr, "text", "warn")
	// Each round is a fresh database and must keep every promise. A round on a loaded machine (make
	// test runs packages side by side) may do too little to meet every case below, so the cases are
	// counted over up to three rounds.
	var kills, changes, history, refusedNS005 int64
	for round := 1; round <= 3; round++ {
		rep, err := Run(context.Background(), Config{
			DatabaseURL: dbtest.NewDatabase(t), Clients: 4, Duration: 6 * time.Second, Namespaces: 120,
			SyncerBinary: bin, Slot: fmt.Sprintf("nslt_stress_%d_%d", os.Getpid(), round), KillEvery: 1500 * time.Millisecond, Log: log,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %d operations, %d changes, %d syncer kills; history %d, audited %d, violations %d; refusals %v",
			round, rep.Operations, rep.Changes, rep.SyncerKills, rep.History, rep.Audited, len(rep.Violations), rep.Refusals)
		if f := rep.Failures(); len(f) > 0 {
			t.Fatalf("broken promises: %v", f)
		}
		kills += int64(rep.SyncerKills)
		changes += rep.Changes
		history += rep.History
		refusedNS005 += rep.Refusals["NS005"]
		// The application's clients met the rule that an operation owns its in-progress states.
		if kills >= 2 && changes > 0 && history > 0 && refusedNS005 > 0 {
			return
		}
	}
	t.Fatalf("three rounds did too little to prove anything: %d syncer kills, %d changes, %d history rows, %d NS005 refusals",
		kills, changes, history, refusedNS005)
}

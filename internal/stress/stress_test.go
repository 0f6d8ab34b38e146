package stress_test

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
	"github.com/nslifecycle/nslifecycle/internal/stress"
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
	rep, err := stress.Run(context.Background(), stress.Config{
		DatabaseURL: dbtest.NewDatabase(t), Clients: 4, Duration: 6 * time.Second, Namespaces: 120,
		SyncerBinary: bin, Slot: fmt.Sprintf("nslt_stress_%d", os.Getpid()), KillEvery: 1500 * time.Millisecond, Log: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operations, %d changes, %d syncer kills; history %d, audited %d, violations %d; refusals %v",
		rep.Operations, rep.Changes, rep.SyncerKills, rep.History, rep.Audited, len(rep.Violations), rep.Refusals)
	if f := rep.Failures(); len(f) > 0 {
		t.Fatalf("broken promises: %v", f)
	}
	// The application's clients met the rule that an operation owns its in-progress states.
	if rep.SyncerKills < 2 || rep.Changes == 0 || rep.History == 0 || rep.Refusals["NS005"] == 0 {
		t.Fatalf("the run did too little to prove anything: %+v", rep)
	}
}

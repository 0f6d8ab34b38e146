package adopt_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// make demo-adopt at a small size, the syncer running beside it: every proof of the tour holds
// (Failures is empty), and the figures behind the proofs are the ones the population and the
// application's writes call for.
func TestDemoAdoptAtASmallSize(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "syncer")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/syncer").CombinedOutput(); err != nil {
		t.Fatalf("build the syncer: %v\n%s", err, out)
	}
	url := dbtest.NewDatabase(t)
	slot := fmt.Sprintf("nslt_adopt_%d", os.Getpid())
	var syncerLog strings.Builder
	syncer := exec.Command(bin, "-slot", slot, "-listen", "", "-log-format", "json", "-delivery-poll", "100ms",
		"-heartbeat-interval", "1s", "-standby-interval", "1s")
	syncer.Env = append(os.Environ(), "DATABASE_URL="+url)
	syncer.Stdout, syncer.Stderr = &syncerLog, &syncerLog
	syncer.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := syncer.Start(); err != nil {
		t.Fatal(err)
	}
	// Registered after NewDatabase's cleanup, so it runs first: the syncer goes, then its database.
	t.Cleanup(func() {
		_ = syncer.Process.Signal(syscall.SIGTERM)
		_ = syncer.Wait()
	})

	var tour strings.Builder
	rep, err := adopt.Run(context.Background(), adopt.Config{
		DatabaseURL: url, Namespaces: 3000, BatchSize: 500, Slot: slot, CatchUpTimeout: 2 * time.Minute, Out: &tour,
	})
	if err != nil {
		t.Fatalf("%v\n--- tour:\n%s\n--- syncer:\n%s", err, tour.String(), syncerLog.String())
	}
	if f := rep.Failures(); len(f) > 0 {
		t.Fatalf("did not hold: %v\n--- tour:\n%s", f, tour.String())
	}
	// The population: 3000 namespaces, some archived, scheduled and pending_delete; each staged once.
	if rep.Staged != 3000 || rep.Groups+rep.Users+rep.Projects != 3000 || rep.Archived == 0 || rep.Scheduled == 0 || rep.InProgress == 0 {
		t.Fatalf("population: %d staged, %d+%d+%d namespaces, %d archived, %d scheduled, %d pending_delete",
			rep.Staged, rep.Groups, rep.Users, rep.Projects, rep.Archived, rep.Scheduled, rep.InProgress)
	}
	// The first run rejected the two bad rows and the subtree below the bad name; the fix imported them all.
	if rep.Imported+rep.Rejected != rep.Staged || rep.ImportedAfterFix != rep.Rejected || rep.RejectedLeft != 0 {
		t.Fatalf("verdicts: %d imported, %d rejected, then %d imported and %d left", rep.Imported, rep.Rejected, rep.ImportedAfterFix, rep.RejectedLeft)
	}
	// The application's writes between the snapshot and the import (3 of each at this size): each
	// is a disagreement; the backfill settles the states set after the snapshot, the replay the rest.
	if rep.WindowArchived != 3 || rep.WindowScheduled != 3 || rep.WindowCleared != 3 || rep.CheckBeforeBackfill != 9 ||
		rep.Backfilled < 3 || rep.Backfilled+rep.Replayed+rep.Refused != 9 {
		t.Fatalf("after the snapshot: %d archived, %d scheduled, %d cleared; %d disagreements, backfilled %d, replayed %d, refused %d",
			rep.WindowArchived, rep.WindowScheduled, rep.WindowCleared, rep.CheckBeforeBackfill, rep.Backfilled, rep.Replayed, rep.Refused)
	}
	// Batches of 500: at least one namespaces_imported row per 500 imported, and one for the backfill.
	if min := (rep.Imported+499)/500 + 1; rep.ImportFacts < min {
		t.Fatalf("%d namespaces_imported audit rows, want at least %d", rep.ImportFacts, min)
	}
	if rep.ImportNotifications != 0 || rep.ImportDeliveries != 0 || rep.OwnAuditRows != 0 || rep.LiveNotifications == 0 {
		t.Fatalf("notifications: import %d, deliveries %d, own audit rows %d; the demo's own changes %d",
			rep.ImportNotifications, rep.ImportDeliveries, rep.OwnAuditRows, rep.LiveNotifications)
	}
	if rep.CheckRows != 0 || rep.Invariants != 0 || rep.Mismatches != 0 || rep.Verified != 3000 {
		t.Fatalf("checks: %d bridge disagreements, %d invariant violations, %d of %d namespaces differ from the legacy data",
			rep.CheckRows, rep.Invariants, rep.Mismatches, rep.Verified)
	}
	if !strings.Contains(tour.String(), "every legacy state, date and actor kept (3000 namespaces)") {
		t.Fatalf("the tour does not say every legacy state, date and actor was kept:\n%s", tour.String())
	}
}

// GitLab's tables as docs/adoption.md describes them: what differs from a simpler legacy shape is
// there (gitlab/structure.sql, loaded as the docs and the demo load it).
func TestGitLabStructureIsGitLabs(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := adopt.LoadGitLabStructure(ctx, conn, "legacy"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table, column, typ string
		notNull            bool
	}{
		{"group_deletion_schedules", "user_id", "bigint", true},
		{"group_deletion_schedules", "marked_for_deletion_on", "date", true},
		{"projects", "pending_delete", "boolean", false},
		{"projects", "marked_for_deletion_at", "date", false},
		{"projects", "created_at", "timestamp without time zone", false},
		{"namespaces", "created_at", "timestamp without time zone", false},
		{"namespaces", "traversal_ids", "bigint[]", true},
		{"namespace_settings", "created_at", "timestamp with time zone", true},
		{"namespace_settings", "archived", "boolean", true},
	} {
		var typ string
		var notNull bool
		err := conn.QueryRow(ctx, `select format_type(atttypid, atttypmod), attnotnull from pg_attribute
			where attrelid = ('legacy.' || $1)::regclass and attname = $2 and not attisdropped`, c.table, c.column).Scan(&typ, &notNull)
		if err != nil || typ != c.typ || notNull != c.notNull {
			t.Errorf("legacy.%s.%s: %s not null %v (%v), want %s not null %v", c.table, c.column, typ, notNull, err, c.typ, c.notNull)
		}
	}
	// organization_id is required by a CHECK, and a project's namespace row goes with it (GitLab's trigger).
	if _, err := conn.Exec(ctx, `insert into legacy.namespaces (id, name, path, type) values (1, 'a', 'a', 'Group')`); err == nil {
		t.Error("a namespace without organization_id was accepted")
	}
	if _, err := conn.Exec(ctx, `set search_path to legacy;
		insert into namespaces (id, name, path, type, organization_id) values (1, 'a', 'a', 'Group', 1), (2, 'p', 'p', 'Project', 1);
		insert into projects (id, name, path, namespace_id, project_namespace_id, organization_id) values (7, 'p', 'p', 1, 2, 1);
		delete from projects where id = 7;
		reset search_path`); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := conn.QueryRow(ctx, `select count(*) from legacy.namespaces where id = 2`).Scan(&left); err != nil || left != 0 {
		t.Errorf("the project's namespaces row after deleting the project: %d (%v), want none", left, err)
	}
}

package nslifecycle_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/tern/v2/migrate"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// oldMigrations is the tree of migrations 001 to the baseline's version as they were before the
// first release, read from git at migration.RequiredStop into a temporary directory: what every
// database made before the release was migrated with.
func oldMigrations(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the migrations before the baseline are read from the repository's history")
	}
	if out, err := exec.Command("git", "rev-parse", "--is-inside-work-tree").Output(); err != nil || strings.TrimSpace(string(out)) != "true" {
		t.Skip("not a git checkout: the migrations before the baseline are read from the repository's history")
	}
	if err := exec.Command("git", "cat-file", "-e", migration.RequiredStop+"^{commit}").Run(); err != nil {
		t.Fatalf("commit %s is not in this clone (a shallow clone? git fetch --unshallow): %v", migration.RequiredStop, err)
	}
	dir := t.TempDir()
	archive := exec.Command("git", "archive", "--format=tar", migration.RequiredStop, "sql")
	var tarball, stderr bytes.Buffer
	archive.Stdout, archive.Stderr = &tarball, &stderr
	if err := archive.Run(); err != nil {
		t.Fatalf("git archive %s sql: %v: %s", migration.RequiredStop, err, stderr.String())
	}
	untar := exec.Command("tar", "-x", "-C", dir)
	untar.Stdin = &tarball
	if out, err := untar.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v: %s", err, out)
	}
	return dir + "/sql"
}

// migrateOld moves an empty database to version with the migrations before the baseline, as the
// migrator of that time did (tern over the tree, one migration after the other).
func migrateOld(t *testing.T, url, dir string, version int32) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := conn.Exec(ctx, "create schema if not exists lifecycle"); err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewMigrator(ctx, conn, migration.VersionTable)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadMigrations(os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := m.MigrateTo(ctx, version); err != nil {
		t.Fatalf("the migrations before the baseline, to %d: %v", version, err)
	}
	return conn
}

// tableRows lists every row of every table in schema lifecycle (the rules tables' rows, the
// settings, the lock rows, …) and the state of every sequence, a line each, sorted. Times and the
// random fact key differ between any two installs and are masked, and so is fact_key's
// legacy_mac_until: a database migrated through 026 accepts for a day the facts signed before 026
// changed how they are signed; a fresh install has no such facts, and the baseline leaves it null.
func tableRows(t *testing.T, conn *pgx.Conn) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.Query(ctx, `
		select c.oid::regclass::text, c.relkind = 'S'
		  from pg_class c
		 where c.relnamespace = 'lifecycle'::regnamespace and c.relkind in ('r', 'S') and c.relname <> 'schema_version'
		 order by 1`)
	if err != nil {
		t.Fatal(err)
	}
	type rel struct {
		Name     string
		Sequence bool
	}
	rels, err := pgx.CollectRows(rows, pgx.RowToStructByPos[rel])
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rels {
		query := `select $1 || ' ' || to_jsonb(r)::text from ` + r.Name + ` r`
		switch {
		case r.Sequence:
			query = `select $1 || ' ' || last_value || ' ' || is_called from ` + r.Name
		case r.Name == "lifecycle.fact_key":
			query = `select $1 || ' ' || (to_jsonb(r) - 'key' - 'legacy_mac_until')::text from ` + r.Name + ` r`
		}
		rows, err := conn.Query(ctx, query, r.Name)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, lines...)
	}
	for i, line := range out {
		out[i] = timestamp.ReplaceAllString(line, "(a time)")
	}
	slices.Sort(out)
	return out
}

var timestamp = regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d(:\d\d)?|Z)?`)

// lineDiff is what one sorted list of lines has that the other has not, for a failure message.
func lineDiff(want, got []string) string {
	var b strings.Builder
	for _, l := range want {
		if _, found := slices.BinarySearch(got, l); !found {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range got {
		if _, found := slices.BinarySearch(want, l); !found {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// The baseline installs in one step what migrations 001 to 063 installed one after the other: the
// same columns in the same order, constraints, indexes, function bodies and their settings,
// triggers, grants, comments, types and views, and the same rows in every table (the rules tables'
// rows among them).
func TestTheBaselineInstallsWhatTheMigrationsBeforeItInstalled(t *testing.T) {
	dir := oldMigrations(t)
	set, err := migration.Load(nslifecycle.Migrations())
	if err != nil {
		t.Fatal(err)
	}
	old := migrateOld(t, dbtest.EmptyDatabase(t), dir, set.Baseline())
	baseline := connectAt(t, dbtest.EmptyDatabase(t), set, set.Baseline())

	want, got := schemaLines(t, old), schemaLines(t, baseline)
	if len(want) < 1000 {
		t.Fatalf("the replayed schema has %d definitions: too few to compare", len(want))
	}
	if d := lineDiff(want, got); d != "" {
		t.Fatalf("the baseline's schema differs from migrations 1 to %d's (- theirs, + the baseline's):\n%s", set.Baseline(), d)
	}
	want, got = tableRows(t, old), tableRows(t, baseline)
	if len(want) < 100 {
		t.Fatalf("the replayed schema has %d rows: too few to compare", len(want))
	}
	if d := lineDiff(want, got); d != "" {
		t.Fatalf("the baseline's rows differ from migrations 1 to %d's (- theirs, + the baseline's):\n%s", set.Baseline(), d)
	}
}

// A database migrated to 063 before the first release is at the baseline: this build has nothing
// to do there, and goes on from it (here, to the two later test migrations and back).
func TestADatabaseMigratedTo63BeforeTheReleaseGoesOnFromTheBaseline(t *testing.T) {
	dir := oldMigrations(t)
	set := dbtest.MigrationsWith(t, dbtest.LaterMigrations)
	ctx := context.Background()
	conn := migrateOld(t, dbtest.EmptyDatabase(t), dir, set.Baseline())
	before := schemaFingerprint(t, conn)
	if _, err := set.To(ctx, conn, set.Baseline(), migration.Options{}); err != nil {
		t.Fatal(err)
	}
	if schemaFingerprint(t, conn) != before {
		t.Fatal("migrating a database at the baseline to the baseline changed its schema")
	}
	if _, err := set.To(ctx, conn, migration.Latest, migration.Options{}); err != nil {
		t.Fatalf("from the baseline to %d: %v", set.Latest(), err)
	}
	if _, err := set.To(ctx, conn, set.Baseline(), migration.Options{}); err != nil {
		t.Fatal(err)
	}
	if schemaFingerprint(t, conn) != before {
		t.Fatal("back at the baseline, the schema differs from the one migrations 1 to 63 left")
	}
}

// A database migrated before the first release to a version below the baseline is refused with
// ErrBeforeBaseline, naming the commit to upgrade with first, and nothing in it changes.
func TestADatabaseBeforeTheBaselineIsRefusedAndLeftAsItWas(t *testing.T) {
	dir := oldMigrations(t)
	ctx := context.Background()
	conn := migrateOld(t, dbtest.EmptyDatabase(t), dir, 40)
	before := schemaFingerprint(t, conn)
	err := nslifecycle.Migrate(ctx, conn)
	if !errors.Is(err, nslifecycle.ErrBeforeBaseline) || !strings.Contains(err.Error(), migration.RequiredStop) ||
		!strings.Contains(err.Error(), "schema version 40") {
		t.Fatalf("migrating a database at 40: %v; want ErrBeforeBaseline naming version 40 and commit %s", err, migration.RequiredStop)
	}
	if err := nslifecycle.MigrateTo(ctx, conn, 0); !errors.Is(err, nslifecycle.ErrBeforeBaseline) {
		t.Fatalf("moving a database at 40 down to 0: %v; want ErrBeforeBaseline", err)
	}
	if current, _, err := nslifecycle.SchemaVersion(ctx, conn); err != nil || current != 40 {
		t.Fatalf("after the refusals: version %d (%v), want 40", current, err)
	}
	if schemaFingerprint(t, conn) != before {
		t.Fatal("a refused migration changed the schema")
	}
}

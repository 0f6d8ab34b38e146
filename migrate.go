// Package nslifecycle is namespace lifecycle state management in PostgreSQL: the schema, its
// functions and triggers (under sql/), embedded here so a Go program can install or upgrade them,
// and a Client for the SQL API. The rules live in SQL; see docs/design.md and the rest of docs/.
package nslifecycle

import (
	"context"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/tern/v2/migrate"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// VersionTable records the applied migration version, inside the product's own schema.
const VersionTable = migration.VersionTable

// Latest, as MigrateToWith's version, is the newest embedded migration.
const Latest = migration.Latest

// ErrBeforeBaseline is the refusal of a database migrated before the first release to a version
// below the baseline: nothing is changed, and the error names the commit to upgrade it with first.
var ErrBeforeBaseline = migration.ErrBeforeBaseline

// DefaultLockTimeout is MigrateOptions.LockTimeout when none is given (500 ms): below the second
// a client may wait behind a migration's lock request.
const DefaultLockTimeout = migration.DefaultLockTimeout

// MigrateOptions bound what a migration makes others wait for: a client's call waits at most
// LockTimeout behind a step (its statements run with four fifths of it as lock_timeout), and a step that could not get a lock in time (55P03) or lost a deadlock
// (40P01) is tried again, Attempts times, after a growing Backoff. Zero fields take the defaults.
type MigrateOptions = migration.Options

// Migrations is the tree of migration files: NNN_name.sql at its root, the baseline
// (NNN_baseline.sql) first, and the files they include.
func Migrations() fs.FS { return migration.Migrations() }

// NewMigrator returns a tern migrator over the embedded migrations (for tools that drive tern
// themselves; Migrate and MigrateToWith add the lock timeout and the retries).
func NewMigrator(ctx context.Context, conn *pgx.Conn) (*migrate.Migrator, error) {
	return migration.NewMigrator(ctx, conn)
}

// Migrate applies every pending migration with the default MigrateOptions: an empty database gets
// the baseline in one step, a database at the baseline or later the migrations after it, and one
// migrated before the first release to a version below the baseline is refused (ErrBeforeBaseline).
// Each migration runs in its own transaction (or statement by statement, for those that build indexes CONCURRENTLY);
// concurrent callers serialise on a lock, so running it twice, or twice at once, is a no-op.
func Migrate(ctx context.Context, conn *pgx.Conn) error {
	_, err := migration.To(ctx, conn, Latest, MigrateOptions{})
	return err
}

// MigrateTo moves the schema up or down to version (0 removes every object but the schema and
// its version table; from 0, the baseline is installed in one step), with the default
// MigrateOptions.
func MigrateTo(ctx context.Context, conn *pgx.Conn, version int32) error {
	_, err := migration.To(ctx, conn, version, MigrateOptions{})
	return err
}

// MigrateToWith moves the schema to version (Latest: the newest) one migration at a time, each
// step with opts.LockTimeout and retried as opts says; it returns how many retries it made.
func MigrateToWith(ctx context.Context, conn *pgx.Conn, version int32, opts MigrateOptions) (retries int, err error) {
	return migration.To(ctx, conn, version, opts)
}

// SchemaVersion returns the version recorded in the database, and the latest embedded one.
func SchemaVersion(ctx context.Context, conn *pgx.Conn) (current, latest int32, err error) {
	return migration.SchemaVersion(ctx, conn)
}

// MigrationFiles names the migrations in order: the baseline first, its version the number its
// name starts with, and each after it one more.
func MigrationFiles() ([]string, error) { return migration.Names() }

// RenderMigrations writes every migration's up and down SQL, as tern sends it to the database
// (templates filled in), into dir as NNN_name.up.sql and NNN_name.down.sql: what make test lints,
// and what an operator reads before an upgrade.
func RenderMigrations(dir string) error { return migration.Render(dir) }

// Package nslifecycle is namespace lifecycle state management in PostgreSQL: the schema, its
// functions and triggers (under sql/), embedded here so a Go program can install or upgrade them.
// The rules live in SQL; see docs/design.md and the rest of docs/.
package nslifecycle

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/tern/v2/migrate"
)

// VersionTable records the applied migration version, inside the product's own schema.
const VersionTable = "lifecycle.schema_version"

//go:embed sql/[0-9]*.sql sql/functions sql/triggers sql/snapshots
var sqlFiles embed.FS

// Migrations is the tree of migration files (NNN_name.sql at its root, included files below).
func Migrations() fs.FS {
	sub, err := fs.Sub(sqlFiles, "sql")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory exists
	}
	return sub
}

// NewMigrator returns a tern migrator over the embedded migrations. Migration numbers must run
// 1…N without gaps or duplicates; tern refuses anything else.
func NewMigrator(ctx context.Context, conn *pgx.Conn) (*migrate.Migrator, error) {
	// tern keeps its version table in our schema, so the schema must exist before tern looks for
	// the table. The first migration creates it too (if not exists), for readers of the SQL.
	if _, err := conn.Exec(ctx, "create schema if not exists lifecycle"); err != nil {
		return nil, fmt.Errorf("create schema lifecycle: %w", err)
	}
	m, err := migrate.NewMigrator(ctx, conn, VersionTable)
	if err != nil {
		return nil, fmt.Errorf("prepare %s: %w", VersionTable, err)
	}
	if err := m.LoadMigrations(Migrations()); err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	return m, nil
}

// Migrate applies every pending migration. Each migration runs in its own transaction; concurrent
// callers serialise on tern's advisory lock, so running it twice, or twice at once, is a no-op.
func Migrate(ctx context.Context, conn *pgx.Conn) error {
	m, err := NewMigrator(ctx, conn)
	if err != nil {
		return err
	}
	return migrateTo(ctx, m, int32(len(m.Migrations)))
}

// MigrateTo moves the schema up or down to version (0 removes every object but the schema and
// its version table).
func MigrateTo(ctx context.Context, conn *pgx.Conn, version int32) error {
	m, err := NewMigrator(ctx, conn)
	if err != nil {
		return err
	}
	return migrateTo(ctx, m, version)
}

func migrateTo(ctx context.Context, m *migrate.Migrator, version int32) error {
	if err := m.MigrateTo(ctx, version); err != nil {
		return fmt.Errorf("migrate to version %d: %w", version, err)
	}
	return nil
}

// SchemaVersion returns the version recorded in the database, and the latest embedded one.
func SchemaVersion(ctx context.Context, conn *pgx.Conn) (current, latest int32, err error) {
	m, err := NewMigrator(ctx, conn)
	if err != nil {
		return 0, 0, err
	}
	current, err = m.GetCurrentVersion(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read %s: %w", VersionTable, err)
	}
	return current, int32(len(m.Migrations)), nil
}

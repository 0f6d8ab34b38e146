// Package migration installs and upgrades the lifecycle schema with tern: a fresh database gets
// the release's baseline in one step, and a database at the baseline or later goes on one
// migration at a time, each with a lock timeout and retried when it could not get a lock in time
// (an upgrade never stalls the clients). The root package's Migrate functions are its public face.
package migration

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/tern/v2/migrate"

	lifecyclesql "github.com/nslifecycle/nslifecycle/sql"
)

// VersionTable records the applied migration version, inside the product's own schema.
const VersionTable = "lifecycle.schema_version"

// Migrations is the tree of migration files (NNN_name.sql at its root, the baseline first, and the
// files they include).
func Migrations() fs.FS { return lifecyclesql.Files() }

// NewMigrator returns a tern migrator over the embedded migrations. Its list holds a version for
// every number from 1: those below the baseline refuse to run (a database there is upgraded with an
// earlier build first, ErrBeforeBaseline), and the baseline's step from 0 is To's own, since tern
// would walk through those numbers first.
func NewMigrator(ctx context.Context, conn *pgx.Conn) (*migrate.Migrator, error) {
	set, err := Load(Migrations())
	if err != nil {
		return nil, err
	}
	return set.migrator(ctx, conn)
}

func (s *Set) migrator(ctx context.Context, conn *pgx.Conn) (*migrate.Migrator, error) {
	// Under the migration lock: two first installs at once both found the schema missing (23505
	// for the second), and tern's own wait for its lock (below) must not be the one that holds a
	// snapshot (lockMigrations).
	unlock, err := lockMigrations(ctx, conn)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// tern keeps its version table in our schema, so the schema must exist before tern looks for
	// the table. The baseline creates it too (if not exists), for readers of the SQL.
	if _, err := conn.Exec(ctx, "create schema if not exists lifecycle"); err != nil {
		return nil, fmt.Errorf("create schema lifecycle: %w", err)
	}
	m, err := migrate.NewMigrator(ctx, conn, VersionTable)
	if err != nil {
		return nil, fmt.Errorf("prepare %s: %w", VersionTable, err)
	}
	m.Migrations = s.tern()
	return m, nil
}

// Latest, as To's version, is the newest embedded migration.
const Latest int32 = -1

// Options bound what a migration makes others wait for. A migration that needs a lock a
// long transaction holds (a report, an idle-in-transaction session) would otherwise wait for it
// with its own lock request queued, and every client whose lock conflicts with that request
// (every reader, for an ACCESS EXCLUSIVE one) would queue behind it: the stall of issue 25. With a
// lock_timeout the migration gives up the wait instead, rolls back, and tries the step again a
// little later. Zero fields take the defaults.
type Options struct {
	// LockTimeout is the longest a client's call waits behind the migration's lock request
	// (default 500ms). A step's statements run with a lock_timeout a fifth shorter
	// (StepLockTimeout): a client queued behind a request that gives up also waits for the step to
	// roll back and release what it held, then runs its own statement, and the whole call is what
	// stays within LockTimeout. CREATE and DROP INDEX CONCURRENTLY also wait at most the step's
	// lock_timeout for older transactions to end.
	LockTimeout time.Duration
	// Attempts is how often a step is tried when it fails with lock_not_available (55P03) or
	// deadlock_detected (40P01), before the migration stops with that error (default 10).
	Attempts int
	// Backoff is the pause after the first failed attempt, doubled after each one up to
	// MaxBackoff (defaults 1s and 10s: ten attempts span about 70 s).
	Backoff, MaxBackoff time.Duration
	// Log receives one WARN line per retry (default slog.Default()).
	Log *slog.Logger
}

// DefaultLockTimeout is Options.LockTimeout when none is given: below the second a client
// may wait (issue 25), with room for the moment the migration then holds the lock. Among the
// API's transactions (milliseconds) a lock is had within it; only a long transaction makes a step
// wait longer, and then the step is better retried later than waited on with everyone behind it.
const DefaultLockTimeout = 500 * time.Millisecond

// StepLockTimeout is the lock_timeout a step's statements run with for a given
// Options.LockTimeout: four fifths of it, the last fifth left to the rollback of a step that gave
// up and to the queued client's own statement. Measured under the bench's upgrade scenario with the
// whole 500 ms as lock_timeout, the slowest write took 508 ms: the wait was within it, the call was
// not.
func StepLockTimeout(clientWait time.Duration) time.Duration {
	return clientWait * 4 / 5
}

func (o Options) withDefaults() Options {
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.Attempts <= 0 {
		o.Attempts = 10
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 10 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return o
}

// ternLock is tern's advisory lock key (migrate.lockNum, unexported): To holds it
// across all its steps, so no other migrator moves the version between two of them, and tern's
// own acquisition inside each step is then granted at once (advisory locks nest in a session).
const ternLock = int64(9628173550095224)

// lockMigrations takes the migration lock, waiting for another migrator by trying again every
// 100 ms rather than in pg_advisory_lock: a statement waiting there holds a snapshot, which the
// other migrator's CREATE INDEX CONCURRENTLY waits for, while it waits for that migrator's lock
// (three migrators started at once: every attempt of 016 timed out, and two of them failed). It
// returns the function that releases it.
func lockMigrations(ctx context.Context, conn *pgx.Conn) (unlock func(), err error) {
	for {
		var locked bool
		if err := conn.QueryRow(ctx, "select pg_try_advisory_lock($1)", ternLock).Scan(&locked); err != nil {
			return nil, fmt.Errorf("take the migration lock: %w", err)
		}
		if locked {
			return func() { conn.Exec(context.WithoutCancel(ctx), "select pg_advisory_unlock($1)", ternLock) }, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// To moves the schema to version (Latest: the newest) one migration at a time, each
// step with opts.LockTimeout and retried as opts says when it could not get a lock in time. It
// returns how many retries it made. A step that runs outside a transaction (---- tern: disable-tx
// ----) may have done part of its work when it fails; its statements are written to be run again
// (sql/README.md, Migrations without stalls), which is what the retry does.
//
// An empty database (version 0) gets the baseline in one step, and going down to 0 from the
// baseline removes it in one step; a database below the baseline is refused (ErrBeforeBaseline),
// and so is a target there.
func To(ctx context.Context, conn *pgx.Conn, version int32, opts Options) (retries int, err error) {
	set, err := Load(Migrations())
	if err != nil {
		return 0, fmt.Errorf("load migrations: %w", err)
	}
	return set.To(ctx, conn, version, opts)
}

// To is the package's To over this set of migrations.
func (s *Set) To(ctx context.Context, conn *pgx.Conn, version int32, opts Options) (retries int, err error) {
	o := opts.withDefaults()
	// Taken before any lock_timeout is set: a second migrator waits here for the first to finish.
	unlock, err := lockMigrations(ctx, conn)
	if err != nil {
		return 0, err
	}
	defer unlock()
	defer func() {
		// The caller's connection goes back without our lock_timeout (tern resets it after a
		// step that succeeds, not after one that failed).
		if _, resetErr := conn.Exec(context.WithoutCancel(ctx), "reset lock_timeout"); err == nil && resetErr != nil {
			err = resetErr
		}
	}()
	m, err := s.migrator(ctx, conn)
	if err != nil {
		return 0, err
	}
	if version == Latest {
		version = s.Latest()
	}
	if version != 0 && (version < s.Baseline() || version > s.Latest()) {
		return 0, fmt.Errorf("migrate to version %d: want 0, or %d (the baseline) to %d", version, s.Baseline(), s.Latest())
	}
	for {
		current, err := m.GetCurrentVersion(ctx)
		if err != nil {
			return retries, fmt.Errorf("read %s: %w", VersionTable, err)
		}
		if current > 0 && current < s.Baseline() {
			return retries, s.beforeBaseline(current)
		}
		if current > s.Latest() {
			return retries, fmt.Errorf("the database is at schema version %d, newer than this build's newest, %d: use a newer build", current, s.Latest())
		}
		if current == version {
			return retries, nil
		}
		next := current + 1
		switch {
		case version < current && current == s.Baseline():
			next = 0
		case version < current:
			next = current - 1
		case current == 0:
			next = s.Baseline()
		}
		wait := o.Backoff
		for attempt := 1; ; attempt++ {
			err = s.step(ctx, conn, m, current, next, StepLockTimeout(o.LockTimeout))
			if err == nil {
				break
			}
			if !retryable(err) || attempt == o.Attempts {
				return retries, fmt.Errorf("migrate from version %d to %d (attempt %d of %d): %w", current, next, attempt, o.Attempts, err)
			}
			o.Log.Warn("migration step gave up waiting for a lock; retrying", "from", current, "to", next,
				"attempt", attempt, "of", o.Attempts, "retry_in", wait.String(), "lock_timeout", StepLockTimeout(o.LockTimeout).String(), "err", err)
			retries++
			select {
			case <-ctx.Done():
				return retries, ctx.Err()
			case <-time.After(wait):
			}
			wait = min(2*wait, o.MaxBackoff)
		}
	}
}

// step applies one migration (up or down from current to next) with lockTimeout. tern runs RESET
// ALL after each migration, so the setting is made again before every step. The baseline's steps
// (0 to the baseline and back) are run here, as tern runs a step in a transaction: tern would walk
// through every number below the baseline on the way.
func (s *Set) step(ctx context.Context, conn *pgx.Conn, m *migrate.Migrator, current, next int32, lockTimeout time.Duration) error {
	if _, err := conn.Exec(ctx, "select pg_catalog.set_config('lock_timeout', $1, false)",
		fmt.Sprintf("%dms", lockTimeout.Milliseconds())); err != nil {
		return err
	}
	if current != 0 && next != 0 {
		return m.MigrateTo(ctx, next)
	}
	base := s.Steps[0]
	sql := base.Up
	if next == 0 {
		sql = base.Down
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sql); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) {
				return migrate.MigrationPgError{MigrationName: base.Name, PgError: pgErr}
			}
			return err
		}
		if _, err := tx.Exec(ctx, "reset all"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "update "+VersionTable+" set version = $1", next)
		return err
	})
}

// retryable: the step was rolled back (or, outside a transaction, stopped at a statement that can
// run again) because it waited for a lock longer than lock_timeout, or was chosen as a deadlock's
// victim; a later attempt may find the lock free.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "55P03" || pgErr.Code == "40P01")
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

// Names names the migrations in order, the baseline first: the baseline's version is the number
// its name starts with, and each after it one more.
func Names() ([]string, error) {
	set, err := Load(Migrations())
	if err != nil {
		return nil, err
	}
	names := make([]string, len(set.Steps))
	for i, st := range set.Steps {
		names[i] = st.Name
	}
	return names, nil
}

// Render writes every migration's up and down SQL, as the database receives it (templates filled
// in), into dir as NNN_name.up.sql and NNN_name.down.sql: what make test lints
// (scripts/lint-migrations.sh), and what an operator reads before an upgrade.
func Render(dir string) error {
	set, err := Load(Migrations())
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, st := range set.Steps {
		base := filepath.Join(dir, strings.TrimSuffix(st.Name, ".sql"))
		if err := os.WriteFile(base+".up.sql", []byte(st.Up+"\n"), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(base+".down.sql", []byte(st.Down+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

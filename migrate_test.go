package nslifecycle_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// lifecycleObjects counts what lives in schema lifecycle besides tern's version table.
func lifecycleObjects(t *testing.T, conn *pgx.Conn) int {
	t.Helper()
	var n int
	err := conn.QueryRow(context.Background(), `
		select (select count(*) from pg_class c join pg_namespace s on s.oid = c.relnamespace
		         where s.nspname = 'lifecycle' and c.relname not like 'schema_version%')
		     + (select count(*) from pg_proc p join pg_namespace s on s.oid = p.pronamespace
		         where s.nspname = 'lifecycle')`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMigrationsUpDownUp(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)

	version := func() (current, latest int32) {
		t.Helper()
		current, latest, err := nslifecycle.SchemaVersion(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		return current, latest
	}

	if cur, latest := version(); cur != 0 || latest < 1 {
		t.Fatalf("fresh database: version %d of %d, want 0 of at least 1", cur, latest)
	}
	if err := nslifecycle.Migrate(ctx, conn); err != nil {
		t.Fatal(err)
	}
	cur, latest := version()
	if cur != latest {
		t.Fatalf("after migrate: version %d, want %d", cur, latest)
	}
	installed := lifecycleObjects(t, conn)
	if installed == 0 {
		t.Fatal("migrate installed nothing in schema lifecycle")
	}

	// A second run is a no-op.
	if err := nslifecycle.Migrate(ctx, conn); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	if cur, _ := version(); cur != latest {
		t.Fatalf("after second migrate: version %d, want %d", cur, latest)
	}

	if err := nslifecycle.MigrateTo(ctx, conn, 0); err != nil {
		t.Fatalf("down to 0: %v", err)
	}
	if cur, _ := version(); cur != 0 {
		t.Fatalf("after down: version %d, want 0", cur)
	}
	if n := lifecycleObjects(t, conn); n != 0 {
		t.Fatalf("after down to 0: %d objects left in schema lifecycle", n)
	}

	if err := nslifecycle.Migrate(ctx, conn); err != nil {
		t.Fatalf("up again: %v", err)
	}
	if n := lifecycleObjects(t, conn); n != installed {
		t.Fatalf("up again installed %d objects, the first time %d", n, installed)
	}
}

// schemaFingerprint digests every definition in schema lifecycle but tern's version table:
// functions (their full text), columns, constraints, indexes, triggers, relations (their storage
// and autovacuum settings too) and grants.
func schemaFingerprint(t *testing.T, conn *pgx.Conn) string {
	t.Helper()
	var sum string
	err := conn.QueryRow(context.Background(), `
		with s as (select oid from pg_namespace where nspname = 'lifecycle'),
		rel as (select c.* from pg_class c, s where c.relnamespace = s.oid and c.relname not like 'schema_version%')
		select coalesce(md5(string_agg(x, E'\n' order by x)), '') from (
		  select 'fn ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) || ' ' || coalesce(p.proacl::text, '')
		    from pg_proc p, s where p.pronamespace = s.oid
		  union all
		  select 'rel ' || r.relname || ' ' || r.relkind::text || ' ' || coalesce(r.relacl::text, '') || ' ' || coalesce(r.reloptions::text, '') from rel r
		  union all
		  select 'col ' || r.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		         || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' ' || coalesce(a.attacl::text, '')
		    from rel r join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
		    left join pg_attrdef d on d.adrelid = r.oid and d.adnum = a.attnum
		  union all
		  select 'con ' || c.conname || ' ' || pg_get_constraintdef(c.oid) from pg_constraint c, s where c.connamespace = s.oid
		  union all
		  select 'idx ' || pg_get_indexdef(i.indexrelid) from pg_index i join rel r on r.oid = i.indrelid
		  union all
		  select 'trg ' || pg_get_triggerdef(g.oid) from pg_trigger g join rel r on r.oid = g.tgrelid where not g.tgisinternal
		) defs(x)`).Scan(&sum)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// Every migration step down restores exactly what the schema was before the step up: functions a
// later migration replaced come back in their earlier version (sql/snapshots), grants included.
func TestMigrationsStepwiseReversible(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	_, latest, err := nslifecycle.SchemaVersion(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	prints := map[int32]string{0: schemaFingerprint(t, conn)}
	for v := int32(1); v <= latest; v++ {
		if err := nslifecycle.MigrateTo(ctx, conn, v); err != nil {
			t.Fatalf("up to %d: %v", v, err)
		}
		prints[v] = schemaFingerprint(t, conn)
		if prints[v] == prints[v-1] {
			t.Fatalf("migration %d changed nothing", v)
		}
	}
	for v := latest - 1; v >= 0; v-- {
		if err := nslifecycle.MigrateTo(ctx, conn, v); err != nil {
			t.Fatalf("down to %d: %v", v, err)
		}
		if got := schemaFingerprint(t, conn); got != prints[v] {
			t.Fatalf("down to %d: the schema differs from version %d on the way up", v, v)
		}
	}
}

// connectAt opens a connection to a fresh empty database migrated to version.
func connectAt(t *testing.T, url string, version int32) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if err := nslifecycle.MigrateTo(ctx, conn, version); err != nil {
		t.Fatal(err)
	}
	return conn
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// A step that needs a lock a long transaction holds gives up the wait after the lock timeout, so
// the readers queued behind its request wait no longer than that (issue 25: they waited for the
// whole transaction), is retried, and fails with 55P03 once its attempts are spent, leaving the
// version where it was. 029's down part drops a constraint of lifecycle.namespaces: ACCESS
// EXCLUSIVE, which one reader's ACCESS SHARE blocks.
func TestMigrationStepGivesUpAWaitAfterTheLockTimeout(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	conn := connectAt(t, url, 29)
	holder, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `select count(*) from lifecycle.namespaces`); err != nil {
		t.Fatal(err)
	}

	// A reader that starts while the step waits queues behind its lock request.
	reader, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close(ctx)
	done := make(chan struct{})
	slowest := make(chan time.Duration, 1)
	go func() {
		var worst time.Duration
		defer func() { slowest <- worst }()
		for {
			select {
			case <-done:
				return
			default:
			}
			start := time.Now()
			if _, err := reader.Exec(ctx, `select count(*) from lifecycle.namespaces`); err != nil {
				t.Error(err)
				return
			}
			worst = max(worst, time.Since(start))
			time.Sleep(20 * time.Millisecond)
		}
	}()

	start := time.Now()
	retries, err := nslifecycle.MigrateToWith(ctx, conn, 28, nslifecycle.MigrateOptions{
		LockTimeout: 300 * time.Millisecond, Attempts: 3, Backoff: 100 * time.Millisecond, Log: quietLog()})
	took := time.Since(start)
	close(done)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "55P03" || retries != 2 {
		t.Fatalf("with the table held: %d retries, err %v; want 2 retries and 55P03", retries, err)
	}
	// Three waits of 240 ms (four fifths of 300) and pauses of 100 and 200 ms.
	if took < 1020*time.Millisecond || took > 5*time.Second {
		t.Fatalf("the step gave up after %v, want about 1.0 s", took)
	}
	if worst := <-slowest; worst > time.Second {
		t.Fatalf("a reader waited %v behind the step (lock timeout 300 ms)", worst)
	}
	if current, _, err := nslifecycle.SchemaVersion(ctx, conn); err != nil || current != 29 {
		t.Fatalf("after the failed step: version %d (%v), want 29", current, err)
	}
	// The caller's connection is left without the migrator's lock_timeout.
	var setting string
	if err := conn.QueryRow(ctx, `show lock_timeout`).Scan(&setting); err != nil || setting != "0" {
		t.Fatalf("lock_timeout left at %q (%v)", setting, err)
	}

	// Once the reader is gone, the same call goes through.
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if retries, err := nslifecycle.MigrateToWith(ctx, conn, 28, nslifecycle.MigrateOptions{Log: quietLog()}); err != nil || retries != 0 {
		t.Fatalf("with the table free: %d retries, %v", retries, err)
	}
}

// A migration that runs outside a transaction and stops half way is finished by the retry,
// exactly: 028's concurrent build waits for a writer's transaction, gives up after the lock timeout
// and leaves its new index INVALID; the next attempt drops it and builds it again. The schema
// ends as a migration without the writer leaves it.
func TestAConcurrentBuildCutShortIsRetriedToTheSameSchema(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	conn := connectAt(t, url, 27)
	at27 := schemaFingerprint(t, conn)

	writer, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(ctx)
	tx, err := writer.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	// What an open write holds; CREATE INDEX CONCURRENTLY waits for it to end before it builds.
	if _, err := tx.Exec(ctx, `lock table lifecycle.namespaces in row exclusive mode`); err != nil {
		t.Fatal(err)
	}

	result := make(chan error, 1)
	retried := make(chan int, 1)
	go func() {
		retries, err := nslifecycle.MigrateToWith(ctx, conn, 28, nslifecycle.MigrateOptions{
			LockTimeout: 200 * time.Millisecond, Attempts: 20, Backoff: 200 * time.Millisecond, Log: quietLog()})
		retried <- retries
		result <- err
	}()

	// The first attempt leaves the new index behind, invalid.
	watch, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var invalid bool
		if err := watch.QueryRow(ctx, `select exists (select from pg_index where indexrelid = 'lifecycle.namespaces_stateful_idx_next'::regclass
			and not indisvalid)`).Scan(&invalid); err != nil {
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "42P01" { // not made yet
				t.Fatal(err)
			}
		} else if invalid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no invalid index left by the cut-short build")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // at least one more attempt meets the writer
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-result; err != nil {
		t.Fatal(err)
	}
	if retries := <-retried; retries < 1 {
		t.Fatalf("%d retries, want at least one", retries)
	}
	var invalid int
	if err := conn.QueryRow(ctx, `select count(*) from pg_index i join pg_class c on c.oid = i.indexrelid
		where c.relnamespace = 'lifecycle'::regnamespace and not (i.indisvalid and i.indisready)`).Scan(&invalid); err != nil || invalid != 0 {
		t.Fatalf("%d invalid indexes left (%v)", invalid, err)
	}
	retriedTo28 := schemaFingerprint(t, conn)
	if err := nslifecycle.MigrateTo(ctx, conn, 27); err != nil {
		t.Fatal(err)
	}
	if schemaFingerprint(t, conn) != at27 {
		t.Fatal("down to 27 after the retried step: the schema differs from 27's")
	}
	if err := nslifecycle.MigrateTo(ctx, conn, 28); err != nil {
		t.Fatal(err)
	}
	if schemaFingerprint(t, conn) != retriedTo28 {
		t.Fatal("the retried step left another schema than a step without a writer in the way")
	}
}

// Migrators started at once on an empty database all succeed, one after the other: the ones that
// wait for the migration lock hold no snapshot while they wait, which a CREATE INDEX CONCURRENTLY
// of the running one (016) would wait for (before: every attempt of 016 timed out, and all but the
// last migrator failed).
func TestMigratorsStartedAtOnceAllSucceed(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close(ctx)
			_, err = nslifecycle.MigrateToWith(ctx, conn, nslifecycle.Latest, nslifecycle.MigrateOptions{Attempts: 3, Log: quietLog()})
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if current, latest, err := nslifecycle.SchemaVersion(ctx, conn); err != nil || current != latest {
		t.Fatalf("after three migrators: version %d of %d (%v)", current, latest, err)
	}
}

// A fact's audit row is keyed by the fact's id (fact/<id>): moved back to 034 and up again, the
// outbox is made anew, and its ids must go on above the keys the audit holds, or the first fact
// after would collide with an old one (23505) and stall the syncer for ever (found by the bench's
// upgrade scenario, which rolls the newest migration back and forth).
func TestFactIdsGoOnAfterTheOutboxIsMadeAgain(t *testing.T) {
	ctx := context.Background()
	conn := connectAt(t, dbtest.EmptyDatabase(t), 35)
	record := func(path string) {
		t.Helper()
		if _, err := conn.Exec(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, $1)`, path); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRow(ctx, `select count(*) from lifecycle.facts_record_pending(100)`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("recording the creation of %s: %d facts (%v), want 1", path, n, err)
		}
	}
	record("before")
	if err := nslifecycle.MigrateTo(ctx, conn, 34); err != nil {
		t.Fatal(err)
	}
	if err := nslifecycle.MigrateTo(ctx, conn, 35); err != nil {
		t.Fatal(err)
	}
	record("after")
	var keys []string
	if err := conn.QueryRow(ctx, `select array_agg(idempotency_key order by id) from lifecycle.audit_events`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] == keys[1] {
		t.Fatalf("audit keys %v, want two distinct", keys)
	}
}

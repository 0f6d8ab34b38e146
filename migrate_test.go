package nslifecycle_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/migration"
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

// schemaLines describes every definition in schema lifecycle but tern's version table, a line
// each, sorted: functions (their full text, settings included, and grants), types, relations (their
// kind, persistence, grants, storage and autovacuum settings, a view's query), sequences, columns
// in their order, constraints, indexes, triggers, comments, and the schema's grants, the roles and
// the extensions the database has. The schema's grants are compared as what they grant: no
// grants (null) and the owner's alone, as a revoke leaves them, are the same.
func schemaLines(t *testing.T, conn *pgx.Conn) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), schemaQuery)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

const schemaQuery = `
with s as (select oid from pg_namespace where nspname = 'lifecycle'),
rel as (select c.* from pg_class c, s where c.relnamespace = s.oid and c.relname not like 'schema_version%')
select x from (
  select 'schema ' || coalesce(n.nspacl, acldefault('n', n.nspowner))::text || ' ' || coalesce(obj_description(n.oid, 'pg_namespace'), '') from pg_namespace n, s where n.oid = s.oid
  union all
  select 'fn ' || p.oid::regprocedure || ' ' || p.prokind::text || ' ' || coalesce(p.proacl::text, '') || E'\n' || pg_get_functiondef(p.oid)
    from pg_proc p, s where p.pronamespace = s.oid
  union all
  select 'type ' || t.typname || ' ' || t.typtype::text || ' ' || coalesce(t.typacl::text,'') from pg_type t, s where t.typnamespace = s.oid and t.typrelid = 0 or (t.typnamespace = s.oid and t.typrelid in (select oid from rel where relkind = 'c'))
  union all
  select 'rel ' || r.relname || ' ' || r.relkind::text || ' ' || r.relpersistence::text || ' ' || r.relrowsecurity || ' ' || coalesce(r.relacl::text, '') || ' ' || coalesce(r.reloptions::text, '')
     || coalesce(' view: ' || pg_get_viewdef(r.oid), '')
     from rel r
  union all
  select 'seq ' || r.relname || ' ' || format_type(q.seqtypid, null) || ' ' || q.seqstart || ' ' || q.seqincrement || ' ' || q.seqmax || ' ' || q.seqmin || ' ' || q.seqcache || ' ' || q.seqcycle
     || ' owned by ' || coalesce((select d.refobjid::regclass || '.' || d.refobjsubid || ' ' || d.deptype::text from pg_depend d where d.objid = r.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a','i')), '-')
     from rel r join pg_sequence q on q.seqrelid = r.oid
  union all
  select 'col ' || r.relname || '.' || lpad((select count(*) from pg_attribute b where b.attrelid = a.attrelid and b.attnum > 0 and b.attnum <= a.attnum and not b.attisdropped)::text, 3, '0') || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || ' notnull=' || a.attnotnull || ' ident=' || a.attidentity::text || ' gen=' || a.attgenerated::text || ' coll=' || coalesce(a.attcollation::regcollation::text, '') || ' stat=' || a.attstattarget || ' storage=' || a.attstorage::text
         || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' acl=' || coalesce(a.attacl::text, '') || ' opts=' || coalesce(a.attoptions::text, '')
    from rel r join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = r.oid and d.adnum = a.attnum
  union all
  select 'con ' || c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) || ' deferrable=' || c.condeferrable || ' deferred=' || c.condeferred from pg_constraint c, s where c.connamespace = s.oid
  union all
  select 'idx ' || pg_get_indexdef(i.indexrelid) || ' valid=' || i.indisvalid || ' primary=' || i.indisprimary || ' ' || coalesce((select reloptions::text from pg_class where oid = i.indexrelid), '') from pg_index i join rel r on r.oid = i.indrelid
  union all
  select 'trg ' || pg_get_triggerdef(g.oid) || ' enabled=' || g.tgenabled::text from pg_trigger g join rel r on r.oid = g.tgrelid where not g.tgisinternal
  union all
  select 'comment ' || d.classoid::regclass || ' ' || coalesce(pg_describe_object(d.classoid, d.objoid, d.objsubid), '?') || ': ' || d.description
    from pg_description d
   where (d.classoid = 'pg_class'::regclass and d.objoid in (select oid from rel))
      or (d.classoid = 'pg_proc'::regclass and d.objoid in (select p.oid from pg_proc p, s where p.pronamespace = s.oid))
      or (d.classoid = 'pg_constraint'::regclass and d.objoid in (select c.oid from pg_constraint c, s where c.connamespace = s.oid))
      or (d.classoid = 'pg_trigger'::regclass and d.objoid in (select g.oid from pg_trigger g join rel r on r.oid = g.tgrelid))
      or (d.classoid = 'pg_type'::regclass and d.objoid in (select t.oid from pg_type t, s where t.typnamespace = s.oid))
  union all
  select 'policy ' || pol.polname || ' ' || pol.polrelid::regclass from pg_policy pol join rel r on r.oid = pol.polrelid
  union all
  select 'defacl ' || d.defaclrole::regrole || ' ' || d.defaclobjtype::text || ' ' || d.defaclacl::text from pg_default_acl d, s where d.defaclnamespace = s.oid or d.defaclnamespace = 0
  union all
  select 'role ' || rolname || ' ' || rolcanlogin || ' ' || rolinherit from pg_roles where rolname like 'lifecycle%'
  union all
  select 'ext ' || e.extname from pg_extension e
  union all
  select 'pub ' || pubname from pg_publication
) defs(x)
order by x`

// schemaFingerprint digests schemaLines.
func schemaFingerprint(t *testing.T, conn *pgx.Conn) string {
	t.Helper()
	sum := sha256.Sum256([]byte(strings.Join(schemaLines(t, conn), "\n")))
	return hex.EncodeToString(sum[:])
}

// Every migration step down restores exactly what the schema was before the step up: the
// baseline's down part removes all it made, and a migration after it that replaces a shipped
// function restores the shipped version (sql/released), grants included. Run over the embedded
// migrations with two more after them (the embedded ones may hold none after the baseline yet).
func TestMigrationsStepwiseReversible(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	set := dbtest.MigrationsWith(t, dbtest.LaterMigrations)
	versions := []int32{0}
	for v := set.Baseline(); v <= set.Latest(); v++ {
		versions = append(versions, v)
	}
	// At 0 the schema is there, holding the version table only.
	if _, err := set.To(ctx, conn, 0, migration.Options{}); err != nil {
		t.Fatal(err)
	}
	prints := map[int32]string{0: schemaFingerprint(t, conn)}
	for i, v := range versions[1:] {
		if _, err := set.To(ctx, conn, v, migration.Options{}); err != nil {
			t.Fatalf("up to %d: %v", v, err)
		}
		prints[v] = schemaFingerprint(t, conn)
		if prints[v] == prints[versions[i]] {
			t.Fatalf("migration %d changed nothing", v)
		}
	}
	for i := len(versions) - 2; i >= 0; i-- {
		v := versions[i]
		if _, err := set.To(ctx, conn, v, migration.Options{}); err != nil {
			t.Fatalf("down to %d: %v", v, err)
		}
		if got := schemaFingerprint(t, conn); got != prints[v] {
			t.Fatalf("down to %d: the schema differs from version %d on the way up", v, v)
		}
	}
}

// connectAt opens a connection to a fresh empty database migrated to version with set.
func connectAt(t *testing.T, url string, set *migration.Set, version int32) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := set.To(ctx, conn, version, migration.Options{}); err != nil {
		t.Fatal(err)
	}
	return conn
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// A step that needs a lock a long transaction holds gives up the wait after the lock timeout, so
// the readers queued behind its request wait no longer than that (issue 25: they waited for the
// whole transaction), is retried, and fails with 55P03 once its attempts are spent, leaving the
// version where it was. The down part of the first of dbtest.LaterMigrations drops a constraint of
// lifecycle.namespaces: ACCESS EXCLUSIVE, which one reader's ACCESS SHARE blocks.
func TestMigrationStepGivesUpAWaitAfterTheLockTimeout(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	set := dbtest.MigrationsWith(t, dbtest.LaterMigrations)
	constraint := set.Latest() - 1 // its down part drops a constraint of lifecycle.namespaces
	conn := connectAt(t, url, set, constraint)
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
	retries, err := set.To(ctx, conn, constraint-1, migration.Options{
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
	if current, _, err := nslifecycle.SchemaVersion(ctx, conn); err != nil || current != constraint {
		t.Fatalf("after the failed step: version %d (%v), want %d", current, err, constraint)
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
	if retries, err := set.To(ctx, conn, constraint-1, migration.Options{Log: quietLog()}); err != nil || retries != 0 {
		t.Fatalf("with the table free: %d retries, %v", retries, err)
	}
}

// A migration that runs outside a transaction and stops half way is finished by the retry,
// exactly: the concurrent build of dbtest.LaterMigrations waits for a writer's transaction, gives up after the lock timeout
// and leaves its new index INVALID; the next attempt drops it and builds it again. The schema
// ends as a migration without the writer leaves it.
func TestAConcurrentBuildCutShortIsRetriedToTheSameSchema(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	set := dbtest.MigrationsWith(t, dbtest.LaterMigrations)
	build := set.Latest() // the concurrent index build
	conn := connectAt(t, url, set, build-1)
	before := schemaFingerprint(t, conn)

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
		retries, err := set.To(ctx, conn, build, migration.Options{
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
		if err := watch.QueryRow(ctx, `select exists (select from pg_index where indexrelid = 'lifecycle.namespaces_test_name_idx'::regclass
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
	afterRetry := schemaFingerprint(t, conn)
	if _, err := set.To(ctx, conn, build-1, migration.Options{}); err != nil {
		t.Fatal(err)
	}
	if schemaFingerprint(t, conn) != before {
		t.Fatal("down again after the retried step: the schema differs from the one before it")
	}
	if _, err := set.To(ctx, conn, build, migration.Options{}); err != nil {
		t.Fatal(err)
	}
	if schemaFingerprint(t, conn) != afterRetry {
		t.Fatal("the retried step left another schema than a step without a writer in the way")
	}
}

// Migrators started at once on an empty database all succeed, one after the other: the ones that
// wait for the migration lock hold no snapshot while they wait, which a CREATE INDEX CONCURRENTLY
// of the running one (dbtest.LaterMigrations' index build) would wait for: every attempt of such a build timed
// out, and all but the last migrator failed.
func TestMigratorsStartedAtOnceAllSucceed(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	set := dbtest.MigrationsWith(t, dbtest.LaterMigrations)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close(ctx)
			_, err = set.To(ctx, conn, migration.Latest, migration.Options{Attempts: 3, Log: quietLog()})
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
	var current int32
	if err := conn.QueryRow(ctx, `select version from lifecycle.schema_version`).Scan(&current); err != nil || current != set.Latest() {
		t.Fatalf("after three migrators: version %d of %d (%v)", current, set.Latest(), err)
	}
}

// aclLines lists who may do what on every object of schema lifecycle, a line per object and
// grantee, each privilege named: grants compared by what they grant, not by the order they were
// made in (an object without grants has its owner's defaults).
func aclLines(t *testing.T, tx pgx.Tx) []string {
	t.Helper()
	rows, err := tx.Query(context.Background(), `
		with objs as (
		  select 'function ' || p.oid::regprocedure::text as obj, coalesce(p.proacl, acldefault('f'::"char", p.proowner)) as acl
		    from pg_proc p where p.pronamespace = 'lifecycle'::regnamespace
		  union all
		  select 'relation ' || c.oid::regclass::text, coalesce(c.relacl, acldefault(case when c.relkind = 'S' then 's'::"char" else 'r'::"char" end, c.relowner))
		    from pg_class c where c.relnamespace = 'lifecycle'::regnamespace and c.relkind in ('r', 'v', 'm', 'p', 'S') and c.relname <> 'schema_version'
		  union all
		  select 'column ' || c.oid::regclass::text || '.' || a.attname, a.attacl
		    from pg_class c join pg_attribute a on a.attrelid = c.oid
		   where c.relnamespace = 'lifecycle'::regnamespace and a.attacl is not null
		  union all
		  select 'schema lifecycle', coalesce(n.nspacl, acldefault('n'::"char", n.nspowner)) from pg_namespace n where n.nspname = 'lifecycle'
		)
		select o.obj || ' ' || case when x.grantee = 0 then 'public' else x.grantee::regrole::text end || ' ' || x.privilege_type
		  from objs o cross join lateral aclexplode(o.acl) x
		 order by 1`)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// sql/grants.sql says what each role may do as the migrations leave it: a database migrated to
// the newest version, all its grants to the three roles and its revocations from PUBLIC undone,
// then sql/grants.sql run, grants exactly what it granted before.
func TestTheGrantsFileGrantsWhatTheMigrationsGrant(t *testing.T) {
	ctx := context.Background()
	conn := connectAt(t, dbtest.EmptyDatabase(t), dbtest.MigrationsWith(t, nil), migration.Latest)
	grants, err := fs.ReadFile(nslifecycle.Migrations(), "grants.sql")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	migrated := aclLines(t, tx)
	if _, err := tx.Exec(ctx, `
		revoke all on all tables in schema lifecycle from lifecycle_app, lifecycle_worker, lifecycle_bridge;
		revoke all on all sequences in schema lifecycle from lifecycle_app, lifecycle_worker, lifecycle_bridge;
		revoke all on all routines in schema lifecycle from lifecycle_app, lifecycle_worker;
		-- lifecycle_bridge's own routines keep their owner's EXECUTE, which no grant gives back.
		do $$
		declare r regprocedure;
		begin
		  for r in select p.oid from pg_proc p
		            where p.pronamespace = 'lifecycle'::regnamespace and p.proowner <> 'lifecycle_bridge'::regrole loop
		    execute format('revoke all on routine %s from lifecycle_bridge', r);
		  end loop;
		end $$;
		revoke usage on schema lifecycle from lifecycle_app, lifecycle_worker, lifecycle_bridge;
		grant execute on all routines in schema lifecycle to public`); err != nil {
		t.Fatal(err)
	}
	if undone := aclLines(t, tx); len(lineDiff(migrated, undone)) == 0 {
		t.Fatal("undoing the grants changed nothing: the comparison would prove nothing")
	}
	if _, err := tx.Exec(ctx, string(grants)); err != nil {
		t.Fatalf("sql/grants.sql: %v", err)
	}
	if d := lineDiff(migrated, aclLines(t, tx)); d != "" {
		t.Fatalf("sql/grants.sql grants other than the migrations do (- the migrations', + the file's):\n%s", d)
	}
}

// A bridge installed before 070 wrote back as the schema's owner; from 070 its writes run as
// lifecycle_bridge, which the migration gives what each bridged table needs (the add functions do
// so for a bridge added later). A database at 69 with GitLab's projects bridged (archived, and the
// tree) goes to 70 and the bridge still writes back: an archive through the API sets the flag, a
// rename the path, as lifecycle_bridge.
func TestABridgeInstalledBeforeItsWritersMovedStillWritesBackAfterIt(t *testing.T) {
	ctx := context.Background()
	url := dbtest.EmptyDatabase(t)
	set := dbtest.MigrationsWith(t, nil)
	conn := connectAt(t, url, set, 69)
	if err := adopt.LoadGitLabStructure(ctx, conn, "legacy"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `
		select lifecycle.legacy_tree_bridge_add('legacy.namespaces', 'id', 'parent_id', 'path', 'name', 'visibility_level', 'type',
		  '{"Group": "group", "User": "user", "Project": "project"}', array['group', 'user'], 42, '{"organization_id": 1}');
		select lifecycle.legacy_tree_bridge_add('legacy.projects', 'project_namespace_id', 'namespace_id', 'path', 'name',
		  'visibility_level', null, '"project"', null, 42, '{"organization_id": 1}');
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 42);
		insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
		  values (1, 'acme', 'acme', null, 'Group', 20, 1, now(), now());
		insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
		  values (10, 'site', 'site', 1, 'Project', 20, 1, now(), now());
		insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id, created_at, updated_at)
		  values (100, 'site', 'site', 1, 10, 20, 1, now(), now())`); err != nil {
		t.Fatal(err)
	}
	var granted bool
	if err := conn.QueryRow(ctx, `select has_table_privilege('lifecycle_bridge', 'legacy.projects', 'UPDATE')`).Scan(&granted); err != nil || granted {
		t.Fatalf("lifecycle_bridge may write legacy.projects before 070 (%v, %v): the test would prove nothing", granted, err)
	}
	if _, err := set.To(ctx, conn, set.Latest(), migration.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `
		select * from lifecycle.namespace_rename(10, 'web', null);
		select * from lifecycle.namespace_event(10, 'archive', null)`); err != nil {
		t.Fatalf("the bridges after 070: %v", err)
	}
	var archived bool
	var path, writer string
	if err := conn.QueryRow(ctx, `select p.archived, p.path, (select proowner::regrole::text from pg_proc
		where oid = 'lifecycle.legacy_tree_write'::regproc) from legacy.projects p where p.id = 100`).Scan(&archived, &path, &writer); err != nil {
		t.Fatal(err)
	}
	if !archived || path != "web" || writer != "lifecycle_bridge" {
		t.Errorf("after 070: archived %v, path %q, the writer owned by %s; want true, web, lifecycle_bridge", archived, path, writer)
	}
}

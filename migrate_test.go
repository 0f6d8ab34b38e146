package nslifecycle_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

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
// functions (their full text), columns, constraints, indexes, triggers, relations and grants.
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
		  select 'rel ' || r.relname || ' ' || r.relkind::text || ' ' || coalesce(r.relacl::text, '') from rel r
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

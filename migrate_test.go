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

// Every migration step down and back up again leaves the same objects: each down undoes its up.
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
	counts := map[int32]int{0: lifecycleObjects(t, conn)}
	for v := int32(1); v <= latest; v++ {
		if err := nslifecycle.MigrateTo(ctx, conn, v); err != nil {
			t.Fatalf("up to %d: %v", v, err)
		}
		counts[v] = lifecycleObjects(t, conn)
	}
	for v := latest - 1; v >= 0; v-- {
		if err := nslifecycle.MigrateTo(ctx, conn, v); err != nil {
			t.Fatalf("down to %d: %v", v, err)
		}
		if n := lifecycleObjects(t, conn); n != counts[v] {
			t.Fatalf("down to %d: %d objects, on the way up %d", v, n, counts[v])
		}
	}
}

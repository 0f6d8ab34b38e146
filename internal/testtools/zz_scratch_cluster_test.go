package testtools

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestScratchCluster(t *testing.T) {
	t0 := time.Now()
	p := NewCluster(t)
	t.Logf("cluster up %s", time.Since(t0))
	u := p.CreateDatabase(t, "lc")
	t.Logf("migrated %s", time.Since(t0))
	s := p.Standby(t)
	t.Logf("standby %s", time.Since(t0))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	conn.Exec(ctx, "create table x (a int); insert into x values (1)")
	conn.Close(ctx)
	s.WaitReplayed(t, p)
	p.StopImmediate()
	s.Promote()
	conn, err = pgx.Connect(ctx, s.URL("lc"))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRow(ctx, "insert into x values (2) returning (select count(*) from x)").Scan(&n); err != nil {
		t.Fatal(err)
	}
	t.Logf("n=%d total %s", n, time.Since(t0))
}

package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkOrganizationMove times cmd/orgmove moving one organization of N namespaces between two
// private clusters, back and forth (each iteration one move, the whole command: connect, mark,
// export, copy, import and check, release). The organization: groups of 100 (a group and 99
// projects), every tenth project archived (a history row each), a member on every group. The
// figures in docs/scaling.md come from
//
//	go test -run '^$' -bench OrganizationMove -benchtime 4x -v ./cmd/orgmove/
func BenchmarkOrganizationMove(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			benchmarkMove(b, n)
		})
	}
}

func benchmarkMove(b *testing.B, n int) {
	ctx := context.Background()
	cells := [2]*cell{newCell(b, "cell_a", 1, 1_000_000_000_000), newCell(b, "cell_b", 1_000_000_000_001, 2_000_000_000_000)}
	groups := n / 100
	for _, s := range []string{
		`insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'big', 'Big')`,
		fmt.Sprintf(`insert into lifecycle.namespaces (parent_id, type, path, name)
		             select (select id from lifecycle.namespaces where path = 'big'), 'group', 'g' || i, 'G' || i from generate_series(1, %d) i`, groups),
		`insert into lifecycle.namespaces (parent_id, type, path, name)
		 select g.id, 'project', 'p' || i, 'P' || i from lifecycle.namespaces g, generate_series(1, 99) i where g.type = 'group'`,
		`insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
		 select id, 1000 + id % 50, 30 from lifecycle.namespaces where type = 'group'`,
		`update lifecycle.namespaces set state = 1 where type = 'project' and id % 10 = 0`,
		`select lifecycle.effective_states_refresh()`,
	} {
		exec1(b, cells[0].super, s)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from, to := cells[i%2], cells[(i+1)%2]
		var out syncBuffer
		t0 := time.Now()
		if s := runOrgmove(b, ctx, &out, "-from", from.work, "-to", to.work, "-path", "big", "-drain-timeout", "0"); s != 0 {
			b.Fatalf("orgmove exited %d\n%s", s, out.String())
		}
		took := time.Since(t0)
		// The log's steps: the target's transaction and the source's release (took=…).
		var steps []string
		for _, line := range strings.Split(out.String(), "\n") {
			if i := strings.Index(line, " took="); i >= 0 {
				steps = append(steps, strings.Fields(line[i:])[0])
			}
		}
		b.Logf("move %d: %d namespaces in %s (target %s)", i+1, n, took.Round(time.Millisecond), strings.Join(steps, ", source "))
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "namespaces/s")
}

// BenchmarkMembershipInsert is what organization_moving_guard costs a cluster that moves nothing:
// one membership INSERT per op, each its own transaction, as the application role, with the
// trigger and with it disabled (by the superuser, for that sub-benchmark only).
//
//	go test -run '^$' -bench MembershipInsert -benchtime 3000x ./cmd/orgmove/
func BenchmarkMembershipInsert(b *testing.B) {
	ctx := context.Background()
	c := newCell(b, "cell_a", 1, 1_000_000_000_000)
	exec1(b, c.super, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'acme', 'Acme')`)
	exec1(b, c.super, `insert into lifecycle.namespaces (parent_id, type, path, name)
	                   select (select id from lifecycle.namespaces where path = 'acme'), 'group', 'g' || i, 'G' || i from generate_series(1, 50) i`)
	app := connect(b, c.app)
	var groups []int64
	rows, err := app.Query(ctx, `select id from lifecycle.namespaces where type = 'group' order by id`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var g int64
		if err := rows.Scan(&g); err != nil {
			b.Fatal(err)
		}
		groups = append(groups, g)
	}
	user := int64(0)
	for _, guard := range []bool{false, true, false, true} {
		b.Run(fmt.Sprintf("guard=%v", guard), func(b *testing.B) {
			if !guard {
				exec1(b, c.super, `alter table lifecycle.namespace_members disable trigger namespace_members_moving`)
				defer exec1(b, c.super, `alter table lifecycle.namespace_members enable trigger namespace_members_moving`)
			}
			for i := 0; i < b.N; i++ {
				user++
				if _, err := app.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 30)`,
					groups[i%len(groups)], user); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

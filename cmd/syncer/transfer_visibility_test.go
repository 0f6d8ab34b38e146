package main

import (
	"encoding/json"
	"testing"
	"time"
)

// A transfer below a less visible parent lowers the moved subtree (docs/design.md §5) and the
// audit says so once: one visibility_changed row for the moved namespace, with the parent's
// visibility and how many namespaces were lowered, none for the descendants lowered with it.
func TestALoweringTransferIsAuditedOnceForTheMovedNamespace(t *testing.T) {
	e := newEnv(t)
	e.start()
	org := e.insert(nil, "organization", "vis")
	e.member(org, 41, 50)
	src := e.insert(&org, "group", "src")
	dst := e.insert(&org, "group", "dst")
	team := e.insert(&src, "group", "team")
	web := e.insert(&team, "project", "web")
	e.exec(`update lifecycle.namespaces set visibility = 'public' where id = any ($1)`, []int64{org, src, team, web})
	e.exec(`update lifecycle.namespaces set visibility = 'internal' where id = $1`, dst)
	e.caughtUp()

	if _, err := e.lc.RequestTransfer(e.ctx, team, dst, ptr(int64(41))); err != nil {
		t.Fatal(err)
	}
	e.eventually("the transfer completes", 60*time.Second, func() bool {
		var parent int64
		_ = e.pool.QueryRow(e.ctx, `select parent_id from lifecycle.namespaces where id = $1`, team).Scan(&parent)
		return parent == dst
	})
	e.caughtUp()

	type lowered struct {
		NS      int64
		Details map[string]any
	}
	rows, err := e.pool.Query(e.ctx, `select namespace_id, details from lifecycle.audit_events
		where action = 'visibility_changed' and namespace_id = any ($1) and details ->> 'reason' = 'transfer' order by id`,
		[]int64{team, web})
	if err != nil {
		t.Fatal(err)
	}
	var got []lowered
	for rows.Next() {
		var l lowered
		var raw []byte
		if err := rows.Scan(&l.NS, &raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &l.Details); err != nil {
			t.Fatal(err)
		}
		got = append(got, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].NS != team {
		t.Fatalf("visibility_changed rows for the move: %+v, want exactly one, for the moved group %d", got, team)
	}
	d := got[0].Details
	if d["from"] != "public" || d["to"] != "internal" || d["namespaces_lowered"] != float64(2) {
		t.Fatalf("details %v: want from public, to internal, namespaces_lowered 2", d)
	}
	var vis string
	if err := e.pool.QueryRow(e.ctx, `select visibility from lifecycle.namespaces where id = $1`, web).Scan(&vis); err != nil || vis != "internal" {
		t.Fatalf("the moved project is %q (%v), want internal", vis, err)
	}
}

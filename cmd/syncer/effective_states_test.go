package main

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// lifecycle.effective_states is kept by the syncer from the facts it records (docs/design.md §4):
// a table behind when the syncer starts is rebuilt; then, under concurrent archives, deletions
// scheduled and restored, renames, moves the syncer makes, deletions it carries out and new
// namespaces, with the syncer killed and restarted between them, the table ends equal to its
// definition (effective_states_verify empty).
func TestTheEffectiveStatesTableFollowsEveryChange(t *testing.T) {
	e := newEnv(t)
	const owner = int64(21)
	org := e.insert(nil, "organization", "kept")
	e.member(org, owner, 50)
	var groups, subgroups, projects []int64
	for g := range 6 {
		gid := e.insert(&org, "group", fmt.Sprintf("g%d", g))
		groups = append(groups, gid)
		for s := range 4 {
			sid := e.insert(&gid, "group", fmt.Sprintf("s%d", s))
			subgroups = append(subgroups, sid)
			for p := range 5 {
				projects = append(projects, e.insert(&sid, "project", fmt.Sprintf("p%d", p)))
			}
		}
	}
	// The table is behind before the syncer starts: rows missing, one extra, one wrong.
	e.exec(`delete from lifecycle.effective_states where namespace_id = any ($1)`, projects[:40])
	e.exec(`insert into lifecycle.effective_states values (-1, 'active', 'active', null, false, false, false, 'nowhere')`)
	e.exec(`update lifecycle.effective_states set effective_state = 'archived' where namespace_id = $1`, groups[0])
	e.start()
	e.verified("the table is rebuilt when the syncer starts")

	// Four clients change the tree for a while; the syncer is killed and restarted twice meanwhile.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex // moves and deletions pick from the groups: one at a time
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 7))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				switch k := r.IntN(20); {
				case k < 8: // archive or unarchive anything (refusals are fine: the state decides)
					all := [][]int64{groups, subgroups, projects}[r.IntN(3)]
					ns := all[r.IntN(len(all))]
					ev := []string{"archive", "unarchive", "schedule_deletion", "restore"}[r.IntN(4)]
					_, err = e.lc.Event(e.ctx, ns, ev, ptr(owner), nil)
				case k < 11: // rename a subgroup
					ns := subgroups[r.IntN(len(subgroups))]
					_, err = e.lc.Rename(e.ctx, ns, fmt.Sprintf("r%d-%d", c, i), ptr(owner))
				case k < 15: // a new project
					ns := subgroups[r.IntN(len(subgroups))]
					_, err = e.pool.Exec(e.ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', $2, $2)`,
						ns, fmt.Sprintf("n%d-%d", c, i))
				case k < 19: // move a subgroup to another group (the syncer moves it; a path taken there refuses it)
					mu.Lock()
					ns, to := subgroups[r.IntN(len(subgroups))], groups[r.IntN(len(groups))]
					mu.Unlock()
					_, err = e.lc.RequestTransfer(e.ctx, ns, to, ptr(owner))
				default: // delete a subgroup now (the syncer deletes it)
					mu.Lock()
					ns := subgroups[r.IntN(len(subgroups))]
					mu.Unlock()
					if _, err = e.lc.Event(e.ctx, ns, "schedule_deletion", ptr(owner), nil); err == nil {
						_, err = e.lc.Event(e.ctx, ns, "deletion_start", ptr(owner), nil)
					}
				}
				_ = err // refusals (NS001, NS002, NS003, NS004, NS006, NS008) are part of the churn
				time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
			}
		}()
	}
	for range 2 {
		time.Sleep(1500 * time.Millisecond)
		e.kill()
		e.start()
	}
	time.Sleep(1500 * time.Millisecond)
	close(stop)
	wg.Wait()

	var changes, moved, deleted int
	_ = e.pool.QueryRow(e.ctx, `select (select count(*) from lifecycle.namespace_state_updates),
		(select count(*) from lifecycle.transfer_requests where status = 'completed'),
		(select count(*) from lifecycle.deleted_namespaces)`).Scan(&changes, &moved, &deleted)
	t.Logf("%d state changes, %d moves, %d deletions", changes, moved, deleted)
	if changes < 50 {
		t.Fatalf("only %d state changes: the churn did not run", changes)
	}
	e.caughtUp()
	e.verified("the table follows every change")
}

// verified waits until lifecycle.effective_states equals its definition, and reports the rows
// that differ when it does not.
func (e *env) verified(what string) {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var n int
		if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.effective_states_verify()`).Scan(&n); err != nil {
			e.t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			rows, _ := e.pool.Query(e.ctx, `select namespace_id, problem from lifecycle.effective_states_verify() limit 10`)
			var lines []string
			for rows.Next() {
				var id int64
				var p string
				_ = rows.Scan(&id, &p)
				lines = append(lines, fmt.Sprintf("%d: %s", id, p))
			}
			e.t.Fatalf("%s: %d rows differ from the definition, first: %v", what, n, lines)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

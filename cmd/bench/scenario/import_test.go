package scenario

import (
	"testing"
	"time"
)

// The staged forest has the shape the import scenario promises: parents staged before their
// children, organizations as roots with groups > subgroups > projects below, every tree 4 to 6
// levels deep, nothing more visible than its parent, no project with children, and the shares of
// archived, scheduled and legacy-path namespaces, each state with a legacy date within 30 days
// (after the namespace's creation) and an actor.
func TestForestHasTheShapeOfAnImport(t *testing.T) {
	at := time.Now().UTC()
	f := NewForest(DefaultImportShape(20_000), at)
	if len(f.rows) != 20_000 || f.Organizations+f.Groups+f.Projects != 20_000 || f.Archived != 1000 || f.Scheduled != 400 || f.Legacy != 200 {
		t.Fatalf("%d rows: %+v", len(f.rows), *f)
	}
	if f.MinTreeDepth != 4 || f.MaxDepth != 6 || f.Projects < 3*f.Groups {
		t.Fatalf("trees %d–%d levels deep, %d groups and %d projects: want 4–6, mostly projects", f.MinTreeDepth, f.MaxDepth, f.Groups, f.Projects)
	}
	depth := map[int64]int8{}
	typ := map[int64]byte{}
	vis := map[int64]int8{}
	deepest := map[int8]bool{}
	states := map[int8]int{}
	for i, n := range f.rows {
		if n.id != int64(i+1) {
			t.Fatalf("row %d has id %d", i, n.id)
		}
		switch {
		case n.typ == 'o' && n.parent != 0, n.typ != 'o' && n.parent == 0:
			t.Fatalf("%c %d with parent %d", n.typ, n.id, n.parent)
		case n.parent != 0 && depth[n.parent] == 0:
			t.Fatalf("%d staged before its parent %d", n.id, n.parent)
		case n.parent != 0 && (typ[n.parent] == 'p' || n.depth != depth[n.parent]+1 || n.visibility > vis[n.parent]):
			t.Fatalf("%+v below %c at depth %d, visibility %d", n, typ[n.parent], depth[n.parent], vis[n.parent])
		case n.typ != 'o' && (n.depth > n.maxDepth || n.maxDepth < 4 || n.maxDepth > 6):
			t.Fatalf("%+v deeper than its tree", n)
		case n.state != stagedActive && (n.changed >= 30*86400 || n.changed >= n.created || n.actor == 0):
			t.Fatalf("%+v: a state without a legacy date within 30 days after its creation, or without an actor", n)
		}
		depth[n.id], typ[n.id], vis[n.id] = n.depth, n.typ, n.visibility
		states[n.state]++
		if n.typ == 'p' {
			deepest[n.depth] = true
		}
	}
	if states[stagedArchived] != f.Archived || states[stagedScheduled] != f.Scheduled || !deepest[4] || !deepest[5] || !deepest[6] {
		t.Fatalf("states %v, projects at depths %v", states, deepest)
	}
	row, _ := f.values(len(f.rows) - 1)
	if len(row) != len(importColumns) {
		t.Fatalf("a staged row has %d values for %d columns", len(row), len(importColumns))
	}
}

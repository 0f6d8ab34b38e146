// Package bench holds what make bench measures with (issue: benchmarks). This file is the data
// generator: a realistic hierarchy of namespaces loaded with COPY through every trigger (so the
// database is exactly as the API would leave it), reporting its own load time.
package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Shape is the hierarchy to generate.
type Shape struct {
	Namespaces    int     // in all, organizations included
	Organizations int     // roots
	MaxDepth      int     // deepest path (GitLab allows 20 levels)
	HeavyGroups   int     // groups given a heavy tail of descendants
	HeavyShare    float64 // share of all namespaces below the heavy groups
	Archived      float64 // share of projects archived
	Scheduled     float64 // share of projects scheduled for deletion
	Seed          uint64
}

// DefaultShape is 1M namespaces shaped like a large forge: a few organizations, groups nested up
// to depth 20, projects as leaves, a heavy tail (a few groups with 10k+ descendants), ~5% of
// projects archived and ~1% scheduled for deletion. Scale Namespaces down for quick runs.
func DefaultShape(n int) Shape {
	return Shape{Namespaces: n, Organizations: max(1, n/100_000), MaxDepth: 20, HeavyGroups: 3, HeavyShare: 0.3,
		Archived: 0.05, Scheduled: 0.01, Seed: 1}
}

// Loaded is what the generator made and how long it took.
type Loaded struct {
	Namespaces, Groups, Projects, Archived, Scheduled, Members int
	Depth                                                      int
	HeavyDescendants                                           []int // descendants of each heavy group
	LoadTime, StateTime                                        time.Duration
	Roots                                                      []int64
	Heavy                                                      []int64
}

type node struct {
	id, parent int64
	typ        string
	depth      int
}

// Generate builds the tree in memory (ids chosen here, so a parent always precedes its children),
// loads it level by level with COPY through the triggers, then archives and schedules projects
// through the gate, and adds an owner per organization and members below it. The database must be
// freshly migrated (ids start after the largest one present).
func Generate(ctx context.Context, pool *pgxpool.Pool, s Shape) (*Loaded, error) {
	r := rand.New(rand.NewPCG(s.Seed, s.Seed+1))
	var base int64
	if err := pool.QueryRow(ctx, `select coalesce(max(id), 0) from lifecycle.namespaces`).Scan(&base); err != nil {
		return nil, err
	}
	nodes := make([]node, 0, s.Namespaces)
	next := base
	add := func(parent int64, typ string, depth int) int64 {
		next++
		nodes = append(nodes, node{id: next, parent: parent, typ: typ, depth: depth})
		return next
	}
	out := &Loaded{}
	var groups []node
	for range s.Organizations {
		id := add(0, "organization", 1)
		out.Roots = append(out.Roots, id)
		groups = append(groups, nodes[len(nodes)-1])
	}
	// The heavy tail: a chain of groups, then a share of everything lands below them.
	for i := range s.HeavyGroups {
		g := add(out.Roots[i%len(out.Roots)], "group", 2)
		out.Heavy = append(out.Heavy, g)
		groups = append(groups, nodes[len(nodes)-1])
	}
	heavyBudget := int(float64(s.Namespaces) * s.HeavyShare)
	for len(nodes) < s.Namespaces {
		var parent node
		if heavyBudget > 0 && r.Float64() < s.HeavyShare {
			heavyBudget--
			// Below a heavy group: one of its descendant groups (or itself).
			h := out.Heavy[r.IntN(len(out.Heavy))]
			parent = pickBelow(r, groups, h, nodes)
		} else {
			parent = groups[r.IntN(len(groups))]
		}
		if parent.depth < s.MaxDepth-1 && r.IntN(4) == 0 {
			add(parent.id, "group", parent.depth+1)
			groups = append(groups, nodes[len(nodes)-1])
		} else if parent.depth < s.MaxDepth {
			add(parent.id, "project", parent.depth+1)
		}
	}

	start := time.Now()
	byDepth := map[int][][]any{}
	maxDepth := 0
	for _, n := range nodes {
		var parent any
		if n.parent != 0 {
			parent = n.parent
		}
		path := fmt.Sprintf("%c%d", n.typ[0], n.id)
		byDepth[n.depth] = append(byDepth[n.depth], []any{n.id, parent, n.typ, path, path})
		maxDepth = max(maxDepth, n.depth)
		switch n.typ {
		case "group":
			out.Groups++
		case "project":
			out.Projects++
		}
	}
	for d := 1; d <= maxDepth; d++ {
		if _, err := pool.CopyFrom(ctx, pgx.Identifier{"lifecycle", "namespaces"},
			[]string{"id", "parent_id", "type", "path", "name"}, pgx.CopyFromRows(byDepth[d])); err != nil {
			return nil, fmt.Errorf("copy depth %d: %w", d, err)
		}
	}
	if _, err := pool.Exec(ctx, `select setval(pg_get_serial_sequence('lifecycle.namespaces', 'id'), $1)`, next); err != nil {
		return nil, err
	}
	out.LoadTime = time.Since(start)
	out.Namespaces, out.Depth = len(nodes), maxDepth

	// Own states through the gate, on projects (leaves: no descendant, no ancestor with a state
	// yet), as the system; memberships: an owner per organization, members below.
	start = time.Now()
	var projects []int64
	for _, n := range nodes {
		if n.typ == "project" {
			projects = append(projects, n.id)
		}
	}
	r.Shuffle(len(projects), func(i, j int) { projects[i], projects[j] = projects[j], projects[i] })
	out.Archived = int(float64(len(projects)) * s.Archived)
	out.Scheduled = int(float64(len(projects)) * s.Scheduled)
	if _, err := pool.Exec(ctx, `update lifecycle.namespaces set state = 1 where id = any($1)`, projects[:out.Archived]); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	if _, err := pool.Exec(ctx, `update lifecycle.namespaces set state = 2 where id = any($1)`,
		projects[out.Archived:out.Archived+out.Scheduled]); err != nil {
		return nil, fmt.Errorf("schedule deletion: %w", err)
	}
	var members [][]any
	for i, root := range out.Roots {
		members = append(members, []any{root, int64(1 + i), int16(50)})
	}
	for i := 0; i < len(groups)/10; i++ {
		g := groups[r.IntN(len(groups))]
		members = append(members, []any{g.id, int64(1000 + r.IntN(5000)), int16(10 * (1 + r.IntN(5)))})
	}
	members = dedupeMembers(members)
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"lifecycle", "namespace_members"},
		[]string{"namespace_id", "user_id", "access_level"}, pgx.CopyFromRows(members)); err != nil {
		return nil, fmt.Errorf("members: %w", err)
	}
	out.Members = len(members)
	if _, err := pool.Exec(ctx, `analyze lifecycle.namespaces; analyze lifecycle.namespace_members; analyze lifecycle.namespace_details`); err != nil {
		return nil, err
	}
	out.StateTime = time.Since(start)

	for _, h := range out.Heavy {
		var n int
		if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces where $1 = any(traversal_ids) and id <> $1`, h).Scan(&n); err != nil {
			return nil, err
		}
		out.HeavyDescendants = append(out.HeavyDescendants, n)
	}
	return out, nil
}

// pickBelow returns a group at or below h: h itself, or a random group whose chain reaches h.
func pickBelow(r *rand.Rand, groups []node, h int64, nodes []node) node {
	parentOf := func(id int64) int64 { return nodes[id-nodes[0].id].parent }
	for range 8 {
		g := groups[r.IntN(len(groups))]
		for p := g.id; p != 0; p = parentOf(p) {
			if p == h {
				return g
			}
		}
	}
	return nodes[h-nodes[0].id]
}

func dedupeMembers(rows [][]any) [][]any {
	seen := map[[2]int64]bool{}
	out := rows[:0]
	for _, row := range rows {
		k := [2]int64{row[0].(int64), row[1].(int64)}
		if !seen[k] {
			seen[k] = true
			out = append(out, row)
		}
	}
	return out
}

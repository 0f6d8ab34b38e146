// Package bench is what make bench measures with (docs/benchmarks.md): a data generator, the
// scenarios with their baselines, and the report. This file is the data generator: a realistic
// hierarchy of namespaces loaded with COPY through every trigger (so the database is exactly as the
// API would leave it), or, for ten million, through the product's import, reporting its own load
// time, and the fixtures some scenarios add to it.
package scenario

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
	MaxDepth      int     // deepest path (GitLab allows 20 levels); one chain always reaches it
	HeavyGroups   int     // groups given a heavy tail of descendants
	HeavyShare    float64 // share of all namespaces below the heavy groups
	Archived      float64 // share of projects archived
	Scheduled     float64 // share of projects scheduled for deletion
	Seed          uint64
	// ByImport loads the tree through lifecycle.namespace_import_run instead of COPY through the
	// row triggers: about five times the rate (COPY gives 2,000–5,000 namespaces a second, an hour
	// for ten million). The rows are the same but for the creations' facts, which an import does
	// not send; states are set through the gate afterwards either way.
	ByImport bool
}

// DefaultShape is n namespaces shaped like a large forge: a few organizations, groups nested up
// to depth 20, projects as leaves, a heavy tail (a few groups with 10k+ descendants at 1M), ~5% of
// projects archived and ~1% scheduled for deletion.
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
	LoadedBy                                                   string // "copy" or "import"
	Roots                                                      []int64
	Heavy                                                      []int64
	Owners                                                     map[int64]int64 // root → its owner's user id
}

type node struct {
	id, parent int64
	typ        string
	depth      int
}

// tree is a batch of new namespaces with ids chosen here (a parent always precedes its children),
// loaded level by level with COPY.
type tree struct {
	nodes []node
	next  int64
}

// newTree starts a batch after the largest id present.
func newTree(ctx context.Context, pool *pgxpool.Pool) (*tree, error) {
	t := &tree{}
	err := pool.QueryRow(ctx, `select coalesce(max(id), 0) from lifecycle.namespaces`).Scan(&t.next)
	return t, err
}

func (t *tree) add(parent int64, typ string, depth int) node {
	t.next++
	n := node{id: t.next, parent: parent, typ: typ, depth: depth}
	t.nodes = append(t.nodes, n)
	return n
}

// row is a node as the columns (id, parent_id, type, path, name) of namespaces and of the import's
// staging table.
func (n node) row() []any {
	var parent any
	if n.parent != 0 {
		parent = n.parent
	}
	path := fmt.Sprintf("%c%d", n.typ[0], n.id)
	return []any{n.id, parent, n.typ, path, path}
}

var nodeColumns = []string{"id", "parent_id", "type", "path", "name"}

// load copies the batch in, one COPY per depth (every trigger fires: paths, traversal_ids, the
// gate, details rows, facts), then moves the identity past the ids used.
func (t *tree) load(ctx context.Context, pool *pgxpool.Pool) error {
	byDepth := map[int][]node{}
	maxDepth := 0
	for _, n := range t.nodes {
		byDepth[n.depth] = append(byDepth[n.depth], n)
		maxDepth = max(maxDepth, n.depth)
	}
	for d := 1; d <= maxDepth; d++ {
		nodes := byDepth[d]
		if len(nodes) == 0 {
			continue
		}
		if _, err := pool.CopyFrom(ctx, pgx.Identifier{"lifecycle", "namespaces"}, nodeColumns,
			pgx.CopyFromSlice(len(nodes), func(i int) ([]any, error) { return nodes[i].row(), nil })); err != nil {
			return fmt.Errorf("copy depth %d: %w", d, err)
		}
	}
	return t.moveIdentity(ctx, pool)
}

// loadByImport stages the batch in lifecycle.namespace_imports and imports it (CALL
// lifecycle.namespace_import_run, committing per batch), then moves the identity past the ids
// used. A row the import rejects fails the load.
func (t *tree) loadByImport(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"lifecycle", "namespace_imports"}, nodeColumns,
		pgx.CopyFromSlice(len(t.nodes), func(i int) ([]any, error) { return t.nodes[i].row(), nil })); err != nil {
		return fmt.Errorf("stage: %w", err)
	}
	var imported, rejected int64
	if err := conn.QueryRow(ctx, `call lifecycle.namespace_import_run(50000)`).Scan(&imported, &rejected); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if rejected > 0 || imported != int64(len(t.nodes)) {
		var reason string
		_ = conn.QueryRow(ctx, `select format('%s %s: %s', id, reject_code, reject_reason) from lifecycle.namespace_imports
			where reject_code is not null order by id limit 1`).Scan(&reason)
		return fmt.Errorf("import: %d of %d namespaces imported, %d rejected (first: %s)", imported, len(t.nodes), rejected, reason)
	}
	return t.moveIdentity(ctx, pool)
}

func (t *tree) moveIdentity(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `select setval(pg_get_serial_sequence('lifecycle.namespaces', 'id'), $1)`, t.next)
	return err
}

// Generate builds the tree in memory, loads it, then archives and schedules projects through the
// gate, and adds an owner per organization and members below it. Ids start after the largest one
// present.
func Generate(ctx context.Context, pool *pgxpool.Pool, s Shape) (*Loaded, error) {
	r := rand.New(rand.NewPCG(s.Seed, s.Seed+1))
	t, err := newTree(ctx, pool)
	if err != nil {
		return nil, err
	}
	first := t.next + 1
	out := &Loaded{Owners: map[int64]int64{}}
	var groups []node
	for range s.Organizations {
		g := t.add(0, "organization", 1)
		out.Roots = append(out.Roots, g.id)
		groups = append(groups, g)
	}
	// The heavy tail: a few groups, below which a share of everything lands.
	for i := range s.HeavyGroups {
		g := t.add(out.Roots[i%len(out.Roots)], "group", 2)
		out.Heavy = append(out.Heavy, g.id)
		groups = append(groups, g)
	}
	// One chain of groups down to the deepest level allowed, so every depth has namespaces.
	parent := t.nodes[0]
	for d := 2; d < s.MaxDepth; d++ {
		parent = t.add(parent.id, "group", d)
		groups = append(groups, parent)
	}
	t.add(parent.id, "project", s.MaxDepth)

	nodeOf := func(id int64) node { return t.nodes[id-first] }
	heavyBudget := int(float64(s.Namespaces) * s.HeavyShare)
	for len(t.nodes) < s.Namespaces {
		var parent node
		if heavyBudget > 0 && r.Float64() < s.HeavyShare {
			heavyBudget--
			parent = pickBelow(r, groups, out.Heavy[r.IntN(len(out.Heavy))], nodeOf)
		} else {
			parent = groups[r.IntN(len(groups))]
		}
		if parent.depth < s.MaxDepth-1 && r.IntN(4) == 0 {
			groups = append(groups, t.add(parent.id, "group", parent.depth+1))
		} else if parent.depth < s.MaxDepth {
			t.add(parent.id, "project", parent.depth+1)
		}
	}

	start := time.Now()
	load := t.load
	out.LoadedBy = "copy"
	if s.ByImport {
		load, out.LoadedBy = t.loadByImport, "import"
	}
	if err := load(ctx, pool); err != nil {
		return nil, err
	}
	out.LoadTime = time.Since(start)
	for _, n := range t.nodes {
		switch n.typ {
		case "group":
			out.Groups++
		case "project":
			out.Projects++
		}
		out.Depth = max(out.Depth, n.depth)
	}
	out.Namespaces = len(t.nodes)

	// Own states through the gate, on projects (leaves: no descendant, no ancestor with a state
	// yet), as the system; memberships: an owner per organization, members below.
	start = time.Now()
	var projects []int64
	for _, n := range t.nodes {
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
	// Statistics that show the own states just written: planned as if the partial indexes of own
	// states were empty, each scheduling's descendant guard read every archived namespace (at 10M,
	// 350k of them per row).
	if _, err := pool.Exec(ctx, `analyze lifecycle.namespaces`); err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if _, err := pool.Exec(ctx, `update lifecycle.namespaces set state = 2 where id = any($1)`,
		projects[out.Archived:out.Archived+out.Scheduled]); err != nil {
		return nil, fmt.Errorf("schedule deletion: %w", err)
	}
	var members [][]any
	for i, root := range out.Roots {
		out.Owners[root] = int64(1 + i)
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
	if err := analyze(ctx, pool); err != nil {
		return nil, err
	}
	out.StateTime = time.Since(start)

	return out, out.countHeavy(ctx, pool)
}

// Subtrees loads count subtrees below parent, each size namespaces in all (its root included): a
// group with nested subgroups of up to fanout children and projects as leaves, or, for size 1, a
// single project. Returns their roots.
func Subtrees(ctx context.Context, pool *pgxpool.Pool, parent int64, parentDepth, count, size, fanout int) ([]int64, error) {
	t, err := newTree(ctx, pool)
	if err != nil {
		return nil, err
	}
	roots := make([]int64, 0, count)
	for range count {
		roots = append(roots, t.subtree(parent, parentDepth, size, fanout))
	}
	return roots, t.load(ctx, pool)
}

// Subtree is Subtrees for one.
func Subtree(ctx context.Context, pool *pgxpool.Pool, parent int64, parentDepth, size, fanout int) (int64, error) {
	roots, err := Subtrees(ctx, pool, parent, parentDepth, 1, size, fanout)
	if err != nil {
		return 0, err
	}
	return roots[0], nil
}

func (t *tree) subtree(parent int64, parentDepth, size, fanout int) int64 {
	if size == 1 {
		return t.add(parent, "project", parentDepth+1).id
	}
	root := t.add(parent, "group", parentDepth+1)
	// Breadth first: each group takes up to fanout children; a child is a group while what is left
	// needs another level below it, else a project.
	queue := []node{root}
	for left := size - 1; left > 0; {
		g := queue[0]
		queue = queue[1:]
		for i := 0; i < fanout && left > 0; i++ {
			if left > fanout*(len(queue)+1) {
				queue = append(queue, t.add(g.id, "group", g.depth+1))
			} else {
				t.add(g.id, "project", g.depth+1)
			}
			left--
		}
		if len(queue) == 0 && left > 0 {
			queue = append(queue, t.add(g.id, "group", g.depth+1))
			left--
		}
	}
	return root.id
}

// Existing describes a hierarchy a previous run generated (bench -reuse): its organizations and
// their owners, and its heaviest groups. Load times are unknown (zero).
func Existing(ctx context.Context, pool *pgxpool.Pool) (*Loaded, error) {
	out := &Loaded{Owners: map[int64]int64{}}
	err := pool.QueryRow(ctx, `select count(*), count(*) filter (where type = 'group'), count(*) filter (where type = 'project'),
			count(*) filter (where state = 1), count(*) filter (where state = 2), coalesce(max(cardinality(traversal_ids)), 0),
			(select count(*) from lifecycle.namespace_members)
		from lifecycle.namespaces`).Scan(&out.Namespaces, &out.Groups, &out.Projects, &out.Archived, &out.Scheduled, &out.Depth, &out.Members)
	if err != nil || out.Namespaces == 0 {
		return nil, fmt.Errorf("no hierarchy to reuse (%v)", err)
	}
	rows, err := pool.Query(ctx, `select n.id, m.user_id from lifecycle.namespaces n
		join lifecycle.namespace_members m on m.namespace_id = n.id and m.access_level = 50
		where n.parent_id is null and n.path ~ '^o[0-9]+$' order by n.id`)
	if err != nil {
		return nil, err
	}
	var root, owner int64
	if _, err := pgx.ForEachRow(rows, []any{&root, &owner}, func() error {
		out.Roots = append(out.Roots, root)
		out.Owners[root] = owner
		return nil
	}); err != nil {
		return nil, err
	}
	// The heavy groups are the generator's first groups at depth 2.
	rows, err = pool.Query(ctx, `select id from lifecycle.namespaces where type = 'group' and cardinality(traversal_ids) = 2
		order by id limit 3`)
	if err != nil {
		return nil, err
	}
	if out.Heavy, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
		return nil, err
	}
	return out, out.countHeavy(ctx, pool)
}

// countHeavy counts the descendants of each heavy group.
func (l *Loaded) countHeavy(ctx context.Context, pool *pgxpool.Pool) error {
	for _, h := range l.Heavy {
		n, err := descendants(ctx, pool, h)
		if err != nil {
			return err
		}
		l.HeavyDescendants = append(l.HeavyDescendants, n)
	}
	return nil
}

func analyze(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `analyze lifecycle.namespaces; analyze lifecycle.namespace_members; analyze lifecycle.namespace_details`)
	return err
}

// descendants counts a namespace's descendants (a range of the traversal_ids index).
func descendants(ctx context.Context, pool *pgxpool.Pool, id int64) (int, error) {
	var n int
	err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces d, lifecycle.namespaces n
		where n.id = $1 and d.traversal_ids > n.traversal_ids
		  and d.traversal_ids < n.traversal_ids[1:cardinality(n.traversal_ids) - 1] || (n.traversal_ids[cardinality(n.traversal_ids)] + 1)`,
		id).Scan(&n)
	return n, err
}

// pickBelow returns a group at or below h: a random group whose chain reaches h, else h itself.
func pickBelow(r *rand.Rand, groups []node, h int64, nodeOf func(int64) node) node {
	for range 8 {
		g := groups[r.IntN(len(groups))]
		for p := g.id; p != 0; p = nodeOf(p).parent {
			if p == h {
				return g
			}
		}
	}
	return nodeOf(h)
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

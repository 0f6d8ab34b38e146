package scenario

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/migration"
)

// ImportResult is the bulk import of a staged forest (CALL lifecycle.namespace_import_run) into a
// freshly migrated database, round by round, against its floor: the same final rows INSERT …
// SELECT-ed into a copy of lifecycle.namespaces with the same indexes and no trigger.
type ImportResult struct {
	Namespaces    int `json:"namespaces"`
	Organizations int `json:"organizations"`
	Groups        int `json:"groups"`
	Projects      int `json:"projects"`
	Archived      int `json:"archived"`
	Scheduled     int `json:"scheduled"`
	LegacyPaths   int `json:"legacy_paths"`
	MinTreeDepth  int `json:"min_tree_depth"`
	MaxDepth      int `json:"max_depth"`
	Batch         int `json:"batch_size"`

	Rounds []ImportRound `json:"rounds"`
	// Medians over the rounds.
	StageSeconds       float64 `json:"stage_seconds"`
	Seconds            float64 `json:"seconds"`
	RowsPerSecond      float64 `json:"rows_per_second"`
	FloorSeconds       float64 `json:"floor_seconds"`
	FloorRowsPerSecond float64 `json:"floor_rows_per_second"`
	Ratio              float64 `json:"ratio"` // RowsPerSecond / FloorRowsPerSecond
}

// ImportRound is one round: the staging (not counted), the import with its phases as its
// progress notices tell them, and the floor.
type ImportRound struct {
	StageSeconds   float64 `json:"stage_seconds"`   // COPY into lifecycle.namespace_imports
	Seconds        float64 `json:"seconds"`         // the CALL, prepare to finish
	PrepareSeconds float64 `json:"prepare_seconds"` // until its "rows queued" notice
	FinishSeconds  float64 `json:"finish_seconds"`  // after its last batch's notice
	Batches        int     `json:"batches"`
	FloorSeconds   float64 `json:"floor_seconds"`
	CheckSeconds   float64 `json:"check_seconds"` // check_invariants and the counts, not counted
}

// ImportShape is the forest an importer stages: organizations > groups > subgroups > projects,
// each tree below a top-level group 4 to 6 levels deep, with shares of the namespaces archived and
// scheduled for deletion (legacy dates over the last 30 days, and actors) and of legacy mixed-case
// paths (which the import normalises).
type ImportShape struct {
	Namespaces  int
	Archived    float64
	Scheduled   float64
	LegacyPaths float64
	Seed        uint64
}

// DefaultImportShape is n namespaces: an organization per 50k, 5% archived, 2% scheduled for
// deletion, 1% legacy paths.
func DefaultImportShape(n int) ImportShape {
	return ImportShape{Namespaces: n, Archived: 0.05, Scheduled: 0.02, LegacyPaths: 0.01, Seed: 2}
}

// Staged namespace states.
const (
	stagedActive = iota
	stagedArchived
	stagedScheduled
)

var stagedStateNames = [...]string{"active", "archived", "deletion_scheduled"}
var visibilityNames = [...]string{"private", "internal", "public"}

// stagedNamespace is one row of lifecycle.namespace_imports, compact (a million are held).
type stagedNamespace struct {
	id, parent int64
	typ        byte // 'o', 'g', 'p'
	depth      int8
	maxDepth   int8 // of the tree below its top-level group
	visibility int8 // index of visibilityNames
	state      int8
	legacy     bool
	created    int32 // seconds before the forest's time
	changed    int32 // seconds before it, for a state other than active
	actor      int32
}

// Forest is a staged forest: its rows (parents before children, ids from 1) and their counts.
type Forest struct {
	rows                                                         []stagedNamespace
	at                                                           time.Time
	Organizations, Groups, Projects, Archived, Scheduled, Legacy int
	MinTreeDepth, MaxDepth                                       int
}

// NewForest builds the shape in memory. Ids are given in creation order, so a parent's id is
// smaller than its children's, as an application's would mostly be.
func NewForest(s ImportShape, at time.Time) *Forest {
	r := rand.New(rand.NewPCG(s.Seed, s.Seed+1))
	f := &Forest{at: at, rows: make([]stagedNamespace, 0, s.Namespaces), MinTreeDepth: 1 << 30}
	add := func(parent int, typ byte, maxDepth int8) int {
		n := stagedNamespace{id: int64(len(f.rows) + 1), typ: typ, depth: 1, maxDepth: maxDepth, visibility: 2,
			created: int32(30*86400 + r.IntN(3*365*86400))}
		if parent >= 0 {
			p := f.rows[parent]
			n.parent, n.depth = p.id, p.depth+1
			// Mostly as visible as the parent, else anything up to it.
			if n.visibility = p.visibility; r.IntN(5) == 0 {
				n.visibility = int8(r.IntN(int(p.visibility) + 1))
			}
		}
		f.rows = append(f.rows, n)
		return len(f.rows) - 1
	}
	orgs := make([]int, max(1, s.Namespaces/50_000))
	for i := range orgs {
		orgs[i] = add(-1, 'o', 0)
	}
	var groups []int // rows that can take children
	// A top-level group with a chain of subgroups down to its tree's depth, a project at the bottom.
	top := func(org int) {
		depth := int8(4 + r.IntN(3))
		g := add(org, 'g', depth)
		groups = append(groups, g)
		for d := int8(3); d < depth; d++ {
			g = add(g, 'g', depth)
			groups = append(groups, g)
		}
		add(g, 'p', depth)
		f.MinTreeDepth, f.MaxDepth = min(f.MinTreeDepth, int(depth)), max(f.MaxDepth, int(depth))
	}
	for _, o := range orgs {
		top(o)
	}
	for len(f.rows) < s.Namespaces {
		if r.IntN(60) == 0 && len(f.rows)+6 <= s.Namespaces {
			top(orgs[r.IntN(len(orgs))])
			continue
		}
		g := groups[r.IntN(len(groups))]
		if p := f.rows[g]; p.depth < p.maxDepth-1 && r.IntN(10) < 3 {
			groups = append(groups, add(g, 'g', p.maxDepth))
		} else {
			add(g, 'p', p.maxDepth)
		}
	}
	// States, legacy dates and actors on groups and projects chosen at random; legacy paths likewise.
	var pick []int
	for i, n := range f.rows {
		switch n.typ {
		case 'o':
			f.Organizations++
		case 'g':
			f.Groups++
			pick = append(pick, i)
		case 'p':
			f.Projects++
			pick = append(pick, i)
		}
	}
	r.Shuffle(len(pick), func(i, j int) { pick[i], pick[j] = pick[j], pick[i] })
	f.Archived, f.Scheduled = int(float64(s.Namespaces)*s.Archived), int(float64(s.Namespaces)*s.Scheduled)
	for k, i := range pick[:f.Archived+f.Scheduled] {
		n := &f.rows[i]
		n.state = stagedArchived
		if k >= f.Archived {
			n.state = stagedScheduled
		}
		n.changed = int32(r.IntN(30 * 86400))
		n.actor = int32(1000 + r.IntN(5000))
	}
	r.Shuffle(len(pick), func(i, j int) { pick[i], pick[j] = pick[j], pick[i] })
	f.Legacy = int(float64(s.Namespaces) * s.LegacyPaths)
	for _, i := range pick[:f.Legacy] {
		f.rows[i].legacy = true
	}
	return f
}

func (n *stagedNamespace) typeName() string {
	switch n.typ {
	case 'o':
		return "organization"
	case 'g':
		return "group"
	}
	return "project"
}

func (n *stagedNamespace) path() string {
	switch {
	case n.typ == 'o':
		return fmt.Sprintf("org-%d", n.id)
	case n.legacy && n.typ == 'g':
		return fmt.Sprintf("Team-%d", n.id)
	case n.legacy:
		return fmt.Sprintf("Svc-%d", n.id)
	case n.typ == 'g':
		return fmt.Sprintf("team-%d", n.id)
	}
	return fmt.Sprintf("svc-%d", n.id)
}

var importColumns = []string{"id", "parent_id", "type", "path", "name", "visibility", "state", "state_changed_at",
	"state_changed_by", "created_at"}

// values is the row as COPY sends it.
func (f *Forest) values(i int) ([]any, error) {
	n := &f.rows[i]
	var parent, changedAt, changedBy any
	if n.parent != 0 {
		parent = n.parent
	}
	if n.state != stagedActive {
		changedAt, changedBy = f.at.Add(-time.Duration(n.changed)*time.Second), int64(n.actor)
	}
	typ := n.typeName()
	return []any{n.id, parent, typ, n.path(), fmt.Sprintf("%s %d", strings.ToUpper(typ[:1])+typ[1:], n.id),
		visibilityNames[n.visibility], stagedStateNames[n.state], changedAt, changedBy,
		f.at.Add(-time.Duration(n.created) * time.Second)}, nil
}

// Stage copies the forest into lifecycle.namespace_imports.
func (f *Forest) Stage(ctx context.Context, conn *pgx.Conn) error {
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"lifecycle", "namespace_imports"}, importColumns,
		pgx.CopyFromSlice(len(f.rows), f.values))
	if err == nil && int(n) != len(f.rows) {
		err = fmt.Errorf("staged %d rows of %d", n, len(f.rows))
	}
	return err
}

// runImport stages a forest of the run's size and imports it, each round into a database of its
// own, freshly migrated (an adoption's import lands in an empty schema; the bench database and its
// hierarchy stay untouched): the rows COPY-ed into lifecycle.namespace_imports (timed apart), then
// CALL lifecycle.namespace_import_run(batch) as lifecycle_worker, timed, then checked (every row
// imported, none rejected, states and history as staged, check_invariants empty), then the floor:
// the same final rows INSERT … SELECT-ed into a copy of lifecycle.namespaces made with LIKE …
// INCLUDING ALL (the same indexes, no trigger, no foreign key).
func runImport(ctx context.Context, e *env) error {
	forest := NewForest(DefaultImportShape(e.cfg.Namespaces), time.Now().UTC().Truncate(time.Second))
	res := &ImportResult{Namespaces: len(forest.rows), Organizations: forest.Organizations, Groups: forest.Groups,
		Projects: forest.Projects, Archived: forest.Archived, Scheduled: forest.Scheduled, LegacyPaths: forest.Legacy,
		MinTreeDepth: forest.MinTreeDepth, MaxDepth: forest.MaxDepth, Batch: e.cfg.ImportBatch}
	var bench string
	if err := e.pool.QueryRow(ctx, `select current_database()`).Scan(&bench); err != nil {
		return err
	}
	name := bench + "_import"
	for round := range e.cfg.Rounds {
		r, err := e.importRound(ctx, name, forest)
		if err != nil {
			return fmt.Errorf("round %d: %w", round+1, err)
		}
		res.Rounds = append(res.Rounds, *r)
		e.log.Info("import", "round", round+1, "namespaces", res.Namespaces, "seconds", r.Seconds, "batches", r.Batches,
			"rows_per_second", int(float64(res.Namespaces)/r.Seconds), "floor_seconds", r.FloorSeconds,
			"floor_rows_per_second", int(float64(res.Namespaces)/r.FloorSeconds), "stage_seconds", r.StageSeconds,
			"check_seconds", r.CheckSeconds)
	}
	var stage, imp, floor, rate, floorRate []float64
	for _, r := range res.Rounds {
		stage, imp, floor = append(stage, r.StageSeconds), append(imp, r.Seconds), append(floor, r.FloorSeconds)
		rate, floorRate = append(rate, float64(res.Namespaces)/r.Seconds), append(floorRate, float64(res.Namespaces)/r.FloorSeconds)
	}
	res.StageSeconds, res.Seconds, res.FloorSeconds = round3(median(stage)), round3(median(imp)), round3(median(floor))
	res.RowsPerSecond, res.FloorRowsPerSecond = round3(median(rate)), round3(median(floorRate))
	res.Ratio = ratio(res.RowsPerSecond, res.FloorRowsPerSecond)
	e.res.Import = res
	return nil
}

// importRound is one round in a database made for it, dropped afterwards.
func (e *env) importRound(ctx context.Context, name string, forest *Forest) (*ImportRound, error) {
	db := pgx.Identifier{name}.Sanitize()
	drop := func() error {
		_, err := e.pool.Exec(context.WithoutCancel(ctx), `drop database if exists `+db+` with (force)`)
		return err
	}
	if err := drop(); err != nil {
		return nil, err
	}
	if _, err := e.pool.Exec(ctx, `create database `+db); err != nil {
		return nil, err
	}
	defer drop()
	cfg, err := pgx.ParseConfig(e.cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	cfg.Database = name
	cfg.RuntimeParams["search_path"] = ""
	cfg.RuntimeParams["application_name"] = "nslifecycle-bench"
	// The import's progress notices, with the time each arrived: the phases of the CALL.
	var mu sync.Mutex
	var notices []string
	var noticed []time.Time
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		mu.Lock()
		notices, noticed = append(notices, n.Message), append(noticed, time.Now())
		mu.Unlock()
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := migration.To(ctx, conn, migration.Latest, migration.Options{}); err != nil {
		return nil, err
	}
	r := &ImportRound{}
	start := time.Now()
	if err := forest.Stage(ctx, conn); err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	r.StageSeconds = round3(time.Since(start).Seconds())

	if _, err := conn.Exec(ctx, `checkpoint`); err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `set role lifecycle_worker`); err != nil {
		return nil, err
	}
	mu.Lock()
	notices, noticed = nil, nil
	mu.Unlock()
	var imported, rejected int64
	start = time.Now()
	if err := conn.QueryRow(ctx, `call lifecycle.namespace_import_run($1)`, e.cfg.ImportBatch).Scan(&imported, &rejected); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	end := time.Now()
	r.Seconds = round3(end.Sub(start).Seconds())
	mu.Lock()
	var lastBatch time.Time
	for i, m := range notices {
		switch {
		case strings.HasSuffix(m, "rows queued"):
			r.PrepareSeconds = round3(noticed[i].Sub(start).Seconds())
		case strings.HasPrefix(m, "import: batch "):
			r.Batches++
			lastBatch = noticed[i]
		}
	}
	mu.Unlock()
	if !lastBatch.IsZero() {
		r.FinishSeconds = round3(end.Sub(lastBatch).Seconds())
	}
	if _, err := conn.Exec(ctx, `reset role`); err != nil {
		return nil, err
	}

	start = time.Now()
	if err := forest.check(ctx, conn, imported, rejected); err != nil {
		return nil, err
	}
	r.CheckSeconds = round3(time.Since(start).Seconds())

	if _, err := conn.Exec(ctx, `create schema lifecycle_bench;
		create table lifecycle_bench.import_floor (like lifecycle.namespaces including all); checkpoint`); err != nil {
		return nil, err
	}
	start = time.Now()
	tag, err := conn.Exec(ctx, `insert into lifecycle_bench.import_floor select * from lifecycle.namespaces`)
	if err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	r.FloorSeconds = round3(time.Since(start).Seconds())
	if int(tag.RowsAffected()) != len(forest.rows) {
		return nil, fmt.Errorf("floor: %d rows inserted of %d", tag.RowsAffected(), len(forest.rows))
	}
	return r, conn.Close(ctx)
}

// check fails unless every staged row was imported as staged: none rejected or left staged, the
// states, history rows and details rows counted as the forest has them, the legacy paths
// normalised, and check_invariants empty.
func (f *Forest) check(ctx context.Context, conn *pgx.Conn, imported, rejected int64) error {
	var left int
	var why string
	if err := conn.QueryRow(ctx, `select count(*), coalesce(min(reject_code || ' ' || reject_reason), '')
		from lifecycle.namespace_imports`).Scan(&left, &why); err != nil {
		return err
	}
	if imported != int64(len(f.rows)) || rejected != 0 || left != 0 {
		return fmt.Errorf("import: %d imported and %d rejected of %d staged, %d left staged (%s)", imported, rejected, len(f.rows), left, why)
	}
	var n, archived, scheduled, history, details, upper, depth int
	if err := conn.QueryRow(ctx, `select count(*), count(*) filter (where state = 1), count(*) filter (where state = 2),
			(select count(*) from lifecycle.namespace_state_updates where source = 'import'),
			(select count(*) from lifecycle.namespace_details), count(*) filter (where path ~ '[A-Z]'),
			coalesce(max(cardinality(traversal_ids)), 0)
		from lifecycle.namespaces`).Scan(&n, &archived, &scheduled, &history, &details, &upper, &depth); err != nil {
		return err
	}
	if n != len(f.rows) || archived != f.Archived || scheduled != f.Scheduled || history != f.Archived+f.Scheduled ||
		details != n || upper != 0 || depth != f.MaxDepth {
		return fmt.Errorf("after the import: %d namespaces (%d archived, %d scheduled, %d history rows, %d details rows, "+
			"%d paths not normalised, depth %d), want %d (%d, %d, %d, %d, 0, %d)", n, archived, scheduled, history, details,
			upper, depth, len(f.rows), f.Archived, f.Scheduled, f.Archived+f.Scheduled, len(f.rows), f.MaxDepth)
	}
	rows, err := conn.Query(ctx, `select namespace_id, invariant, reason from lifecycle.check_invariants() limit 5`)
	if err != nil {
		return err
	}
	var violations []string
	var id int64
	var inv, reason string
	if _, err := pgx.ForEachRow(rows, []any{&id, &inv, &reason}, func() error {
		violations = append(violations, fmt.Sprintf("%d %s: %s", id, inv, reason))
		return nil
	}); err != nil {
		return err
	}
	if len(violations) > 0 {
		return fmt.Errorf("check_invariants after the import: %s", strings.Join(violations, "; "))
	}
	return nil
}

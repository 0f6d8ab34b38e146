// Package verdicts_test holds the test that puts the same candidate namespaces through the
// application's INSERT (and the state API) and through the import, on two clones of one database,
// and compares what each decides and writes: the creation rules exist in the triggers and again,
// set-based, in lifecycle.namespace_import_batch, and this is what keeps the two forms agreeing
// (docs/adoption.md §4, Verdicts). It has no code of its own.
package verdicts_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// The same candidate namespaces, put through the application's way in (INSERT into
// lifecycle.namespaces, then the state API for a state no INSERT may give) on one clone of a
// database and through the import (lifecycle.namespace_imports, namespace_import_apply) on another,
// get the same verdict (accepted, or the same NS code) and, when accepted, the same rows: the
// namespace, its details, its history, its redirects. Where the import is documented to differ
// (docs/design.md §10.1, docs/adoption.md §4), the difference is one of the named entries of
// verdictDifferences or of the per-column expectations in compareRows; anything else fails, row
// by row and column by column.
//
// The candidates: a fixed table of edge cases (every rejection of the import's verdict table, and
// the cases where the two ways are documented to differ) and random trees from a printed seed
// (VERDICTS_SEED=<seed> repeats a run; VERDICTS_ROWS sets how many).
func TestTheImportAndInsertGiveTheSameVerdictsAndRows(t *testing.T) {
	ctx := context.Background()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("VERDICTS_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("VERDICTS_SEED=%q: %v", s, err)
		}
		seed = v
	}
	size := 1200
	if s := os.Getenv("VERDICTS_ROWS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("VERDICTS_ROWS=%q: %v", s, err)
		}
		size = v
	}
	t.Logf("seed %d (VERDICTS_SEED=%d repeats this run), %d random candidates", seed, seed, size)

	insURL, insOwner := dbtest.NewDatabasePool(t)
	impURL, impOwner := dbtest.NewDatabasePool(t)
	for _, owner := range []*pgxpool.Pool{insOwner, impOwner} {
		if err := buildBase(ctx, owner); err != nil {
			t.Fatalf("the namespaces both databases start with: %v", err)
		}
	}
	// The application never chooses an id (only the schema's owner may); to compare row by row, the
	// identity sequence is set to the candidate's id before its INSERT, in the same pipeline, by this
	// function of the test's own (the owner's: setval needs the sequence's UPDATE privilege).
	if _, err := insOwner.Exec(ctx, `
		create schema verdicts_test;
		create function verdicts_test.next_id(id bigint) returns bigint language sql security definer set search_path to ''
		  return pg_catalog.setval('lifecycle.namespaces_id_seq', id, false);
		grant usage on schema verdicts_test to lifecycle_app, lifecycle_worker;
		grant execute on function verdicts_test.next_id(bigint) to lifecycle_app, lifecycle_worker`); err != nil {
		t.Fatal(err)
	}
	r, err := readRules(ctx, insOwner)
	if err != nil {
		t.Fatal(err)
	}
	cands := append(edgeCases(), randomCandidates(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), size)...)
	var start time.Time
	if err := insOwner.QueryRow(ctx, `select pg_catalog.clock_timestamp()`).Scan(&start); err != nil {
		t.Fatal(err)
	}

	// The import first, as a worker login, as an operator runs it: the paths it gives legacy
	// paths are what the application's INSERT is retried with (below).
	began := time.Now()
	imp := runImport(ctx, t, pool(t, dbtest.LoginAs(t, impURL, "lifecycle_worker")), impOwner, cands)
	importTook := time.Since(began)
	began = time.Now()
	ins := &inserter{
		owner:  insOwner,
		app:    pool(t, dbtest.LoginAs(t, insURL, "lifecycle_app")),
		worker: pool(t, dbtest.LoginAs(t, insURL, "lifecycle_worker")),
		rules:  r,
		cands:  cands,
		final:  imp.final,
		res:    map[int64]*insVerdict{},
	}
	if err := ins.run(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("import %v, INSERTs and state calls %v for %d candidates", importTook.Round(time.Millisecond),
		time.Since(began).Round(time.Millisecond), len(cands))

	cmp := &comparison{rules: r, cands: map[int64]*candidate{}, ins: ins.res, imp: imp, start: start, baseIDs: map[int64]bool{}}
	cmp.repaired = func(c *candidate, v verdict) (verdict, bool) {
		got, ok, err := ins.repaired(ctx, c, v)
		if err != nil {
			t.Fatal(err)
		}
		return got, ok
	}
	for id := int64(1); id <= alice; id++ {
		cmp.baseIDs[id] = true
	}
	for _, c := range cands {
		cmp.cands[c.ID] = c
	}
	if err := cmp.load(ctx, insOwner, impOwner); err != nil {
		t.Fatal(err)
	}
	cmp.compare()
	t.Logf("verdicts (insert -> import: rows):\n%s", cmp.tally())
	var edges strings.Builder
	for _, c := range edgeCases() {
		fmt.Fprintf(&edges, "  %-100s %s -> %s\n", c.String(), ins.res[c.ID].String(), imp.verdicts[c.ID].String())
	}
	t.Logf("edge cases (insert -> import):\n%s", edges.String())
	if len(cmp.diffs) > 0 {
		shown := cmp.diffs
		if len(shown) > 200 {
			shown = shown[:200]
		}
		t.Errorf("%d differences between the INSERT and the import (seed %d; VERDICTS_SEED=%d repeats it):\n%s",
			len(cmp.diffs), seed, seed, strings.Join(shown, "\n"))
	}
}

// ---------------------------------------------------------------------------------------------
// Candidates.

type candidate struct {
	ID        int64
	ParentID  *int64
	Type      *string
	Path      *string
	Name      *string
	Vis       *string
	State     *string
	Preserved *string
	ChangedAt *time.Time
	ChangedBy *int64
	CreatedAt *time.Time
	Case      string // the edge case, or "random" with its fault
}

func str(s string) *string { return &s }
func num(n int64) *int64   { return &n }

func (c *candidate) String() string {
	return fmt.Sprintf("id=%d [%s]", c.ID, c.Case)
}

// state is the staged state name, active when none is staged (the import's default, and the
// INSERT's).
func (c *candidate) state() string {
	if c.State == nil {
		return "active"
	}
	return *c.State
}

// changedAt is the legacy time the import gives a row's change: state_changed_at, else created_at.
func (c *candidate) changedAt() *time.Time {
	if c.ChangedAt != nil {
		return c.ChangedAt
	}
	return c.CreatedAt
}

// The namespaces both databases hold before the candidates arrive (ids 1 to 106): an existing
// tree to collide with, parents of every kind, a chain 100 levels deep, and the users 101 to 105,
// owners of every root, whom the candidates name as actors.
const (
	acme, team, site, archive, gone = 1, 2, 3, 4, 5
	deepLeaf, deepAbove             = 105, 104 // levels 100 and 99 of the chain below 6
	alice                           = 106
	firstUser, lastUser             = 101, 105
)

func buildBase(ctx context.Context, owner *pgxpool.Pool) error {
	tx, err := owner.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	stmts := []string{
		`insert into lifecycle.namespaces (id, parent_id, type, path, name, visibility) values
		   (1, null, 'organization', 'acme', 'Acme', 'public'),
		   (2, 1, 'group', 'team', 'Team', 'internal'),
		   (3, 2, 'project', 'site', 'Site', 'private'),
		   (4, 1, 'group', 'archive', 'Archive', 'public'),
		   (5, null, 'group', 'gone', 'Gone', 'private'),
		   (6, null, 'group', 'deep', 'Deep', 'public'),
		   (106, null, 'user', 'alice', 'Alice', 'private')`,
	}
	stmts = append(stmts,
		// One statement, parents first: each row's triggers see the rows before it.
		fmt.Sprintf(`insert into lifecycle.namespaces (id, parent_id, type, path, name, visibility)
		 select g, g - 1, 'group', 'level-' || g, 'Level', 'public' from generate_series(7, %d) g order by g`, deepLeaf),
		`select lifecycle.namespace_transition(4, 'archived', null)`,
		`select lifecycle.namespace_transition(5, 'deletion_scheduled', null)`,
		`insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
		 select r, u, 50 from unnest(array[1, 5, 6, 106]) r, generate_series(101, 105) u`,
		`select pg_catalog.setval('lifecycle.namespaces_id_seq', 999)`)
	for _, s := range stmts {
		if _, err := tx.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return tx.Commit(ctx)
}

var (
	t0    = time.Date(2024, 3, 1, 9, 30, 0, 123456000, time.UTC)
	t1    = time.Date(2025, 1, 15, 17, 0, 0, 0, time.UTC)
	long  = strings.Repeat("n", 256)
	long2 = strings.Repeat("p", 120)
)

// edgeCases: one candidate (or a few) per rule of the import's verdict table, and per documented
// difference. Ids 1000 and up; the parents named are the base's or another edge case's.
func edgeCases() []*candidate {
	g := func(id, parent int64, path, kase string) *candidate {
		c := &candidate{ID: id, Type: str("group"), Path: str(path), Name: str("Edge " + path), Case: kase}
		if parent != 0 {
			c.ParentID = num(parent)
		}
		return c
	}
	with := func(c *candidate, f func(*candidate)) *candidate { f(c); return c }
	return []*candidate{
		g(1000, 0, "edge-root", "a valid root"),
		g(1001, acme, "edge-child", "a valid child"),
		g(0, 0, "id-zero", "id 0"),
		g(-5, 0, "id-negative", "a negative id"),
		g(1<<62, 0, "id-too-big", "id 2^62"),
		g(1<<62-1, 0, "id-largest", "id 2^62 - 1"),
		g(site, acme, "id-used", "an id in use"),
		with(g(1010, acme, "type-unknown", "an unknown type"), func(c *candidate) { c.Type = str("team") }),
		with(g(1011, acme, "type-none", "no type"), func(c *candidate) { c.Type = nil }),
		with(g(1012, acme, "org-below", "an organization with a parent"), func(c *candidate) { c.Type = str("organization") }),
		g(1013, site, "below-project", "a project as parent"),
		g(1014, deepLeaf, "level-101", "deeper than 100 levels"),
		g(1015, deepAbove, "level-100", "100 levels deep"),
		with(g(1016, acme, "vis-unknown", "an unknown visibility"), func(c *candidate) { c.Vis = str("secret") }),
		with(g(1017, team, "vis-more", "more visible than its parent (NS002)"), func(c *candidate) { c.Vis = str("public") }),
		with(g(1018, team, "vis-same", "as visible as its parent"), func(c *candidate) { c.Vis = str("internal") }),
		with(g(1020, acme, "name-empty", "an empty name"), func(c *candidate) { c.Name = str("") }),
		with(g(1021, acme, "name-blank", "a blank name"), func(c *candidate) { c.Name = str("   ") }),
		with(g(1022, acme, "name-long", "a name over 255 characters"), func(c *candidate) { c.Name = str(long) }),
		with(g(1023, acme, "name-255", "a name of 255 characters"), func(c *candidate) { c.Name = str(long[:255]) }),
		with(g(1024, acme, "name-control", "a control character in the name"), func(c *candidate) { c.Name = str("a\x01b") }),
		with(g(1025, acme, "name-bidi", "a bidirectional formatting character in the name"), func(c *candidate) { c.Name = str("a\u202eb") }),
		with(g(1026, acme, "name-none", "no name"), func(c *candidate) { c.Name = nil }),
		with(g(1030, acme, "", "no path (null)"), func(c *candidate) { c.Path = nil }),
		g(1031, acme, "", "an empty path"),
		with(g(1032, acme, "ab\x07c", "a control character in the path"), func(c *candidate) { c.Name = str("Edge") }),
		with(g(1033, acme, "ab\u2066c", "a bidirectional formatting character in the path"), func(c *candidate) { c.Name = str("Edge") }),
		with(g(1040, acme, "transfer", "transfer_in_progress"), func(c *candidate) { c.State = str("transfer_in_progress") }),
		with(g(1041, acme, "frozen", "an unknown state"), func(c *candidate) { c.State = str("frozen") }),
		with(g(1042, acme, "preserved-unknown", "an unknown preserved_state"), func(c *candidate) {
			c.State, c.Preserved = str("deletion_scheduled"), str("bogus")
		}),
		with(g(1043, acme, "preserved-temporary", "a preserved_state that is not permanent"), func(c *candidate) {
			c.State, c.Preserved = str("deletion_scheduled"), str("maintenance")
		}),
		with(g(1044, acme, "preserved-unreachable", "maintenance preserving archived (no such transition)"), func(c *candidate) {
			c.State, c.Preserved = str("maintenance"), str("archived")
		}),
		with(g(1045, acme, "preserved-in-progress", "deletion_in_progress preserving deletion_scheduled"), func(c *candidate) {
			c.State, c.Preserved = str("deletion_in_progress"), str("deletion_scheduled")
		}),
		with(g(1046, acme, "archived-beside-deletion", "deletion_scheduled preserving archived"), func(c *candidate) {
			c.State, c.Preserved, c.ChangedAt, c.ChangedBy = str("deletion_scheduled"), str("archived"), &t1, num(102)
		}),
		with(g(1047, acme, "archived-beside-hard-delete", "deletion_in_progress preserving archived"), func(c *candidate) {
			c.State, c.Preserved, c.ChangedAt, c.ChangedBy = str("deletion_in_progress"), str("archived"), &t1, num(103)
		}),
		with(g(1048, acme, "hard-delete", "deletion_in_progress"), func(c *candidate) {
			c.State, c.ChangedAt = str("deletion_in_progress"), &t0
		}),
		with(g(1049, acme, "archived-dated", "archived with a date and an actor"), func(c *candidate) {
			c.State, c.ChangedAt, c.ChangedBy, c.CreatedAt = str("archived"), &t1, num(101), &t0
		}),
		with(g(1050, acme, "scheduled-by-system", "deletion_scheduled by no one"), func(c *candidate) {
			c.State, c.ChangedAt = str("deletion_scheduled"), &t1
		}),
		with(g(1051, acme, "maintained", "maintenance preserving active"), func(c *candidate) {
			c.State, c.Preserved, c.ChangedBy = str("maintenance"), str("active"), num(104)
		}),
		with(g(1052, acme, "creating", "creation_in_progress"), func(c *candidate) {
			c.State, c.CreatedAt = str("creation_in_progress"), &t0
		}),
		with(g(1053, acme, "active-dated", "active with a date and an actor"), func(c *candidate) {
			c.ChangedAt, c.ChangedBy, c.CreatedAt = &t1, num(105), &t0
		}),
		with(g(1054, acme, "archived-preserving-maintenance", "archived, preserved_state maintenance"), func(c *candidate) {
			c.State, c.Preserved = str("archived"), str("maintenance")
		}),
		with(g(1055, acme, "active-preserving-archived", "active, preserved_state archived"), func(c *candidate) {
			c.Preserved = str("archived")
		}),
		with(g(1056, acme, "creating-preserving-archived", "creation_in_progress, preserved_state archived"), func(c *candidate) {
			c.State, c.Preserved = str("creation_in_progress"), str("archived")
		}),
		with(g(1057, acme, "state-alias", "the state named by its name, not its alias"), func(c *candidate) {
			c.State = str("ancestor_inherited")
		}),
		g(1060, 999999, "orphan", "a parent that does not exist"),
		g(1061, 1010, "below-rejected", "below a rejected row"),
		g(1062, 1061, "below-below-rejected", "two levels below a rejected row"),
		g(1063, 1017, "below-ns002", "below a row refused with NS002"),
		g(1064, acme, "team", "a path a live sibling holds (NS006)"),
		g(1065, 0, "gone", "a path only a sibling pending deletion holds"),
		g(1066, acme, "twin", "a path staged twice below one parent: the first"),
		g(1067, acme, "twin", "a path staged twice below one parent: the second (NS006)"),
		with(g(1068, acme, "pair", "a pending row beside a live staged sibling of its path"), func(c *candidate) {
			c.State = str("deletion_scheduled")
		}),
		g(1069, acme, "pair", "a live row beside a pending staged sibling of its path"),
		with(g(1070, acme, "team", "a pending row beside a live existing sibling of its path"), func(c *candidate) {
			c.State = str("deletion_scheduled")
		}),
		g(1080, acme, "Team", "a path differing from a live sibling's by case only"),
		g(1081, acme, "Mixed", "a mixed-case path no one holds"),
		g(1082, acme, "Platform Team", "a path with a space"),
		g(1083, 0, "api", "a reserved root path"),
		g(1084, acme, "api", "a name reserved at the root only, below a parent"),
		g(1085, acme, "repo.git", "a path ending in .git"),
		g(1086, acme, long2, "a path over 100 characters"),
		g(1087, acme, "Dup", "a legacy path normalised onto a valid staged sibling's (the valid one keeps it)"),
		g(1088, acme, "dup", "a valid path a legacy staged sibling normalises onto"),
		g(1089, acme, "--", "a path with nothing left after normalising"),
		g(1090, acme, "a..b", "a path with .."),
		g(1100, archive, "below-archived", "below an existing archived group"),
		with(g(1101, acme, "creating-parent", "creation_in_progress with a child"), func(c *candidate) {
			c.State = str("creation_in_progress")
		}),
		g(1102, 1101, "below-creating", "below a creation_in_progress row"),
		with(g(1103, acme, "archived-above-creating", "archived above a creation_in_progress row"), func(c *candidate) {
			c.State = str("archived")
		}),
		with(g(1104, 1103, "creating-below-archived", "creation_in_progress below an archived row"), func(c *candidate) {
			c.State = str("creation_in_progress")
		}),
		with(g(1105, acme, "archived-above-archived", "archived above an archived row"), func(c *candidate) {
			c.State = str("archived")
		}),
		with(g(1106, 1105, "archived-below-archived", "archived below an archived row"), func(c *candidate) {
			c.State = str("archived")
		}),
		with(g(1107, acme, "scheduled-above-archived", "deletion_scheduled above an archived row"), func(c *candidate) {
			c.State = str("deletion_scheduled")
		}),
		with(g(1108, 1107, "archived-below-scheduled", "archived below a deletion_scheduled row"), func(c *candidate) {
			c.State = str("archived")
		}),
		with(g(1110, acme, "private-parent", "a private group"), func(c *candidate) { c.Vis = str("private") }),
		with(g(1111, 1110, "public-child", "public below a private staged parent (NS002)"), func(c *candidate) { c.Vis = str("public") }),
		g(1120, 1121, "cycle-a", "on a cycle of parents"),
		g(1121, 1120, "cycle-b", "on a cycle of parents"),
		g(1122, 1121, "below-cycle", "below a cycle of parents"),
		with(g(1130, alice, "user-project", "a project of a user namespace"), func(c *candidate) { c.Type = str("project") }),
		with(g(1131, 0, "root-project", "a project at the root"), func(c *candidate) { c.Type = str("project") }),
		with(g(1132, 0, "root-user", "a user namespace"), func(c *candidate) { c.Type = str("user"); c.Vis = str("public") }),
		with(g(1133, 0, "root-org", "an organization"), func(c *candidate) { c.Type = str("organization"); c.Vis = str("internal") }),
	}
}

// randomCandidates: trees below new roots and below the base's namespaces, ids scattered from
// 10000, most rows valid, each of the others with one fault; a row below a faulty one inherits
// its fate (NS004).
func randomCandidates(rng *rand.Rand, n int) []*candidate {
	type node struct {
		c        *candidate
		rank     int // visibility rank of what the row is (0 private .. 2 public)
		parentOK bool
		paths    map[string]bool
	}
	visNames := []string{"private", "internal", "public"}
	pick := func(weights map[string]int) string {
		total := 0
		keys := make([]string, 0, len(weights))
		for k, w := range weights {
			keys = append(keys, k)
			total += w
		}
		sort.Strings(keys)
		x := rng.IntN(total)
		for _, k := range keys {
			if x < weights[k] {
				return k
			}
			x -= weights[k]
		}
		return keys[0]
	}
	words := []string{"core", "web", "api", "docs", "infra", "tools", "lab", "ops", "data", "ml", "ui", "cli"}
	base := []*node{
		{c: &candidate{ID: acme, Type: str("organization")}, rank: 2, parentOK: true, paths: map[string]bool{"team": true, "archive": true}},
		{c: &candidate{ID: team, Type: str("group")}, rank: 1, parentOK: true, paths: map[string]bool{"site": true}},
		{c: &candidate{ID: 6, Type: str("group")}, rank: 2, parentOK: true, paths: map[string]bool{"level-7": true}},
		{c: &candidate{ID: alice, Type: str("user")}, rank: 0, parentOK: true, paths: map[string]bool{}},
	}
	roots := map[string]bool{"acme": true, "gone": true, "deep": true, "alice": true}
	var nodes []*node
	used := map[int64]bool{}
	nextID := func() int64 {
		for {
			id := int64(10000 + rng.IntN(50*n+1000))
			if !used[id] {
				used[id] = true
				return id
			}
		}
	}
	var out []*candidate
	for i := 0; i < n; i++ {
		c := &candidate{ID: nextID(), Case: "random"}
		var parent *node
		if rng.IntN(100) < 8 || len(nodes) == 0 {
			if rng.IntN(4) == 0 {
				parent = base[rng.IntN(len(base))]
			}
		} else {
			for range 10 {
				p := nodes[rng.IntN(len(nodes))]
				if p.parentOK {
					parent = p
					break
				}
			}
		}
		siblings := roots
		rank := 2
		if parent != nil {
			c.ParentID = num(parent.c.ID)
			siblings = parent.paths
			rank = parent.rank
			c.Type = str(pick(map[string]int{"group": 45, "project": 55}))
		} else {
			c.Type = str(pick(map[string]int{"organization": 30, "group": 50, "user": 15, "project": 5}))
		}
		own := rng.IntN(rank + 1)
		if rng.IntN(5) > 0 {
			c.Vis = str(visNames[own])
		} else {
			own = 0 // staged without a visibility: private
		}
		// A path no sibling has, sometimes in a legacy form the import normalises.
		word := words[rng.IntN(len(words))]
		path := fmt.Sprintf("%s-%d", word, c.ID%1000)
		for siblings[path] {
			path += "x"
		}
		switch rng.IntN(20) {
		case 0:
			path = strings.ToUpper(path[:1]) + path[1:]
		case 1:
			path = strings.Replace(path, "-", " ", 1)
		case 2:
			path += ".git"
		case 3:
			if parent == nil {
				path = word // perhaps reserved (api) at the root
			}
		}
		c.Path = str(path)
		c.Name = str(strings.ToUpper(word[:1]) + word[1:] + " " + strconv.Itoa(i))
		if rng.IntN(10) < 7 {
			at := t0.Add(time.Duration(rng.IntN(600*24)) * time.Hour).Add(time.Duration(rng.IntN(1e6)) * time.Microsecond)
			c.ChangedAt = &at
		}
		if rng.IntN(10) < 4 {
			at := t0.Add(-time.Duration(rng.IntN(900*24)) * time.Hour)
			c.CreatedAt = &at
		}
		if rng.IntN(10) < 6 {
			c.ChangedBy = num(int64(firstUser + rng.IntN(lastUser-firstUser+1)))
		}
		state := pick(map[string]int{"": 25, "active": 30, "archived": 18, "deletion_scheduled": 10,
			"deletion_in_progress": 4, "maintenance": 6, "creation_in_progress": 4})
		if state != "" {
			c.State = str(state)
		}
		switch state {
		case "deletion_scheduled", "deletion_in_progress":
			c.Preserved = []*string{nil, str("active"), str("archived"), str("archived")}[rng.IntN(4)]
		case "maintenance":
			c.Preserved = []*string{nil, str("active")}[rng.IntN(2)]
		}
		ok := true
		// One fault in about one row of six.
		if rng.IntN(6) == 0 {
			faults := []string{"type", "org-below", "project-parent", "depth", "vis-unknown", "vis-more", "name", "path",
				"path-chars", "state", "transfer", "preserved", "preserved-temporary", "orphan", "clash", "id-used"}
			f := faults[rng.IntN(len(faults))]
			c.Case = "random: " + f
			switch f {
			case "type":
				c.Type = str([]string{"team", "Group", ""}[rng.IntN(3)])
			case "org-below":
				if c.ParentID == nil {
					c.ParentID = num(acme)
				}
				c.Type = str("organization")
			case "project-parent":
				c.ParentID = num(site)
				for _, p := range nodes {
					if *p.c.Type == "project" && rng.IntN(3) == 0 {
						c.ParentID = num(p.c.ID)
						break
					}
				}
			case "depth":
				c.ParentID = num(deepLeaf)
			case "vis-unknown":
				c.Vis = str("hidden")
			case "vis-more":
				if rank < 2 && c.ParentID != nil {
					c.Vis = str(visNames[rank+1])
				} else {
					c.Vis = str("PUBLIC")
				}
			case "name":
				c.Name = []*string{nil, str(""), str(" \t"), str(long), str("x\x1by"), str("x\u200fy")}[rng.IntN(6)]
			case "path":
				c.Path = []*string{nil, str("")}[rng.IntN(2)]
			case "path-chars":
				c.Path = str(path + []string{"\x00x", "\x7f", "\u202a"}[rng.IntN(3)])
				if strings.Contains(*c.Path, "\x00") {
					c.Path = str(path + "\x1f")
				}
			case "state":
				c.State = str([]string{"frozen", "Archived", ""}[rng.IntN(3)])
			case "transfer":
				c.State = str("transfer_in_progress")
			case "preserved":
				c.State, c.Preserved = str("deletion_scheduled"), str("gone")
			case "preserved-temporary":
				c.State, c.Preserved = str("deletion_in_progress"), str([]string{"maintenance", "deletion_scheduled"}[rng.IntN(2)])
			case "orphan":
				c.ParentID = num(9000 + int64(rng.IntN(900)))
			case "clash":
				var taken []string
				for p := range siblings {
					if !strings.ContainsAny(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ .") && p != "gone" && p != "" {
						taken = append(taken, p)
					}
				}
				if len(taken) > 0 {
					slices.Sort(taken)
					c.Path = str(taken[rng.IntN(len(taken))])
				}
			case "id-used":
				for id := int64(7 + rng.IntN(90)); !used[id]; id = int64(7 + rng.IntN(90)) {
					delete(used, c.ID)
					c.ID, used[id] = id, true // one of the deep chain's
				}
			}
			ok = false
		}
		if c.Path != nil {
			siblings[*c.Path] = true
		}
		// creation_in_progress rows get no children here (the edge cases show what happens below
		// one); pending rows may.
		canParent := ok && *c.Type != "project" && state != "creation_in_progress" && c.ID >= 10000
		nodes = append(nodes, &node{c: c, rank: own, parentOK: canParent, paths: map[string]bool{}})
		out = append(out, c)
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// The rules, read from their tables (they are rows; the test lists none of them).

type rules struct {
	code      map[string]int16 // name and alias -> code
	name      map[int16]string
	permanent map[int16]bool
	pending   map[int16]bool
	operation map[int16]string
	initial   map[int16]bool                  // a state an INSERT may give (a transition from null)
	next      map[int16][]int16               // the matrix
	guards    map[[2]int16]map[string][]int16 // (from, to) -> scope -> forbidden states; from -1 is creation
}

func readRules(ctx context.Context, db *pgxpool.Pool) (*rules, error) {
	r := &rules{code: map[string]int16{}, name: map[int16]string{}, permanent: map[int16]bool{}, pending: map[int16]bool{},
		operation: map[int16]string{}, initial: map[int16]bool{}, next: map[int16][]int16{}, guards: map[[2]int16]map[string][]int16{}}
	rows, err := db.Query(ctx, `select code, name, coalesce(alias, ''), permanent, pending_deletion, coalesce(operation, '')
		   from lifecycle.states order by code`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var code int16
		var name, alias, op string
		var perm, pend bool
		if err := rows.Scan(&code, &name, &alias, &perm, &pend, &op); err != nil {
			return nil, err
		}
		r.code[name], r.name[code], r.permanent[code], r.pending[code], r.operation[code] = code, name, perm, pend, op
		if alias != "" {
			r.code[alias] = code
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.Query(ctx, `select coalesce(from_state, -1), to_state from lifecycle.state_transitions order by 1, 2`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var from, to int16
		if err := rows.Scan(&from, &to); err != nil {
			return nil, err
		}
		if from < 0 {
			r.initial[to] = true
		} else {
			r.next[from] = append(r.next[from], to)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.Query(ctx, `select coalesce(from_state, -1), to_state, scope, forbidden_state from lifecycle.transition_guards`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var from, to, forbidden int16
		var scope string
		if err := rows.Scan(&from, &to, &scope, &forbidden); err != nil {
			return nil, err
		}
		k := [2]int16{from, to}
		if r.guards[k] == nil {
			r.guards[k] = map[string][]int16{}
		}
		r.guards[k][scope] = append(r.guards[k][scope], forbidden)
	}
	return r, rows.Err()
}

// way is the shortest run of states the matrix leads through from one state to another (to
// included), or nil when it leads there from nowhere.
func (r *rules) way(from, to int16) []int16 {
	if from == to {
		return []int16{}
	}
	prev := map[int16]int16{from: from}
	queue := []int16{from}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, n := range r.next[s] {
			if _, seen := prev[n]; seen {
				continue
			}
			prev[n] = s
			if n == to {
				var path []int16
				for x := to; x != from; x = prev[x] {
					path = append([]int16{x}, path...)
				}
				return path
			}
			queue = append(queue, n)
		}
	}
	return nil
}

// plan is how the application brings a new namespace to the candidate's state: the state its
// INSERT gives (an initial state, else active), then the state API's calls, one per state on the
// matrix's way there; for a temporary state, by way of its preserved_state (the permanent state a
// restore returns to), so that the state metadata ends with that preserved_state, which the plan
// then checks (wantPreserved). A name the API does not know goes to it as it is (its refusal is
// the verdict); a preserved_state beside a state that keeps none is only checked for being a state
// (probe).
type plan struct {
	unplanned     string
	keepsNone     string // a preserved_state beside a state that keeps none
	insertState   *string
	steps         []string
	probe         string
	wantPreserved string
}

func (r *rules) plan(c *candidate) plan {
	var p plan
	target, known := r.code[c.state()]
	if c.Preserved != nil {
		if _, ok := r.code[*c.Preserved]; !ok {
			p.probe = *c.Preserved
		}
	}
	switch {
	case !known:
		p.steps = []string{c.state()}
		return p
	case r.operation[target] == "transfer":
		// "The transfer's state is reached only through a transfer" (docs/design.md §10.2): a request
		// accepted and executed, which moves the namespace; there is none to make here.
		p.unplanned = "the transfer's state is reached only through a transfer"
		return p
	case r.initial[target] || r.permanent[target]:
		// No state call leaves a preserved_state beside these (the state record drops it on the way
		// into a permanent state, and the initial ones are had only by creation): a known one other
		// than active cannot be asked for.
		if c.Preserved != nil {
			if code, ok := r.code[*c.Preserved]; ok && code != 0 {
				p.keepsNone = *c.Preserved
				return p
			}
		}
		if r.initial[target] {
			p.insertState = c.State
			return p
		}
		for _, s := range r.way(0, target) {
			p.steps = append(p.steps, r.name[s])
		}
		return p
	}
	from := int16(0)
	if c.Preserved != nil && *c.Preserved != "active" && *c.Preserved != r.name[0] {
		p.probe = ""
		code, ok := r.code[*c.Preserved]
		if !ok {
			p.steps = []string{*c.Preserved}
			return p
		}
		for _, s := range r.way(0, code) {
			p.steps = append(p.steps, r.name[s])
		}
		from = code
	}
	way := r.way(from, target)
	if way == nil {
		way = []int16{target} // none: the API's own refusal (NS001) is the verdict
	}
	for _, s := range way {
		p.steps = append(p.steps, r.name[s])
	}
	p.wantPreserved = r.name[0]
	if from != 0 {
		p.wantPreserved = r.name[from]
	}
	return p
}

// ---------------------------------------------------------------------------------------------
// The import side.

type importResult struct {
	verdicts map[int64]verdict
	final    map[int64]string // the path each imported row got
}

type verdict struct {
	Code  string // "" when accepted
	Msg   string
	Stage string
}

func (v verdict) String() string {
	if v.Code == "" {
		return "accepted"
	}
	return v.Code + " (" + v.Stage + ": " + v.Msg + ")"
}

func runImport(ctx context.Context, t *testing.T, worker, owner *pgxpool.Pool, cands []*candidate) *importResult {
	t.Helper()
	rows := make([][]any, len(cands))
	for i, c := range cands {
		rows[i] = []any{c.ID, c.ParentID, c.Type, c.Path, c.Name, c.Vis, c.State, c.ChangedAt, c.ChangedBy, c.Preserved, c.CreatedAt}
	}
	if _, err := worker.CopyFrom(ctx, pgx.Identifier{"lifecycle", "namespace_imports"},
		[]string{"id", "parent_id", "type", "path", "name", "visibility", "state", "state_changed_at", "state_changed_by",
			"preserved_state", "created_at"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatalf("stage the candidates: %v", err)
	}
	var imported, rejected int64
	if err := worker.QueryRow(ctx, `select imported, rejected from lifecycle.namespace_import_apply()`).Scan(&imported, &rejected); err != nil {
		t.Fatalf("the import: %v", err)
	}
	res := &importResult{verdicts: map[int64]verdict{}, final: map[int64]string{}}
	left, err := worker.Query(ctx, `select id, coalesce(reject_code, ''), coalesce(reject_reason, '') from lifecycle.namespace_imports`)
	if err != nil {
		t.Fatal(err)
	}
	for left.Next() {
		var id int64
		var v verdict
		if err := left.Scan(&id, &v.Code, &v.Msg); err != nil {
			t.Fatal(err)
		}
		if v.Code == "" {
			t.Errorf("id=%d stays staged without a verdict", id)
		}
		v.Stage = "import"
		res.verdicts[id] = v
	}
	if err := left.Err(); err != nil {
		t.Fatal(err)
	}
	if int64(len(res.verdicts)) != rejected || imported+rejected != int64(len(cands)) {
		t.Errorf("the import says %d imported and %d rejected of %d candidates; %d rows stay staged", imported, rejected,
			len(cands), len(res.verdicts))
	}
	ids := make([]int64, 0, len(cands))
	for _, c := range cands {
		if _, ok := res.verdicts[c.ID]; !ok {
			res.verdicts[c.ID] = verdict{Stage: "import"}
			ids = append(ids, c.ID)
		}
	}
	paths, err := owner.Query(ctx, `select id, path from lifecycle.namespaces where id = any($1)`, ids)
	if err != nil {
		t.Fatal(err)
	}
	for paths.Next() {
		var id int64
		var p string
		if err := paths.Scan(&id, &p); err != nil {
			t.Fatal(err)
		}
		res.final[id] = p
	}
	if err := paths.Err(); err != nil {
		t.Fatal(err)
	}
	return res
}

// ---------------------------------------------------------------------------------------------
// The INSERT side.

type insVerdict struct {
	verdict
	retried  bool // the INSERT was refused the legacy path and made again with the import's
	steps    []string
	deferred bool // its state calls made after its children's
}

type inserter struct {
	owner, app, worker *pgxpool.Pool
	rules              *rules
	cands              []*candidate
	final              map[int64]string
	res                map[int64]*insVerdict
}

func pgError(err error, stage string) verdict {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		msg := pgErr.Message
		if pgErr.Detail != "" {
			msg += ": " + pgErr.Detail
		}
		return verdict{Code: pgErr.Code, Msg: msg, Stage: stage}
	}
	return verdict{Code: "error", Msg: err.Error(), Stage: stage}
}

// run puts every candidate through, depth first from the roots: a namespace is made (and its
// state tried, then undone) before its children, and given its state after them, deepest first
// (as the legacy backfill orders states): the order in which the API reaches a tree whose
// namespaces below an archived group were made before it was archived. Below one parent, rows
// pending deletion come first: a live sibling can take their path only after their deletion is
// scheduled. Rows no root leads to (a cycle) are tried last.
func (in *inserter) run(ctx context.Context) error {
	byID := map[int64]*candidate{}
	children := map[int64][]*candidate{}
	for _, c := range in.cands {
		byID[c.ID] = c
	}
	var roots []*candidate
	for _, c := range in.cands {
		if c.ParentID != nil && byID[*c.ParentID] != nil && *c.ParentID != c.ID {
			children[*c.ParentID] = append(children[*c.ParentID], c)
		} else {
			roots = append(roots, c)
		}
	}
	order := func(cs []*candidate) {
		sort.SliceStable(cs, func(i, j int) bool {
			pi, pj := in.pendingTarget(cs[i]), in.pendingTarget(cs[j])
			if pi != pj {
				return pi
			}
			return cs[i].ID < cs[j].ID
		})
	}
	order(roots)
	for _, cs := range children {
		order(cs)
	}
	var visit func(c *candidate) error
	visit = func(c *candidate) error {
		if in.res[c.ID] != nil {
			return nil // a cycle of parents leads back here
		}
		v, err := in.create(ctx, c, len(children[c.ID]) > 0)
		if err != nil {
			return err
		}
		in.res[c.ID] = v
		for _, ch := range children[c.ID] {
			if err := visit(ch); err != nil {
				return err
			}
		}
		if v.Code == "" && v.deferred {
			if err := in.settle(ctx, c, v); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range roots {
		if err := visit(c); err != nil {
			return err
		}
	}
	for _, c := range in.cands {
		if in.res[c.ID] == nil {
			if err := visit(c); err != nil {
				return err
			}
		}
	}
	return nil
}

func (in *inserter) pendingTarget(c *candidate) bool {
	code, ok := in.rules.code[c.state()]
	return ok && in.rules.pending[code]
}

// create makes the namespace as the application does: an INSERT as a lifecycle_app login (a
// worker login for a row that names no actor: only the system acts for no one), the id the
// identity sequence gives (set to the candidate's id first: see next_id; an id the sequence cannot
// give, below 1, only the schema's owner may choose), then the state calls. A row with children
// among the candidates has its state calls undone, and made again after its children (settle). A
// path the INSERT refuses that the import normalises is made again with the path the import gave
// it. Each transaction is one pipeline of statements, whose first error is the verdict.
func (in *inserter) create(ctx context.Context, c *candidate, parent bool) (*insVerdict, error) {
	p := in.rules.plan(c)
	v := &insVerdict{steps: p.steps}
	if c.ID < 1 {
		_, err := in.owner.Exec(ctx, `insert into lifecycle.namespaces (id, parent_id, type, path, name) values ($1, $2, $3, $4, $5)`,
			c.ID, c.ParentID, c.Type, c.Path, c.Name)
		if err != nil {
			v.verdict = pgError(err, "insert by the owner")
		}
		return v, nil
	}
	conn, err := in.pool(c).Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	v.deferred = parent && len(p.steps) > 0
	script := append([]stmt{{stage: "begin", sql: `begin`}}, in.creation(c, c.Path, p, v.deferred)...)
	sv, failed, err := run(ctx, conn.Conn(), script)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c, err)
	}
	var pgErr *pgconn.PgError
	if failed >= 0 && script[failed].stage == "insert" && errors.As(sv.err, &pgErr) && pgErr.Code == "NS010" &&
		pgErr.Message == "invalid path" && c.Path != nil && *c.Path != "" && !strings.Contains(pgErr.Detail, "control or bidirectional") {
		// The import keeps no path the rules refuse: it normalises it (docs/design.md §10.1).
		v.retried = true
		if _, err := conn.Exec(ctx, `rollback to savepoint candidate`); err != nil {
			return nil, err
		}
		alt, ok := in.final[c.ID]
		if !ok {
			alt = fmt.Sprintf("legacy-%d", c.ID) // the import refused the row: any valid path
			// But a legacy path equal, case aside, to a live sibling's is that sibling's path
			// (NS006 on both sides): the INSERT is made with it, as the import judged it.
			var held bool
			if err := conn.QueryRow(ctx, `select exists (select from lifecycle.namespaces n
				where coalesce(n.parent_id, 0) = coalesce($1, 0) and n.path = lower($2) and lifecycle.state_path_live(n.state))`,
				c.ParentID, *c.Path).Scan(&held); err != nil {
				return nil, err
			}
			if held {
				alt = strings.ToLower(*c.Path)
			}
		}
		script = in.creation(c, &alt, p, v.deferred)
		if sv, failed, err = run(ctx, conn.Conn(), script); err != nil {
			return nil, fmt.Errorf("%s: %w", c, err)
		}
	}
	if failed >= 0 {
		if _, err := conn.Exec(ctx, `rollback`); err != nil {
			return nil, err
		}
		v.verdict = sv.verdict
	}
	return v, nil
}

// creation: the INSERT, the memberships of a root, the state calls (after a savepoint, and rolled
// back to it, when deferred), and the commit.
func (in *inserter) creation(c *candidate, path *string, p plan, deferred bool) []stmt {
	script := in.insertion(c, path, p.insertState)
	if c.ParentID == nil {
		// The users the candidates name own every root (and so everything below it).
		script = append(script, stmt{stage: "memberships", sql: `insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
			select $1, u, 50 from generate_series($2::bigint, $3::bigint) u`, args: []any{c.ID, firstUser, lastUser}})
	}
	if deferred {
		script = append(script, stmt{stage: "savepoint", sql: `savepoint steps`})
	}
	script = append(script, in.stepScript(c, p)...)
	if deferred {
		script = append(script, stmt{stage: "rollback to savepoint", sql: `rollback to savepoint steps`})
	}
	return append(script, stmt{stage: "commit", sql: `commit`})
}

func (in *inserter) pool(c *candidate) *pgxpool.Pool {
	if c.ChangedBy == nil {
		return in.worker
	}
	return in.app
}

// stmt is one statement of a pipeline; its stage names it in a verdict. A statement of the test's
// own that refuses what the API has no code for fails with invalid_text_representation (22P02),
// read as the verdict refusal names.
type stmt struct {
	stage   string
	sql     string
	args    []any
	scan    func(pgx.Row) error
	refusal string
}

type stmtVerdict struct {
	verdict
	err error
}

// infrastructure: stages whose failure is the test's, not a verdict.
var infrastructure = map[string]bool{"begin": true, "next id": true, "savepoint": true, "memberships": true,
	"rollback to savepoint": true, "commit": true}

// run sends the statements as one pipeline and returns the verdict of the first that fails (and
// its index), or index -1; an error is the test's own failure. After a failure the rest of the
// pipeline is skipped, and the transaction is left for the caller to roll back.
func run(ctx context.Context, conn *pgx.Conn, script []stmt) (stmtVerdict, int, error) {
	b := &pgx.Batch{}
	for _, s := range script {
		b.Queue(s.sql, s.args...)
	}
	br := conn.SendBatch(ctx, b)
	defer br.Close()
	for i, s := range script {
		var err error
		if s.scan != nil {
			err = s.scan(br.QueryRow())
		} else {
			_, err = br.Exec()
		}
		if err == nil {
			continue
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) {
			return stmtVerdict{}, i, err
		}
		if infrastructure[s.stage] {
			return stmtVerdict{}, i, fmt.Errorf("%s: %w", s.stage, err)
		}
		v := stmtVerdict{verdict: pgError(err, s.stage), err: err}
		if s.refusal != "" && pgErr.Code == "22P02" {
			v.Code, v.Msg = s.refusal, strings.TrimPrefix(pgErr.Message, "invalid input syntax for type integer: ")
		}
		return v, i, nil
	}
	return stmtVerdict{}, -1, nil
}

// insertion: the INSERT, after the id the sequence is to give it and a savepoint to retry from.
func (in *inserter) insertion(c *candidate, path, state *string) []stmt {
	cols := []string{"parent_id", "type", "path", "name"}
	args := []any{c.ParentID, c.Type, path, c.Name}
	if c.Vis != nil {
		cols, args = append(cols, "visibility"), append(args, *c.Vis)
	}
	vals := make([]string, len(args))
	for i := range args {
		vals[i] = "$" + strconv.Itoa(i+1)
	}
	if state != nil {
		// A state name as the application passes it: as its code.
		cols, vals, args = append(cols, "state"), append(vals, "lifecycle.state_code($"+strconv.Itoa(len(args)+1)+")"), append(args, *state)
	}
	return []stmt{
		{stage: "next id", sql: `select verdicts_test.next_id($1)`, args: []any{c.ID}},
		{stage: "savepoint", sql: `savepoint candidate`},
		{stage: "insert", sql: `insert into lifecycle.namespaces (` + strings.Join(cols, ", ") + `) values (` + strings.Join(vals, ", ") + `) returning id`,
			args: args, scan: func(row pgx.Row) error {
				var id int64
				if err := row.Scan(&id); err != nil {
					return err
				}
				if id != c.ID {
					return fmt.Errorf("the identity sequence gave %d, not %d", id, c.ID)
				}
				return nil
			}},
	}
}

// stepScript: the plan's state calls, as the candidate's actor (the system when none).
func (in *inserter) stepScript(c *candidate, p plan) []stmt {
	var script []stmt
	// What the plan cannot do is refused after the INSERT, whose refusals come first.
	if p.unplanned != "" {
		script = append(script, stmt{stage: "plan", refusal: "unplanned", args: []any{p.unplanned}, sql: `select $1::text::int`})
	}
	if p.keepsNone != "" {
		script = append(script, stmt{stage: "plan", refusal: "unreachable", sql: `select $1::text::int`,
			args: []any{fmt.Sprintf("%s keeps no preserved_state (%s)", c.state(), p.keepsNone)}})
	}
	if p.probe != "" {
		script = append(script, stmt{stage: "preserved_state", refusal: "NS010", args: []any{p.probe},
			sql: `select (case when lifecycle.state_code($1) is null then 'unknown state ' || $1 else '0' end)::int`})
	}
	for _, s := range p.steps {
		script = append(script, stmt{stage: "to " + s, sql: `select lifecycle.namespace_transition($1, $2, $3)`, args: []any{c.ID, s, c.ChangedBy}})
	}
	if p.wantPreserved != "" {
		// The API reaches the state, but not as one a restore leaves for the staged state.
		script = append(script, stmt{stage: "preserved_state", refusal: "unreachable", args: []any{c.ID, p.wantPreserved},
			sql: `select (case when d.state_metadata ->> 'preserved_state' is not distinct from $2::text then '0'
			              else 'reached preserving ' || coalesce(d.state_metadata ->> 'preserved_state', 'none') || ', not ' || $2 end)::int
			        from lifecycle.namespace_details d where d.namespace_id = $1`})
	}
	return script
}

// repaired makes the candidate again (and rolls it back) without the fault its INSERT was refused
// for (the sibling path or an invalid path: another path; an invalid name: another name), and
// returns the verdict then, or false when the fault is not one of those.
func (in *inserter) repaired(ctx context.Context, c *candidate, v verdict) (verdict, bool, error) {
	fixed := *c
	switch {
	case v.Stage == "insert" && (v.Code == "NS006" || strings.HasPrefix(v.Msg, "invalid path")):
		fixed.Path = str(fmt.Sprintf("repaired-%d", c.ID))
	case v.Stage == "insert" && strings.HasPrefix(v.Msg, "invalid name"):
		fixed.Name = str("Repaired")
	default:
		return v, false, nil
	}
	conn, err := in.pool(c).Acquire(ctx)
	if err != nil {
		return v, false, err
	}
	defer conn.Release()
	script := append([]stmt{{stage: "begin", sql: `begin`}}, in.creation(&fixed, fixed.Path, in.rules.plan(&fixed), false)...)
	sv, _, err := run(ctx, conn.Conn(), script[:len(script)-1]) // all but the commit
	if err == nil {
		_, err = conn.Exec(ctx, `rollback`)
	}
	if err != nil {
		return v, false, fmt.Errorf("%s repaired: %w", c, err)
	}
	return sv.verdict, true, nil
}

// settle gives a made namespace its state, after its children got theirs.
func (in *inserter) settle(ctx context.Context, c *candidate, v *insVerdict) error {
	conn, err := in.pool(c).Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	script := append([]stmt{{stage: "begin", sql: `begin`}}, in.stepScript(c, in.rules.plan(c))...)
	sv, failed, err := run(ctx, conn.Conn(), append(script, stmt{stage: "commit", sql: `commit`}))
	if err != nil {
		return fmt.Errorf("%s: %w", c, err)
	}
	if failed >= 0 {
		if _, err := conn.Exec(ctx, `rollback`); err != nil {
			return err
		}
		sv.Stage = "after its children: " + sv.Stage
		v.verdict = sv.verdict
	}
	return nil
}

func deref[T any](p *T) any {
	if p == nil {
		return "null"
	}
	return *p
}

func pool(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = ""
	// Thousands of small transactions: none waits for its commit to reach the disk (a test database).
	cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "off"
	p, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// ---------------------------------------------------------------------------------------------
// The comparison.

type written struct {
	cols      map[string]string
	details   map[string]any
	history   []historyRow
	redirects []string
	traversal []int64
	state     int16
}

type historyRow struct {
	From, To, Event, Source, Metadata string
	Actor                             *int64
	At                                time.Time
}

type comparison struct {
	rules          *rules
	cands          map[int64]*candidate
	ins            map[int64]*insVerdict
	imp            *importResult
	start          time.Time
	insRows        map[int64]*written
	impRows        map[int64]*written
	insStates      map[int64]int16 // every namespace's own state, each side, for the guards
	impStates      map[int64]int16
	impTraversal   map[int64][]int64
	normalised     map[int64]string // lifecycle.path_normalised of each staged path
	heldLower      map[int64]bool   // whether a live sibling holds the lowercased staged path (import side)
	parentFullPath map[int64]string
	baseIDs        map[int64]bool // the namespaces both databases started with
	// repaired: the verdict of the INSERT of a candidate made again without the fault it was
	// refused for, and whether there was one to remove.
	repaired   func(c *candidate, v verdict) (verdict, bool)
	diffs      []string
	pairs      map[string]int
	invariants [2][]string
}

func (cm *comparison) load(ctx context.Context, insDB, impDB *pgxpool.Pool) error {
	ids := make([]int64, 0, len(cm.cands))
	for id := range cm.cands {
		ids = append(ids, id)
	}
	var err error
	if cm.insRows, cm.insStates, _, err = readWritten(ctx, insDB, ids); err != nil {
		return err
	}
	if cm.impRows, cm.impStates, cm.impTraversal, err = readWritten(ctx, impDB, ids); err != nil {
		return err
	}
	cm.normalised, cm.heldLower, cm.parentFullPath = map[int64]string{}, map[int64]bool{}, map[int64]string{}
	rows, err := impDB.Query(ctx, `
		select s.id, lifecycle.path_normalised(s.path), coalesce(lifecycle.namespace_full_path(s.parent_id), ''),
		       exists (select from lifecycle.namespaces n
		                where coalesce(n.parent_id, 0) = coalesce(s.parent_id, 0) and n.path = pg_catalog.lower(s.path)
		                  and n.id <> s.id and not (select st.pending_deletion from lifecycle.states st where st.code = n.state))
		  from unnest($1::bigint[], $2::bigint[], $3::text[]) s (id, parent_id, path)
		 where s.path is not null`, idsOf(cm.cands), parentsOf(cm.cands), pathsOf(cm.cands))
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var norm, full string
		var held bool
		if err := rows.Scan(&id, &norm, &full, &held); err != nil {
			return err
		}
		cm.normalised[id], cm.parentFullPath[id], cm.heldLower[id] = norm, full, held
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i, db := range []*pgxpool.Pool{insDB, impDB} {
		rows, err := db.Query(ctx, `select namespace_id || ' ' || invariant || ': ' || reason from lifecycle.check_invariants()`)
		if err != nil {
			return err
		}
		if cm.invariants[i], err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return err
		}
	}
	return nil
}

func idsOf(m map[int64]*candidate) []int64 {
	out := make([]int64, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func parentsOf(m map[int64]*candidate) []*int64 {
	ids := idsOf(m)
	out := make([]*int64, len(ids))
	for i, id := range ids {
		out[i] = m[id].ParentID
	}
	return out
}

func pathsOf(m map[int64]*candidate) []*string {
	ids := idsOf(m)
	out := make([]*string, len(ids))
	for i, id := range ids {
		out[i] = m[id].Path
	}
	return out
}

func readWritten(ctx context.Context, db *pgxpool.Pool, ids []int64) (map[int64]*written, map[int64]int16, map[int64][]int64, error) {
	out := map[int64]*written{}
	rows, err := db.Query(ctx, `
		select n.id, n.parent_id, n.type, n.path, n.name, n.visibility, n.state, n.traversal_ids, n.created_at, n.updated_at,
		       n.deletion_scheduled_at, n.deletion_scheduled_by, n.state_changes, d.state_metadata
		  from lifecycle.namespaces n
		  left join lifecycle.namespace_details d on d.namespace_id = n.id
		 where n.id = any($1)`, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	for rows.Next() {
		var (
			id, changes          int64
			parent, scheduledBy  *int64
			typ, path, name, vis string
			state                int16
			traversal            []int64
			created, updated     time.Time
			scheduledAt          *time.Time
			details              []byte
		)
		if err := rows.Scan(&id, &parent, &typ, &path, &name, &vis, &state, &traversal, &created, &updated, &scheduledAt,
			&scheduledBy, &changes, &details); err != nil {
			return nil, nil, nil, err
		}
		w := &written{cols: map[string]string{
			"parent_id": fmt.Sprint(deref(parent)), "type": typ, "path": path, "name": name, "visibility": vis,
			"traversal_ids": fmt.Sprint(traversal), "deletion_scheduled_by": fmt.Sprint(deref(scheduledBy)),
			"state_changes": strconv.FormatInt(changes, 10),
		}, traversal: traversal, state: state}
		w.cols["created_at"] = created.UTC().Format(time.RFC3339Nano)
		w.cols["updated_at"] = updated.UTC().Format(time.RFC3339Nano)
		if scheduledAt != nil {
			w.cols["deletion_scheduled_at"] = scheduledAt.UTC().Format(time.RFC3339Nano)
		} else {
			w.cols["deletion_scheduled_at"] = "null"
		}
		if details != nil {
			if err := json.Unmarshal(details, &w.details); err != nil {
				return nil, nil, nil, err
			}
		}
		out[id] = w
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	rows, err = db.Query(ctx, `
		select u.namespace_id, f.name, t.name, coalesce(u.event, ''), u.actor_id, u.source, u.metadata::text, u.created_at
		  from lifecycle.namespace_state_updates u
		  join lifecycle.states f on f.code = u.from_state
		  join lifecycle.states t on t.code = u.to_state
		 where u.namespace_id = any($1)
		 order by u.id`, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	for rows.Next() {
		var id int64
		var h historyRow
		if err := rows.Scan(&id, &h.From, &h.To, &h.Event, &h.Actor, &h.Source, &h.Metadata, &h.At); err != nil {
			return nil, nil, nil, err
		}
		if w := out[id]; w != nil {
			w.history = append(w.history, h)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	rows, err = db.Query(ctx, `
		select namespace_id, kind || ' ' || old_full_path || ' -> ' || new_full_path || ' by ' || coalesce(actor_id::text, 'null')
		  from lifecycle.namespace_redirects where namespace_id = any($1) order by id`, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	for rows.Next() {
		var id int64
		var r string
		if err := rows.Scan(&id, &r); err != nil {
			return nil, nil, nil, err
		}
		if w := out[id]; w != nil {
			w.redirects = append(w.redirects, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	states, traversals := map[int64]int16{}, map[int64][]int64{}
	rows, err = db.Query(ctx, `select id, state, traversal_ids from lifecycle.namespaces`)
	if err != nil {
		return nil, nil, nil, err
	}
	for rows.Next() {
		var id int64
		var s int16
		var tr []int64
		if err := rows.Scan(&id, &s, &tr); err != nil {
			return nil, nil, nil, err
		}
		states[id], traversals[id] = s, tr
	}
	return out, states, traversals, rows.Err()
}

// verdictDifferences: the verdicts the two ways are documented to give differently. Each names
// where it is documented; a pair of verdicts that none of them explains is a difference.
type verdictDifference struct {
	name string
	why  string
	// applies says whether the entry explains the row's pair of verdicts.
	applies func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool
}

var verdictDifferences []verdictDifference

// (Assigned in init: an entry asks the others, through explain.)
func init() { verdictDifferences = differences }

var differences = []verdictDifference{
	{
		name: "id outside the import's range",
		why: `The import takes ids from 1 to 2^62 - 1 (docs/design.md §10.1 Ids): 0 and below are refused by an
		      INSERT too, with the same code before any other rule (NS010, namespaces_traversal_ids_maintain: only
		      the schema's owner may choose an id, and the sequence gives none of them), so they need no entry here;
		      2^62 and above are the application's to take, so the import leaves them.`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			return imp.Code == "NS010" && c.ID >= 1<<62 && ins.Code == ""
		},
	},
	{
		name: "an id in use",
		why: `The import is told its ids and refuses one in use (NS010), before any other rule; the application's
		      INSERT takes its id from the sequence, which never gives one in use, so the primary key (23505) is a
		      last line it never meets, after every trigger: a row that breaks another rule too is refused for that.`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			return cm.baseIDs[c.ID] && imp.Code == "NS010" && strings.HasSuffix(imp.Msg, "is in use") && ins.Code != ""
		},
	},
	{
		name: "guards between the states of a legacy tree",
		why: `"The guards of §3.3 are not applied to history that already happened" (docs/design.md §10.1 States): the
		      import takes a namespace below one in a state that forbids creating it (NS002 for the INSERT, which
		      checks it before the visibility and the state: a row that breaks one of those too is refused by the
		      import for that), and a state whose change a descendant's state forbids (NS003 for the API), as the
		      legacy data has them.`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			switch ins.Code {
			case "NS002":
				return strings.HasPrefix(ins.Msg, "cannot create a namespace below") && cm.ancestorForbids(c) &&
					imp.Code != "NS004"
			case "NS003":
				return imp.Code == "" && strings.HasPrefix(ins.Stage, "after its children") && cm.descendantForbids(c, ins.steps)
			}
			return false
		},
	},
	{
		name: "a row pending deletion beside a live sibling of its path",
		why: `A namespace pending deletion holds no path (docs/design.md §5), and the import takes one as the legacy data
		      has it, beside a live sibling of the same path; the application makes every namespace live first, so
		      its INSERT meets the live sibling (NS006): the API reaches that tree only when the deletion was
		      scheduled before the sibling was made.`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			code, ok := cm.rules.code[c.state()]
			return imp.Code == "" && ins.Code == "NS006" && ins.Stage == "insert" && ok && cm.rules.pending[code]
		},
	},
	{
		name: "transfer_in_progress",
		why: `The import refuses a move in flight (NS010: "finish or cancel it first", docs/adoption.md §4); the
		      application reaches that state only through a transfer (docs/design.md §10.2), which moves the
		      namespace: the test makes none ("unplanned").`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			return ins.Code == "unplanned" && imp.Code == "NS010" && strings.Contains(imp.Msg, "transfer in progress")
		},
	},
	{
		name: "a preserved_state the state cannot keep",
		why: `The import refuses a preserved_state that is not permanent, or not one the matrix leads from to the state
		      (NS010, a fault of the staged data); the API reaches such a state only from another one (NS001 from
		      the matrix, or a state whose preserved_state is not the staged one: "unreachable").`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			return c.Preserved != nil && imp.Code == "NS010" && (ins.Code == "unreachable" || ins.Code == "NS001") &&
				(strings.Contains(imp.Msg, "preserved_state") || strings.Contains(imp.Msg, "cannot have been reached"))
		},
	},
	{
		name: "a preserved_state beside a state that keeps none",
		why: `preserved_state is where a restore returns from a temporary state; beside active, archived or
		      creation_in_progress the import checks only that it names a state, and writes none (docs/adoption.md
		      §4), where no state call can leave one ("unreachable").`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			return imp.Code == "" && ins.Code == "unreachable" && ins.Stage == "plan"
		},
	},
	{
		name: "both refuse, for rules checked in another order",
		why: `A row that breaks two rules is refused for the first each way checks. The import checks the ids, the
		      tree, the visibility, the name, the path, the state, and last the sibling paths (NS006); the INSERT the
		      tree, the path, the name, the sibling paths, the ancestors' states, the visibility, then the state
		      calls. Explained only when the INSERT, made again without the fault it was refused for (another path,
		      another name), is refused with the import's code, or as another entry explains.`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			if ins.Code == "" || imp.Code == "" || cm.repaired == nil {
				return false
			}
			rv, ok := cm.repaired(c, ins.verdict)
			if !ok || rv.Code == "" {
				return false
			}
			again := *ins
			again.verdict = rv
			return rv.Code == imp.Code || cm.explain(c, &again, imp, "both refuse, for rules checked in another order") != ""
		},
	},
	{
		name: "on or below a cycle of parents",
		why: `The import refuses rows on or below a cycle (NS010, docs/adoption.md §4); for the INSERT, a row whose
		      parent does not exist yet is refused with NS004, and no row of a cycle can be made first.`,
		applies: func(cm *comparison, c *candidate, ins *insVerdict, imp verdict) bool {
			return imp.Code == "NS010" && strings.Contains(imp.Msg, "cycle") && ins.Code == "NS004"
		},
	},
}

// ancestorForbids: an ancestor of the row has, on the import's side, an own state the creation
// guards forbid (lifecycle.transition_guards, from null to the row's initial state).
func (cm *comparison) ancestorForbids(c *candidate) bool {
	if c.ParentID == nil {
		return false
	}
	tr := append(slices.Clone(cm.impTraversal[*c.ParentID]), c.ID)
	if len(tr) < 2 {
		return false
	}
	to := int16(0)
	if code, ok := cm.rules.code[c.state()]; ok && cm.rules.initial[code] {
		to = code
	}
	forbidden := cm.rules.guards[[2]int16{-1, to}]["ancestor"]
	for _, a := range tr[:len(tr)-1] {
		if slices.Contains(forbidden, cm.impStates[a]) {
			return true
		}
	}
	return false
}

// descendantForbids: a descendant of the row has, on the import's side, an own state a
// descendant guard of one of the row's state calls forbids.
func (cm *comparison) descendantForbids(c *candidate, steps []string) bool {
	var forbidden []int16
	from := int16(0)
	for _, s := range steps {
		to := cm.rules.code[s]
		forbidden = append(forbidden, cm.rules.guards[[2]int16{from, to}]["descendant"]...)
		from = to
	}
	tr := cm.impTraversal[c.ID]
	for id, dtr := range cm.impTraversal {
		if len(dtr) > len(tr) && slices.Equal(dtr[:len(tr)], tr) && slices.Contains(forbidden, cm.impStates[id]) {
			return true
		}
	}
	return false
}

// explain: the name of the first entry of verdictDifferences (but skip) that explains the pair.
func (cm *comparison) explain(c *candidate, ins *insVerdict, imp verdict, skip string) string {
	for _, d := range verdictDifferences {
		if d.name != skip && d.applies(cm, c, ins, imp) {
			return d.name
		}
	}
	return ""
}

func (cm *comparison) fail(c *candidate, what, ins, imp string) {
	cm.diffs = append(cm.diffs, fmt.Sprintf("%s %s:\n    insert: %s\n    import: %s", c, what, ins, imp))
}

// present: whether a side holds the namespace (a row refused only after its children were made
// stays, active).
func (cm *comparison) insPresent(id int64) bool { return cm.insRows[id] != nil }
func (cm *comparison) impPresent(id int64) bool { return cm.impRows[id] != nil }

func (cm *comparison) compare() {
	cm.pairs = map[string]int{}
	for i, side := range []string{"insert", "import"} {
		for _, v := range cm.invariants[i] {
			cm.diffs = append(cm.diffs, fmt.Sprintf("check_invariants on the %s side: %s", side, v))
		}
	}
	for _, id := range idsOf(cm.cands) {
		c := cm.cands[id]
		ins, imp := cm.ins[id], cm.imp.verdicts[id]
		if ins == nil {
			cm.fail(c, "verdict", "never tried", imp.String())
			continue
		}
		pair := code(ins.verdict) + " -> " + code(imp)
		explained := ""
		if code(ins.verdict) != code(imp) {
			explained = cm.explain(c, ins, imp, "")
			// Below a row the two sides treat differently, a side without the parent refuses the row with
			// NS004; the other judges it on its own.
			if explained == "" && c.ParentID != nil && cm.cands[*c.ParentID] != nil {
				p := *c.ParentID
				if (!cm.insPresent(p) && cm.impPresent(p) && ins.Code == "NS004") ||
					(cm.insPresent(p) && !cm.impPresent(p) && imp.Code == "NS004") {
					explained = "below a row only one side holds"
				}
			}
			// A sibling the API left live (refused its state after its children) holds the path on the
			// insert side only.
			if m := takenBy.FindStringSubmatch(ins.Msg); explained == "" && ins.Code == "NS006" && imp.Code == "" && m != nil {
				holder, _ := strconv.ParseInt(m[1], 10, 64)
				if h := cm.ins[holder]; h != nil && code(h.verdict) != code(cm.imp.verdicts[holder]) {
					explained = "a path held on one side only, by a row the two sides treat differently"
				}
			}
			if explained == "" {
				cm.fail(c, "verdict", ins.String(), imp.String())
			}
		}
		if explained != "" {
			pair += " (" + explained + ")"
		}
		if ins.retried {
			pair += " [legacy path]"
		}
		cm.pairs[pair]++
		if ins.Code == "" && imp.Code == "" {
			cm.compareRows(c, ins)
		}
	}
}

var takenBy = regexp.MustCompile(`taken_by_namespace_id=(\d+)`)

func code(v verdict) string {
	if v.Code == "" {
		return "accepted"
	}
	return v.Code
}

// compareRows: the written rows of a namespace both sides accepted. Equal but where docs/design.md
// §10.1 says the import writes otherwise: the legacy date where the application's calls write
// their own time; the legacy actor in the details of a row with no state change; one history row
// from active, source import, where the API writes one per call; and a redirect for a normalised
// legacy path.
func (cm *comparison) compareRows(c *candidate, ins *insVerdict) {
	a, b := cm.insRows[c.ID], cm.impRows[c.ID]
	if a == nil || b == nil {
		cm.fail(c, "row", present(a), present(b))
		return
	}
	changedAt := c.changedAt()
	hasSteps := len(ins.steps) > 0
	// Each column: what the insert side holds must match, and what the import side holds must match.
	for _, col := range []string{"parent_id", "type", "path", "name", "visibility", "traversal_ids", "deletion_scheduled_by"} {
		if a.cols[col] != b.cols[col] {
			cm.fail(c, col, a.cols[col], b.cols[col])
		}
	}
	if a.state != b.state {
		cm.fail(c, "state", cm.rules.name[a.state], cm.rules.name[b.state])
	}
	// Times: the application's calls write the time they run (after the test started); the import
	// the legacy one where the row has it, else its own.
	cm.times(c, "created_at", a.cols["created_at"], b.cols["created_at"], c.CreatedAt)
	cm.times(c, "updated_at", a.cols["updated_at"], b.cols["updated_at"], changedAt)
	switch {
	case c.state() == "deletion_in_progress" && c.ChangedAt == nil:
		// A deletion running with no date staged (GitLab's pending_delete without a mark): the import
		// makes none up (docs/design.md §10.1); the API's calls scheduled it at their own time.
		if tok := cm.token(a.cols["deletion_scheduled_at"], nil); tok != "now" || b.cols["deletion_scheduled_at"] != "null" {
			cm.fail(c, "deletion_scheduled_at", a.cols["deletion_scheduled_at"]+" (want the time of the call)",
				b.cols["deletion_scheduled_at"]+" (want null: no date staged)")
		}
	case a.cols["deletion_scheduled_at"] == "null" || b.cols["deletion_scheduled_at"] == "null":
		if a.cols["deletion_scheduled_at"] != b.cols["deletion_scheduled_at"] {
			cm.fail(c, "deletion_scheduled_at", a.cols["deletion_scheduled_at"], b.cols["deletion_scheduled_at"])
		}
	default:
		cm.times(c, "deletion_scheduled_at", a.cols["deletion_scheduled_at"], b.cols["deletion_scheduled_at"], changedAt)
	}
	// The count of state changes: one per history row, on each side.
	for i, w := range []*written{a, b} {
		if w.cols["state_changes"] != strconv.Itoa(len(w.history)) {
			cm.diffs = append(cm.diffs, fmt.Sprintf("%s state_changes on the %s side: %s counted, %d history rows", c,
				[]string{"insert", "import"}[i], w.cols["state_changes"], len(w.history)))
		}
	}
	cm.history(c, a.history, b.history, changedAt)
	cm.details(c, a.details, b.details, changedAt, hasSteps)
	cm.redirects(c, ins, a, b)
}

func present(w *written) string {
	if w == nil {
		return "no namespace"
	}
	return "a namespace"
}

// times: the insert side's value is its own time, the import's the legacy one when there is one.
func (cm *comparison) times(c *candidate, col, ins, imp string, legacy *time.Time) {
	if tok := cm.token(ins, nil); tok != "now" {
		cm.fail(c, col, ins+" (want the time of the call)", imp)
	}
	want := "now"
	if legacy != nil {
		want = "legacy"
	}
	if tok := cm.token(imp, legacy); tok != want {
		w := "the time of the import"
		if legacy != nil {
			w = legacy.UTC().Format(time.RFC3339Nano)
		}
		cm.fail(c, col, ins, imp+" (want "+w+")")
	}
}

// token: "legacy" for the legacy time, "now" for a time since the test began.
func (cm *comparison) token(v string, legacy *time.Time) string {
	at, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return "unparsable " + v
	}
	if legacy != nil && at.Equal(*legacy) {
		return "legacy"
	}
	if !at.Before(cm.start) {
		return "now"
	}
	return v
}

func (h historyRow) String() string {
	return fmt.Sprintf("%s->%s event=%q actor=%v source=%s metadata=%s", h.From, h.To, h.Event, deref(h.Actor), h.Source, h.Metadata)
}

// history: the API writes one row per call (source api, its own time, no metadata); the import
// one from active to the state (source import, the legacy time, reason imported). Both with the
// candidate's actor, from active to the candidate's state.
func (cm *comparison) history(c *candidate, ins, imp []historyRow, legacy *time.Time) {
	render := func(hs []historyRow) string {
		s := make([]string, len(hs))
		for i, h := range hs {
			s[i] = h.String()
		}
		return "[" + strings.Join(s, "; ") + "]"
	}
	if len(ins) == 0 && len(imp) == 0 {
		return
	}
	ok := len(ins) > 0 && len(imp) == 1 && ins[0].From == imp[0].From && ins[len(ins)-1].To == imp[0].To
	for i, h := range ins {
		ok = ok && h.Source == "api" && h.Metadata == "{}" && h.Event == "" && fmt.Sprint(deref(h.Actor)) == fmt.Sprint(deref(c.ChangedBy)) &&
			!h.At.Before(cm.start) && (i == 0 || h.From == ins[i-1].To)
	}
	if len(imp) == 1 {
		h := imp[0]
		ok = ok && h.Source == "import" && h.Metadata == `{"reason": "imported"}` && h.Event == "" &&
			fmt.Sprint(deref(h.Actor)) == fmt.Sprint(deref(c.ChangedBy)) &&
			((legacy != nil && h.At.Equal(*legacy)) || (legacy == nil && !h.At.Before(cm.start)))
	}
	if !ok {
		cm.fail(c, "history", render(ins), render(imp))
	}
}

// details: the same keys and values, but for the times (as above) and, for a row no state call
// changed, the actor: the import keeps the legacy one, a new namespace names none.
func (cm *comparison) details(c *candidate, ins, imp map[string]any, legacy *time.Time, hasSteps bool) {
	keys := map[string]bool{}
	for k := range ins {
		keys[k] = true
	}
	for k := range imp {
		keys[k] = true
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}) {
		a, aok := ins[k]
		b, bok := imp[k]
		as, bs := fmt.Sprint(a), fmt.Sprint(b)
		if !aok {
			as = "(none)"
		}
		if !bok {
			bs = "(none)"
		}
		switch k {
		case "last_updated_at":
			if aok && bok {
				cm.times(c, "details."+k, as, bs, legacy)
				continue
			}
		case "last_changed_by_user_id":
			want := fmt.Sprint(deref(c.ChangedBy))
			if b == nil {
				bs = "null"
			}
			if a == nil {
				as = "null"
			}
			// No call changed the new namespace: its details name no one; the import's the legacy actor.
			if !hasSteps && as == "null" && bs == want {
				continue
			}
		}
		if as != bs {
			cm.fail(c, "details."+k, as, bs)
		}
	}
}

// redirects: none for the INSERT (nothing was renamed); for the import, one (kind import) from the
// legacy path, lowercased, to the normalised one, when they differ by more than case and no live
// sibling holds the lowercased path, and one from the exact legacy path when it has capitals and
// differs from the normalised one by more than case; and the normalised path is path_normalised's, with the id
// appended when that was reserved or taken.
func (cm *comparison) redirects(c *candidate, ins *insVerdict, a, b *written) {
	if len(a.redirects) > 0 {
		cm.fail(c, "redirects", strings.Join(a.redirects, "; "), strings.Join(b.redirects, "; "))
	}
	var want []string
	if ins.retried {
		final := b.cols["path"]
		norm := cm.normalised[c.ID]
		suffix := "-" + strconv.FormatInt(c.ID, 10)
		if final != norm && !(strings.HasSuffix(final, suffix) && strings.HasPrefix(norm, strings.TrimSuffix(final, suffix))) {
			cm.fail(c, "path", final, fmt.Sprintf("%s (want %s, or it with %s)", final, norm, suffix))
		}
		lower := strings.ToLower(*c.Path)
		prefix := ""
		if cm.parentFullPath[c.ID] != "" {
			prefix = cm.parentFullPath[c.ID] + "/"
		}
		if lower != final && !cm.heldLower[c.ID] {
			want = append(want, "import "+prefix+lower+" -> "+prefix+final+" by null")
		}
		// And one from the exact legacy path, case kept, when it has capitals (issue 26: a user
		// ACME beside a group acme resolves to the user).
		if *c.Path != lower && lower != final {
			want = append(want, "import "+prefix+*c.Path+" -> "+prefix+final+" by null")
		}
	}
	if strings.Join(want, "; ") != strings.Join(b.redirects, "; ") {
		cm.fail(c, "redirects", strings.Join(a.redirects, "; "), strings.Join(b.redirects, "; ")+" (want "+strings.Join(want, "; ")+")")
	}
}

func (cm *comparison) tally() string {
	keys := make([]string, 0, len(cm.pairs))
	for k := range cm.pairs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-90s %5d\n", k, cm.pairs[k])
	}
	return b.String()
}

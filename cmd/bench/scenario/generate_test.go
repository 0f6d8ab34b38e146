package scenario

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// The generator builds the shape asked for, through every trigger or through the import: as many
// namespaces, depth within the limit, a heavy tail, the shares of archived and scheduled projects,
// and a database that check_invariants finds consistent. Both loads leave the same namespaces.
func TestGenerateBuildsTheShapeThroughTheTriggersOrTheImport(t *testing.T) {
	digests := map[bool]string{}
	for _, byImport := range []bool{false, true} {
		t.Run(map[bool]string{false: "copy", true: "import"}[byImport], func(t *testing.T) {
			digests[byImport] = generateAndCheck(t, byImport)
		})
	}
	if digests[false] == "" || digests[false] != digests[true] {
		t.Fatalf("the namespaces (ids, parents, paths, traversal_ids, states, visibility) differ between the loads: %q by COPY, %q by the import",
			digests[false], digests[true])
	}
}

// generateAndCheck generates 4,000 namespaces, checks them and returns a digest of what they are.
func generateAndCheck(t *testing.T, byImport bool) string {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dbtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	shape := DefaultShape(4000)
	shape.HeavyGroups = 2
	shape.ByImport = byImport
	loaded, err := Generate(ctx, pool, shape)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", *loaded)

	var n, archived, scheduled, maxDepth, details, violations int
	err = pool.QueryRow(ctx, `select count(*), count(*) filter (where state = 1), count(*) filter (where state = 2),
		max(cardinality(traversal_ids)), (select count(*) from lifecycle.namespace_details),
		(select count(*) from lifecycle.check_invariants())
		from lifecycle.namespaces`).Scan(&n, &archived, &scheduled, &maxDepth, &details, &violations)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4000 || details != n || violations != 0 {
		t.Fatalf("%d namespaces (%d details rows, %d invariant violations), want 4000 with a details row each and none", n, details, violations)
	}
	if maxDepth > shape.MaxDepth || maxDepth < 5 {
		t.Fatalf("depth %d, want deep but at most %d", maxDepth, shape.MaxDepth)
	}
	if archived != loaded.Archived || scheduled != loaded.Scheduled || archived < loaded.Projects/25 || scheduled < loaded.Projects/200 {
		t.Fatalf("%d archived and %d scheduled of %d projects, want about 5%% and 1%%", archived, scheduled, loaded.Projects)
	}
	for i, d := range loaded.HeavyDescendants {
		if d < n/10 {
			t.Fatalf("heavy group %d has %d descendants, want a heavy tail (at least %d)", i, d, n/10)
		}
	}
	var next int64
	if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'after', 'after')
		returning id`, loaded.Roots[0]).Scan(&next); err != nil || next <= int64(n) {
		t.Fatalf("an INSERT after the load got id %d (%v): the identity must continue after the generated ids", next, err)
	}
	var digest string
	if err := pool.QueryRow(ctx, `select md5(string_agg(concat_ws(' ', id, parent_id, type, path, name, traversal_ids, state, visibility), ',' order by id))
		from lifecycle.namespaces where id <= $1`, n).Scan(&digest); err != nil {
		t.Fatal(err)
	}
	return digest
}

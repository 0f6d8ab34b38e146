package db_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

func insert(t *testing.T, q *db.Queries, parent *int64, typ, path string) db.Namespace {
	t.Helper()
	ns, err := q.NamespaceInsert(context.Background(), db.NamespaceInsertParams{
		ParentID: parent, Type: typ, Path: path, Name: path,
	})
	if err != nil {
		t.Fatalf("insert %s %s: %v", typ, path, err)
	}
	return ns
}

func TestNamespaceTraversalIDsFollowTheParentChain(t *testing.T) {
	ctx := context.Background()
	q := db.New(dbtest.Pool(t))

	org := insert(t, q, nil, "organization", "acme")
	grp := insert(t, q, &org.ID, "group", "platform")
	sub := insert(t, q, &grp.ID, "group", "storage")
	prj := insert(t, q, &sub.ID, "project", "blobs")
	other := insert(t, q, &grp.ID, "project", "docs")

	want := map[int64][]int64{
		org.ID:   {org.ID},
		grp.ID:   {org.ID, grp.ID},
		sub.ID:   {org.ID, grp.ID, sub.ID},
		prj.ID:   {org.ID, grp.ID, sub.ID, prj.ID},
		other.ID: {org.ID, grp.ID, other.ID},
	}
	for id, ids := range want {
		got, err := q.NamespaceGetByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.TraversalIds, ids) {
			t.Errorf("namespace %d (%s): traversal_ids %v, want %v", id, got.Path, got.TraversalIds, ids)
		}
		if got.State != 0 {
			t.Errorf("namespace %d: state %d, want 0 (a plain INSERT starts active)", id, got.State)
		}
	}

	rows, err := q.NamespaceListSubtree(ctx, grp.ID)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range rows {
		paths = append(paths, r.FullPath)
	}
	// Depth-first, siblings by id: storage was created before docs, so its subtree comes first.
	wantPaths := []string{"acme/platform", "acme/platform/storage", "acme/platform/storage/blobs", "acme/platform/docs"}
	if !slices.Equal(paths, wantPaths) {
		t.Errorf("subtree of platform: %v, want %v", paths, wantPaths)
	}
}

func TestNamespaceInsertRefusesAProjectAsParent(t *testing.T) {
	q := db.New(dbtest.Pool(t))
	org := insert(t, q, nil, "organization", "initech")
	prj := insert(t, q, &org.ID, "project", "tps")

	_, err := q.NamespaceInsert(context.Background(), db.NamespaceInsertParams{
		ParentID: &prj.ID, Type: "project", Path: "inner", Name: "inner",
	})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "NS010" {
		t.Fatalf("insert below a project: %v, want SQLSTATE NS010", err)
	}
}

func TestNamespaceInsertRefusesAMissingParent(t *testing.T) {
	q := db.New(dbtest.Pool(t))
	missing := int64(-1)
	_, err := q.NamespaceInsert(context.Background(), db.NamespaceInsertParams{
		ParentID: &missing, Type: "group", Path: "orphan", Name: "orphan",
	})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "NS004" {
		t.Fatalf("insert below a missing parent: %v, want SQLSTATE NS004", err)
	}
}

// The test pools run with an empty search_path: a query that forgets its schema fails here rather
// than in a host application whose search_path differs.
func TestPoolsHaveAnEmptySearchPath(t *testing.T) {
	pool := dbtest.Pool(t)
	var sp string
	if err := pool.QueryRow(context.Background(), "show search_path").Scan(&sp); err != nil {
		t.Fatal(err)
	}
	if sp != `""` && sp != "" {
		t.Fatalf("search_path = %q, want empty", sp)
	}
	_, err := pool.Exec(context.Background(), "select count(*) from namespaces")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42P01" {
		t.Fatalf("unqualified table name: %v, want undefined_table", err)
	}
}

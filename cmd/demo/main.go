// Command demo seeds a small organization into the database named by DATABASE_URL and prints it as
// a tree. `make demo` runs it against a fresh database on the private cluster.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/db"
)

// seed is the demo hierarchy: each entry is a full path and a type; parents come before children.
var seed = []struct{ path, typ string }{
	{"acme", "organization"},
	{"acme/platform", "group"},
	{"acme/platform/storage", "group"},
	{"acme/platform/storage/blobs", "project"},
	{"acme/platform/storage/queues", "project"},
	{"acme/platform/web", "group"},
	{"acme/platform/web/site", "project"},
	{"acme/research", "group"},
	{"acme/research/ml", "group"},
	{"acme/research/ml/models", "project"},
}

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		log.Error("demo failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.Background())

	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	q := db.New(tx)
	ids := map[string]int64{}
	for _, s := range seed {
		var parent *int64
		if i := strings.LastIndexByte(s.path, '/'); i > 0 {
			id := ids[s.path[:i]]
			parent = &id
		}
		name := s.path[strings.LastIndexByte(s.path, '/')+1:]
		ns, err := q.NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: parent, Type: s.typ, Path: name, Name: name})
		if err != nil {
			return fmt.Errorf("create %s: %w", s.path, err)
		}
		ids[s.path] = ns.ID
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}

	fmt.Fprintf(out, "Created %d namespaces with plain INSERTs; the database filled traversal_ids.\n\n", len(seed))
	rows, err := db.New(conn).NamespaceListSubtree(ctx, ids["acme"])
	if err != nil {
		return err
	}
	printTree(out, rows)
	return nil
}

// printTree draws the depth-first rows (ordered by traversal_ids) as an indented tree.
func printTree(out io.Writer, rows []db.NamespaceListSubtreeRow) {
	base := len(rows[0].TraversalIds)
	for i, r := range rows {
		depth := len(r.TraversalIds) - base
		var b strings.Builder
		for d := 1; d <= depth; d++ {
			last := !hasLaterSibling(rows, i, base+d)
			switch {
			case d < depth && last:
				b.WriteString("    ")
			case d < depth:
				b.WriteString("│   ")
			case last:
				b.WriteString("└── ")
			default:
				b.WriteString("├── ")
			}
		}
		fmt.Fprintf(out, "%-44s %-12s id=%-3d traversal_ids=%v\n", b.String()+r.Path, r.Type, r.ID, r.TraversalIds)
	}
}

// hasLaterSibling tells whether, after row i, another row shares i's ancestor at the given depth
// (the ancestor's depth-level prefix) before the subtree ends: then that level's line continues.
func hasLaterSibling(rows []db.NamespaceListSubtreeRow, i, level int) bool {
	prefix := rows[i].TraversalIds[:level-1]
	for _, r := range rows[i+1:] {
		if len(r.TraversalIds) < level || !slices.Equal(r.TraversalIds[:level-1], prefix) {
			return false
		}
		if len(r.TraversalIds) == level {
			return true
		}
	}
	return false
}

package docs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// docPreludes are what a page's first block takes as already done, as its text says: adoption.md
// walks GitLab's own tables, loaded into schema legacy (its "The legacy shape" shows the commands).
var docPreludes = map[string]func(ctx context.Context, tx pgx.Tx) error{
	"adoption.md": func(ctx context.Context, tx pgx.Tx) error {
		return adopt.LoadGitLabStructure(ctx, tx, "legacy")
	},
}

// sqlBlocks returns the ```sql fenced blocks of a Markdown file, in order.
func sqlBlocks(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```sql":
			cur = &strings.Builder{}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	if cur != nil {
		t.Fatalf("%s: a ```sql block is not closed", path)
	}
	return blocks
}

var expectedError = regexp.MustCompile(`(?m)^-- error: ([0-9A-Z]{5})\s*\z`)

// Every SQL example in the README and docs/ runs: per file, its blocks in order, in one
// transaction on a fresh migrated database (rolled back at the end), each in a savepoint. A block
// whose last line is `-- error: NSxxx` must fail with that SQLSTATE; every other block must succeed.
func TestEverySQLExampleInTheDocsRuns(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join("..", "README.md")}, files...)
	total := 0
	for _, file := range files {
		blocks := sqlBlocks(t, file)
		if len(blocks) == 0 {
			continue
		}
		t.Run(file, func(t *testing.T) {
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, dbtest.NewDatabase(t))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if prelude := docPreludes[file]; prelude != nil {
				if err := prelude(ctx, tx); err != nil {
					t.Fatal(err)
				}
			}
			for i, block := range blocks {
				if _, err := tx.Exec(ctx, "savepoint example"); err != nil {
					t.Fatal(err)
				}
				// No arguments: the simple protocol, so a block may hold several statements.
				_, err := tx.Exec(ctx, block)
				want := ""
				if m := expectedError.FindStringSubmatch(strings.TrimRight(block, "\n")); m != nil {
					want = m[1]
				}
				var pgErr *pgconn.PgError
				switch {
				case want == "" && err != nil:
					t.Fatalf("block %d fails: %v\n%s", i+1, err, block)
				case want != "" && !(errors.As(err, &pgErr) && pgErr.Code == want):
					t.Fatalf("block %d: %v, want SQLSTATE %s\n%s", i+1, err, want, block)
				case want != "":
					if _, err := tx.Exec(ctx, "rollback to savepoint example"); err != nil {
						t.Fatal(err)
					}
				}
			}
			total += len(blocks)
		})
	}
	if total == 0 {
		t.Fatal("found no SQL examples to run")
	}
}

var mermaidEdge = regexp.MustCompile(`^\s*(\[\*\]|s\d) --> s(\d): (\w+)$`)

// The state diagram in docs/states.md and lifecycle.state_transitions agree: the same edges, each
// labelled with its audit action.
func TestStateDiagramMatchesTheTransitionTable(t *testing.T) {
	b, err := os.ReadFile("states.md")
	if err != nil {
		t.Fatal(err)
	}
	var drawn []string
	for _, line := range strings.Split(string(b), "\n") {
		if m := mermaidEdge.FindStringSubmatch(line); m != nil {
			from := strings.TrimPrefix(m[1], "s")
			drawn = append(drawn, fmt.Sprintf("%s>%s:%s", from, m[2], m[3]))
		}
	}
	rows, err := dbtest.Pool(t).Query(context.Background(), `select coalesce(from_state::text, '[*]') || '>' || to_state || ':' || audit_action
		from lifecycle.state_transitions`)
	if err != nil {
		t.Fatal(err)
	}
	table, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(drawn)
	slices.Sort(table)
	if len(table) == 0 || !slices.Equal(drawn, table) {
		t.Fatalf("docs/states.md draws %v\nlifecycle.state_transitions holds %v\n(make generate redraws it)", drawn, table)
	}
}

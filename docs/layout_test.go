package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's layout table is how a newcomer finds their way: every path it names exists, and
// every directory under cmd/ and internal/ (and at the top) is named in it, so a package moved or
// added without its row fails here rather than in a reader's hands.
func TestTheReadmesLayoutTableMatchesTheTree(t *testing.T) {
	root := ".."
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no \"## Layout\" section")
	}
	table, _, _ = strings.Cut(table, "\n## ")

	// The first cell of each row names one or more paths in backquotes.
	named := map[string]bool{}
	cell := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line, "|", 3)[1]
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			p := strings.TrimSuffix(m[1], "/")
			named[p] = true
			// Patterns (sql/NNN_*.sql, tests/<function>/…, *_test.go at the root) name a shape,
			// not a path; they are checked by the tests that own those files.
			if strings.ContainsAny(p, "*<") || strings.Contains(p, "NNN") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("the layout table names %s, which does not exist", m[1])
			}
		}
	}
	if len(named) < 20 {
		t.Fatalf("only %d paths read from the layout table: the parse is not finding its rows", len(named))
	}

	var dirs []string
	for _, parent := range []string{"cmd", "internal"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, parent+"/"+e.Name())
			}
		}
	}
	for _, e := range mustReadDir(t, root) {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "cmd" && e.Name() != "internal" {
			dirs = append(dirs, e.Name())
		}
	}
	for _, d := range dirs {
		if named[d] {
			continue
		}
		// A top-level directory is named by any row under it (tests/<function>/…, sql/functions/).
		found := false
		for p := range named {
			if strings.HasPrefix(p, d+"/") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s/ is not in the README's layout table", d)
		}
	}
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

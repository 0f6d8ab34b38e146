package docs_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The repository stands alone (docs/design.md is its contract): every relative link in its
// Markdown resolves to a file or directory inside the repository, and no tracked file points at
// the sibling folder the founding documents lived in (outsideDocs), which a clone does not have.
func TestRelativeLinksResolveInsideTheRepository(t *testing.T) {
	// Built from parts, so this file does not contain what it looks for.
	outsideDocs := filepath.Join("..", "sha"+"red")
	root, err := filepath.Abs("..") // the repository, from docs/
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-co", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): nothing to list the repository's files with", err)
	}
	files := strings.Fields(string(out))
	link := regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	var checked int
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // listed but gone (deleted in the working tree)
		}
		if bytes.Contains(b, []byte(outsideDocs)) {
			t.Errorf("%s points at %s, outside the repository", f, outsideDocs)
		}
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			abs := filepath.Clean(filepath.Join(root, filepath.Dir(f), target))
			checked++
			if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
				t.Errorf("%s: link %s leaves the repository", f, m[1])
				continue
			}
			if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s: link %s does not resolve (%v)", f, m[1], err)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d relative links checked: the scan is not finding the docs' links", checked)
	}
}

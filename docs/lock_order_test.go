package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// A step of the order, as the head of namespace_lock_path.sql numbers it: "--   0.5. …".
	lockStep = regexp.MustCompile(`(?m)^--\s+([0-9]+(?:\.[0-9]+)?)\.\s`)
	// "step 2", "steps 1 and 2", "Step 2 then 4", "(step 0.5 of the lock order)".
	stepMention = regexp.MustCompile(`\b[Ss]teps? ([0-9]+(?:\.[0-9]+)?)((?:(?:,| and| then| or) [0-9]+(?:\.[0-9]+)?)*)`)
	stepNumber  = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?`)
)

// The global lock order is written once, at the head of sql/functions/namespace_lock_path.sql;
// everything else names its steps by number. Every step named in the live SQL and in a paragraph
// of the pages that speaks of locks is one that head numbers, so a step renumbered or removed
// there cannot leave a page pointing at nothing.
func TestEveryLockStepNamedIsOneTheOrderHas(t *testing.T) {
	head, err := os.ReadFile(filepath.Join("..", "sql", "functions", "namespace_lock_path.sql"))
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string]bool{}
	for _, m := range lockStep.FindAllStringSubmatch(string(head), -1) {
		steps[m[1]] = true
	}
	for _, want := range []string{"0", "1", "2", "6"} {
		if !steps[want] {
			t.Fatalf("the head of namespace_lock_path.sql numbers steps %v: step %s not found, the pattern no longer reads it", steps, want)
		}
	}

	var files []string
	for _, pattern := range []string{"../sql/functions/*.sql", "../sql/triggers/*.sql", "*.md", "../README.md", "../sql/README.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var named int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		isSQL := strings.HasSuffix(f, ".sql")
		// Pages number other things too (the walk of adoption.md): only a paragraph about locks
		// names lock steps. In the SQL, "step" is the lock order's word.
		for _, para := range strings.Split(string(b), "\n\n") {
			if !isSQL && !strings.Contains(strings.ToLower(para), "lock") {
				continue
			}
			for _, m := range stepMention.FindAllString(para, -1) {
				for _, n := range stepNumber.FindAllString(m, -1) {
					named++
					if !steps[n] {
						t.Errorf("%s: %q names step %s, which the lock order (namespace_lock_path.sql) does not have", f, m, n)
					}
				}
			}
		}
	}
	if named < 20 {
		t.Fatalf("found %d lock steps named: the pattern no longer finds them", named)
	}
	t.Logf("%d lock steps named, each one the order has (%d steps)", named, len(steps))
}

// Package flagdoc writes a binary's flags into the docs from its own flag set, so the tables in
// docs/operations.md cannot drift from the flags the binaries accept: Table renders a flag set,
// Replace puts it between a binary's markers. The binaries' tests compare the docs with it, and
// make generate rewrites them (scripts/generate.sh).
package flagdoc

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Table is a Markdown table of a flag set: one row per flag, in name order, with its default and
// its usage text.
func Table(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString("| flag | default | meaning |\n| --- | --- | --- |\n")
	fs.VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		def := "–"
		if f.DefValue != "" {
			def = "`" + f.DefValue + "`"
		}
		fmt.Fprintf(&b, "| `-%s` | %s | %s |\n", f.Name, def, cell(usage))
	})
	return b.String()
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// Begin is the marker line after which a binary's generated table starts; End ends it.
func Begin(binary string) string {
	return fmt.Sprintf("<!-- the flags of %s, generated from its flag set by make generate: do not edit -->", binary)
}

const End = "<!-- end of generated -->"

// Replace returns doc with the lines between binary's Begin marker and the next End marker
// replaced by table.
func Replace(doc []byte, binary, table string) ([]byte, error) {
	begin := []byte(Begin(binary) + "\n")
	i := bytes.Index(doc, begin)
	if i < 0 {
		return nil, fmt.Errorf("no line %q", Begin(binary))
	}
	i += len(begin)
	j := bytes.Index(doc[i:], []byte(End))
	if j < 0 {
		return nil, fmt.Errorf("no %q after %q", End, Begin(binary))
	}
	out := append([]byte{}, doc[:i]...)
	out = append(out, table...)
	return append(out, doc[i+j:]...), nil
}

// GenerateEnv, set to 1, makes Check rewrite the docs instead of comparing (make generate).
const GenerateEnv = "NSLIFECYCLE_GENERATE"

// Check compares the table between binary's markers in the Markdown file at path with Table of
// the flag set newFlagSet builds, or, with GenerateEnv=1, rewrites the file. The flag set is
// built with every LIFECYCLE_* environment variable unset, so that a default read from the
// environment is documented as the binary's own.
func Check(t *testing.T, path, binary string, newFlagSet func() *flag.FlagSet) {
	t.Helper()
	for _, kv := range os.Environ() {
		if name, value, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "LIFECYCLE_") {
			os.Unsetenv(name)
			t.Cleanup(func() { os.Setenv(name, value) })
		}
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Replace(doc, binary, Table(newFlagSet()))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if os.Getenv(GenerateEnv) == "1" {
		if !bytes.Equal(doc, want) {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the flags of %s in %s", binary, path)
		}
		return
	}
	if !bytes.Equal(doc, want) {
		t.Fatalf("the flags table of %s in %s is stale (make generate rewrites it); it should read:\n%s", binary, path, Table(newFlagSet()))
	}
}

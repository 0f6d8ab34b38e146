package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

// The shipped unit files pass systemd-analyze verify, with the paths that exist only on a target
// machine (the binary, the environment file, the metrics directory) pointed at this test's own.
func TestSystemdUnitsVerify(t *testing.T) {
	analyze := testtools.Command(t, "systemd-analyze", "systemd") // installed when missing, or the test skipped
	dir := t.TempDir()
	env := filepath.Join(dir, "sweeper.env")
	metrics := filepath.Join(dir, "metrics")
	if err := os.WriteFile(env, []byte("DATABASE_URL=postgres://localhost/app\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(metrics, 0o755); err != nil {
		t.Fatal(err)
	}
	service, err := os.ReadFile("../../deploy/systemd/lifecycle-sweeper.service")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("/usr/local/bin/lifecycle-sweeper", binary, "/etc/nslifecycle/sweeper.env", env,
		"/var/lib/prometheus/node-exporter", metrics).Replace(string(service))
	if s == string(service) {
		t.Fatal("the unit no longer names the paths this test replaces")
	}
	if err := os.WriteFile(filepath.Join(dir, "lifecycle-sweeper.service"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	timer, err := os.ReadFile("../../deploy/systemd/lifecycle-sweeper.timer")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lifecycle-sweeper.timer"), timer, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", "--man=no",
		filepath.Join(dir, "lifecycle-sweeper.service"), filepath.Join(dir, "lifecycle-sweeper.timer")).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// Every unit's Documentation= is a file that the install instructions in docs/operations.md
// create: the lines of its ```sh blocks that install into that directory are run with the
// directory moved into a scratch one, and each named file must then be there, a copy of the
// repository's.
func TestUnitsDocumentationIsInstalledByTheInstructions(t *testing.T) {
	units, err := filepath.Glob("../../deploy/systemd/*")
	if err != nil || len(units) == 0 {
		t.Fatalf("no units in deploy/systemd: %v", err)
	}
	var docs []string
	for _, unit := range units {
		b, err := os.ReadFile(unit)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			value, ok := strings.CutPrefix(line, "Documentation=")
			if !ok {
				continue
			}
			for _, uri := range strings.Fields(value) {
				path, ok := strings.CutPrefix(uri, "file:")
				if !ok {
					t.Errorf("%s: Documentation=%s: only file: paths are installed (there is no man page or web site)", unit, uri)
					continue
				}
				docs = append(docs, path)
			}
		}
	}
	if len(docs) == 0 {
		t.Fatal("no unit has a Documentation= line")
	}

	guide, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	installed := 0
	inSh := false
	for _, line := range strings.Split(string(guide), "\n") {
		switch strings.TrimSpace(line) {
		case "```sh":
			inSh = true
			continue
		case "```":
			inSh = false
			continue
		}
		if !inSh {
			continue
		}
		for _, dir := range docDirs(docs) {
			if !strings.Contains(line, dir) {
				continue
			}
			cmd := exec.Command("sh", "-ec", strings.ReplaceAll(line, dir, filepath.Join(scratch, dir)))
			cmd.Dir = "../.."
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", line, err, out)
			}
			installed++
		}
	}
	if installed == 0 {
		t.Fatalf("docs/operations.md has no install line for %v", docDirs(docs))
	}
	for _, doc := range docs {
		got, err := os.ReadFile(filepath.Join(scratch, doc))
		if err != nil {
			t.Errorf("the units name %s, which the install instructions do not create: %v", doc, err)
			continue
		}
		want, err := os.ReadFile(filepath.Join("../../docs", filepath.Base(doc)))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is not a copy of docs/%s: %v", doc, filepath.Base(doc), err)
		}
	}
}

// docDirs are the directories of the given paths, once each.
func docDirs(paths []string) []string {
	var dirs []string
	for _, p := range paths {
		if d := filepath.Dir(p); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

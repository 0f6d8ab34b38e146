package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

// The shipped units (the syncer, and its template for several on one host, as an instance) pass
// systemd-analyze verify, with the paths that exist only on a target machine (the binary, the
// environment file) pointed at this test's own.
func TestSystemdUnitVerifies(t *testing.T) {
	for file, as := range map[string]string{"lifecycle-syncer.service": "lifecycle-syncer.service",
		"lifecycle-syncer@.service": "lifecycle-syncer@9188.service"} {
		t.Run(file, func(t *testing.T) { verifyUnit(t, file, as) })
	}
}

func verifyUnit(t *testing.T, file, as string) {
	analyze := testtools.Command(t, "systemd-analyze", "systemd") // installed when missing, or the test skipped
	dir := t.TempDir()
	env := filepath.Join(dir, "syncer.env")
	if err := os.WriteFile(env, []byte("DATABASE_URL=postgres://localhost/app\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unit, err := os.ReadFile("../../deploy/systemd/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("/usr/local/bin/lifecycle-syncer", binary, "/etc/nslifecycle/syncer.env", env).Replace(string(unit))
	if s == string(unit) {
		t.Fatal("the unit no longer names the paths this test replaces")
	}
	path := filepath.Join(dir, as)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", "--man=no", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// A syncer whose role the server refuses a replication connection exits with
// exitNoReplicationRight, and the units do not restart it for that status (a restart cannot grant
// the right; any other exit is restarted).
func TestTheUnitsDoNotRestartASyncerThatLacksTheReplicationRight(t *testing.T) {
	want := "RestartPreventExitStatus=" + strconv.Itoa(exitNoReplicationRight)
	for _, file := range []string{"lifecycle-syncer.service", "lifecycle-syncer@.service"} {
		unit, err := os.ReadFile("../../deploy/systemd/" + file)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, line := range strings.Split(string(unit), "\n") {
			if strings.HasPrefix(line, "Restart") {
				lines = append(lines, line)
			}
		}
		if !slices.Contains(lines, want) || !slices.Contains(lines, "Restart=always") {
			t.Errorf("%s: %v, want Restart=always and %s", file, lines, want)
		}
	}
}

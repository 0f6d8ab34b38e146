package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The shipped unit files pass systemd-analyze verify, with the paths that exist only on a target
// machine (the binary, the environment file, the metrics directory) pointed at this test's own.
func TestSystemdUnitsVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed here")
	}
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

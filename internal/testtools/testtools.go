// Package testtools gives tests the outside programs they drive: a command from a Debian package
// (psql, pgbouncer, systemd-analyze), python3 with psycopg, node with npm packages, and a running
// PgBouncer. What is missing is installed (apt-get as root or with sudo -n, npm into a cache
// directory); when that cannot be done the test is skipped with the reason, which make test lists
// at the end of its run.
//
// Installs are serialised across test processes (go test runs packages in parallel) by a file
// lock, so two packages that need the same package install it once.
package testtools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Command returns the path of an executable, installing the Debian package that provides it when
// it is not on PATH (nor in /usr/sbin, where some packages put daemons). It skips the test when
// the program is missing and cannot be installed.
func Command(t testing.TB, name, debianPackage string) string {
	t.Helper()
	if p, ok := lookPath(name); ok {
		return p
	}
	if err := withInstallLock(func() error {
		if _, ok := lookPath(name); ok {
			return nil // installed by another test process while this one waited
		}
		return aptInstall(debianPackage)
	}); err != nil {
		t.Skipf("%s is not installed and could not be installed (Debian package %s): %v", name, debianPackage, err)
	}
	p, ok := lookPath(name)
	if !ok {
		t.Skipf("%s is still missing after installing the Debian package %s", name, debianPackage)
	}
	return p
}

func lookPath(name string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

var aptUpdated sync.Once

// aptInstall installs Debian packages with apt-get: as root, or with sudo when it needs no password.
func aptInstall(packages ...string) error {
	if _, err := exec.LookPath("apt-get"); err != nil {
		return errors.New("no apt-get on this machine")
	}
	var prefix []string
	if os.Geteuid() != 0 {
		if _, err := exec.LookPath("sudo"); err != nil {
			return errors.New("not root, and no sudo")
		}
		prefix = []string{"sudo", "-n"}
	}
	run := func(args ...string) error {
		args = append(append(prefix, "env", "DEBIAN_FRONTEND=noninteractive"), args...)
		cmd := exec.Command(args[0], args[1:]...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, tail(out.String(), 20))
		}
		return nil
	}
	fmt.Fprintf(os.Stderr, "testtools: installing %s with apt-get (missing here)\n", strings.Join(packages, " "))
	var err error
	aptUpdated.Do(func() { err = run("apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-qq") })
	if err != nil {
		return err
	}
	return run(append([]string{"apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-qq", "--no-install-recommends",
		"-o", "Dpkg::Options::=--force-confold"}, packages...)...)
}

// PythonWithPsycopg returns a python3 interpreter that imports psycopg (version 3), installing
// Debian's python3-psycopg when none does. The python3 first on PATH may be another installation
// (pyenv) that does not see Debian's packages, so /usr/bin/python3 is tried too.
func PythonWithPsycopg(t testing.TB) string {
	t.Helper()
	find := func() (string, bool) {
		for _, py := range []string{"python3", "/usr/bin/python3"} {
			p, err := exec.LookPath(py)
			if err != nil {
				continue
			}
			if exec.Command(p, "-c", "import psycopg").Run() == nil {
				return p, true
			}
		}
		return "", false
	}
	if p, ok := find(); ok {
		return p
	}
	if err := withInstallLock(func() error {
		if _, ok := find(); ok {
			return nil
		}
		return aptInstall("python3", "python3-psycopg")
	}); err != nil {
		t.Skipf("no python3 with psycopg, and Debian's python3-psycopg could not be installed: %v", err)
	}
	p, ok := find()
	if !ok {
		t.Skip("python3 cannot import psycopg even after installing python3-psycopg")
	}
	return p
}

// NodeModules returns a directory whose node_modules holds the given npm packages (exact versions,
// "pg@8.23.1"), installed once with npm into the user's cache directory and reused after that.
// Scripts that import them must be written into this directory (ES modules resolve packages from
// the importing file's directory, not from NODE_PATH). It also returns the path of node.
func NodeModules(t testing.TB, packages ...string) (dir, node string) {
	t.Helper()
	node = Command(t, "node", "nodejs")
	npm := Command(t, "npm", "npm")
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(strings.Join(packages, " ")))
	dir = filepath.Join(cache, "nslifecycle-test-npm", hex.EncodeToString(sum[:6]))
	installed := func() bool {
		for _, p := range packages {
			name := p
			if i := strings.LastIndex(p, "@"); i > 0 {
				name = p[:i]
			}
			if _, err := os.Stat(filepath.Join(dir, "node_modules", name, "package.json")); err != nil {
				return false
			}
		}
		return true
	}
	if installed() {
		return dir, node
	}
	if err := withInstallLock(func() error {
		if installed() {
			return nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "testtools: installing %s with npm into %s\n", strings.Join(packages, " "), dir)
		cmd := exec.Command(npm, append([]string{"install", "--no-audit", "--no-fund", "--no-save", "--no-package-lock",
			"--loglevel=error", "--prefix", dir}, packages...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("npm install: %v\n%s", err, tail(string(out), 20))
		}
		return nil
	}); err != nil {
		t.Skipf("the npm packages %s could not be installed: %v", strings.Join(packages, " "), err)
	}
	if !installed() {
		t.Skipf("npm reported success but %s is not in %s", strings.Join(packages, " "), dir)
	}
	return dir, node
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

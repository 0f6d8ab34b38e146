package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes a subprocess get SIGKILL when the test binary dies (a test timeout, a
// kill), so no stray binary keeps running, or keeps a replication slot busy, after the tests.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

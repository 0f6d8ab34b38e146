package testtools

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes a started program get SIGKILL when the test binary dies (a test timeout, a
// kill), so no stray PgBouncer outlives the tests.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

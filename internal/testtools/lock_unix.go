//go:build unix

package testtools

import (
	"os"
	"path/filepath"
	"syscall"
)

// withInstallLock runs fn holding an exclusive lock on a file shared by every test process on the
// machine (apt-get and npm must not run twice at once, and the second process then finds the
// program installed).
func withInstallLock(fn func() error) error {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "nslifecycle-testtools.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return fn()
}

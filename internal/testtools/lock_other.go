//go:build !unix

package testtools

import "errors"

// withInstallLock: installing is only done on Unix machines with apt-get.
func withInstallLock(func() error) error {
	return errors.New("installing test programs is supported on Unix only")
}

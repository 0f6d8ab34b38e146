//go:build !linux

package testtools

import "os/exec"

func dieWithParent(*exec.Cmd) {}

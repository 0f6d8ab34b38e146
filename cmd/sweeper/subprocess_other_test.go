//go:build !linux

package main

import "os/exec"

// dieWithParent is Linux-only (Pdeathsig); elsewhere the tests' cleanups stop their subprocesses.
func dieWithParent(*exec.Cmd) {}

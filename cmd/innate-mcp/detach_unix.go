//go:build !windows

package main

import (
	"os/exec"
	"syscall"
)

// detach makes cmd a session of its own, so that it outlives the hook
// that starts it and no signal to the hook's process group reaches it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

//go:build windows

package main

import (
	"os/exec"
	"syscall"
)

// detach starts cmd without a console and in a process group of its own,
// so that it outlives the hook that starts it.
func detach(cmd *exec.Cmd) {
	const detachedProcess = 0x00000008
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

package capture

import "syscall"

// setDeathSignal has the kernel kill the command when ctx dies without
// stopping it (kill -9): in --pipe mode nothing else would (a pty's hangup
// reaches the terminal's process group; a pipe has none). Only the direct
// child gets it; its own children are stopped with the group on any
// orderly exit.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

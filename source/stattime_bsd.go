//go:build darwin || freebsd || netbsd

package source

import "syscall"

// statTimes returns a stat's modification and change times.
func statTimes(st *syscall.Stat_t) (mtim, ctim syscall.Timespec) { return st.Mtimespec, st.Ctimespec }

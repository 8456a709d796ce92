//go:build !linux

package store

import "os"

// startWriteback is a no-op where sync_file_range does not exist; the fsync
// at commit does all the work.
func startWriteback(*os.File, int64, int64) {}

// waitWriteback is a no-op where sync_file_range does not exist.
func waitWriteback(*os.File, int64, int64) {}

// releasePages is a no-op where posix_fadvise is not used.
func releasePages(*os.File, int64, int64) {}

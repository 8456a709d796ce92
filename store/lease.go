package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// leaseName is the file whose flock is the maintenance lease: one gc or
// compaction at a time per store. The kernel drops a flock when its holder
// dies, so a lease left by a killed process is taken over at once — there is
// no stale lease to expire.
const leaseName = "maintenance.lock"

// ErrBusy: another process holds the maintenance lease (a gc or compaction is
// running).
var ErrBusy = errors.New("another ctx gc or compaction is running")

// lease takes the maintenance lease, waiting up to the lock timeout when wait
// is set; otherwise a held lease is ErrBusy. The returned function releases it.
func (s *Store) lease(wait bool) (func(), error) {
	path := filepath.Join(s.dir, leaseName)
	f, err := openNoFollow(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, storeErr(s.dir, "take maintenance lease", err)
	}
	deadline := time.Now().Add(s.timeout)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, storeErr(path, "take maintenance lease", err)
		}
		if !wait || time.Now().After(deadline) {
			holder, _ := os.ReadFile(path)
			f.Close()
			return nil, hint(fmt.Errorf("%s (pid %s holds %s): %w", ErrBusy.Error(), bytesTrim(holder), path, ErrBusy),
				"wait for it to finish; it is released when that process exits")
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())), 0)
	return func() { f.Close() }, nil
}

func bytesTrim(b []byte) string {
	if len(b) == 0 || len(b) > 20 {
		return "?"
	}
	return string(b)
}

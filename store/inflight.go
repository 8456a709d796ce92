package store

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// InFlight is a capture still running: its spool's lock is held by a live ctx
// process.
type InFlight struct {
	SpoolMeta
	Stdout int64 `json:"stdout_bytes"` // bytes captured so far
	Stderr int64 `json:"stderr_bytes"`
}

// InFlight lists the captures running now, oldest first. It only reads: a
// spool whose lock is free (its ctx died) is left for Recover.
func (s *Store) InFlight() []InFlight {
	root := filepath.Join(s.dir, spoolName)
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []InFlight
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		held := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil
		f.Close()
		if !held {
			continue
		}
		var in InFlight
		mb, err := os.ReadFile(filepath.Join(dir, "meta.json"))
		if err != nil || json.Unmarshal(mb, &in.SpoolMeta) != nil {
			continue
		}
		in.Stdout, in.Stderr = spooledSize(dir, "stdout"), spooledSize(dir, "stderr")
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// spooledSize is how many bytes a stream has captured so far: the raw file
// past its header, or the ring position once the cap was passed.
func spooledSize(dir, name string) int64 {
	fi, err := os.Lstat(filepath.Join(dir, name+".raw"))
	if err != nil {
		return 0
	}
	n := max(fi.Size()-rawBase, 0)
	if pb, err := os.ReadFile(filepath.Join(dir, name+".ringpos")); err == nil && len(pb) == 8 {
		n = max(n, int64(binary.BigEndian.Uint64(pb)))
	}
	return n
}

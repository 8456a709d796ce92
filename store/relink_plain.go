package store

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// orphanReader returns the bytes an orphaned pack file holds, for repair to
// re-frame and hash: a plain pack (.raw, a capture's raw spool linked into
// packs/) after its spool header, any other pack through zstd. done releases
// the decoder.
func orphanReader(src *os.File) (r io.Reader, done func(), err error) {
	if !strings.HasSuffix(src.Name(), ".raw") {
		dec, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, nil, err
		}
		return dec, dec.Close, nil
	}
	var hdr [rawBase]byte
	if n, _ := src.ReadAt(hdr[:], 0); n != len(hdr) || !bytes.Equal(hdr[:], rawHeader) {
		return nil, nil, fmt.Errorf("%s does not start with the spool header", src.Name())
	}
	fi, err := src.Stat()
	if err != nil {
		return nil, nil, err
	}
	return io.NewSectionReader(src, rawBase, fi.Size()-rawBase), func() {}, nil
}

// unrestorable is what repair says of an orphaned pack that names a missing
// blob but could not be re-linked: the file is kept, and how to read what it
// holds.
func unrestorable(id ID, path string, runs []ID, err error) Problem {
	read := "zstd -dc " + path
	if strings.HasSuffix(path, ".raw") {
		read = "tail -c +17 " + path
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = HandleOf(KindRun, r)
	}
	return Problem{Handle: path, What: fmt.Sprintf(
		"names blob:%s, which %s needs, but was not re-linked (%v); the file and the run are kept for inspection (`%s` prints what it holds)",
		id.Short(), strings.Join(names, ", "), err, read)}
}

// relinkMissing re-links, for each missing blob that runs reference, the
// first of its orphaned pack files that holds it intact, and says what it
// did. It returns the runs to keep: those whose missing blob is named by a
// pack that could not be verified, which stays for a person to look at.
func (s *Store) relinkMissing(rep *CheckReport, missing map[ID][]ID, orphans map[ID][]string) map[ID]bool {
	ids := make([]ID, 0, len(missing))
	for id := range missing {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return bytes.Compare(ids[i][:], ids[j][:]) < 0 })
	keep := map[ID]bool{}
	for _, id := range ids {
		runs := missing[id]
		var failed []Problem
		for _, p := range orphans[id] {
			if err := s.relinkPack(id, p); err != nil {
				failed = append(failed, unrestorable(id, p, runs, err))
				continue
			}
			rep.Repaired = append(rep.Repaired, fmt.Sprintf("blob:%s re-linked from %s", id.Short(), p))
			failed = nil
			break
		}
		if len(failed) == 0 {
			continue
		}
		rep.Problems = append(rep.Problems, failed...)
		for _, r := range runs {
			keep[r] = true
		}
	}
	return keep
}

package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
)

// bbolt's file format, as far as checkDBFile reads it: two meta pages at the
// start, each a 16-byte page header then the meta (magic, version, page
// size, flags, root bucket, freelist page, high-water page id, txid) and an
// FNV-64a checksum of the 56 bytes before it.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	boltPageHeader = 16
	boltMetaSum    = 56
)

// CheckDB reports whether the database file looks usable (see checkDBFile)
// without opening it: cheap enough for the start of every ctx run, which runs
// the command without capturing it when the store is damaged.
func (s *Store) CheckDB() error { return checkDBFile(s.dbPath()) }

// checkDBFile validates store.db before bbolt maps it. bbolt trusts the file:
// a truncated database makes it touch pages past the end of the mapping,
// which is a fatal fault, not an error. A file that is not a regular file of
// this user, whose meta pages are both invalid, or that is shorter than its
// meta page says, is reported damaged instead. A missing or empty file is
// fine: bbolt creates it (under its lock).
func checkDBFile(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkInfo(path, fi, false); err != nil {
		return damaged(path, err)
	}
	if fi.Size() == 0 {
		return nil
	}
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	var best struct {
		ok             bool
		txid, pgid     uint64
		pageSize       uint32
		root, freelist uint64
	}
	// Page 0 is at offset 0; page 1 at the page size page 0 (or, if page 0
	// is damaged, the OS page size) gives.
	offs := []int64{0, int64(os.Getpagesize())}
	buf := make([]byte, boltPageHeader+boltMetaSum+8)
	for i := 0; i < 2; i++ {
		if _, err := f.ReadAt(buf, offs[i]); err != nil {
			continue
		}
		m := buf[boltPageHeader:]
		magic := binary.LittleEndian.Uint32(m[0:])
		version := binary.LittleEndian.Uint32(m[4:])
		pageSize := binary.LittleEndian.Uint32(m[8:])
		h := fnv.New64a()
		h.Write(m[:boltMetaSum])
		if magic != boltMagic || version != boltVersion || h.Sum64() != binary.LittleEndian.Uint64(m[boltMetaSum:]) {
			continue
		}
		if i == 0 && pageSize >= 512 && pageSize <= 1<<20 {
			offs[1] = int64(pageSize)
		}
		txid := binary.LittleEndian.Uint64(m[48:])
		if !best.ok || txid > best.txid {
			best.ok, best.txid, best.pageSize = true, txid, pageSize
			best.root = binary.LittleEndian.Uint64(m[16:])
			best.freelist = binary.LittleEndian.Uint64(m[32:])
			best.pgid = binary.LittleEndian.Uint64(m[40:])
		}
	}
	switch {
	case !best.ok:
		return damaged(path, fmt.Errorf("neither meta page is valid: %w", ErrCorrupt))
	case best.pageSize < 512 || best.pageSize > 1<<20:
		return damaged(path, fmt.Errorf("page size %d: %w", best.pageSize, ErrCorrupt))
	case best.pgid > uint64(fi.Size())/uint64(best.pageSize):
		return damaged(path, fmt.Errorf("the file holds %d bytes but its pages reach %d (truncated): %w",
			fi.Size(), best.pgid*uint64(best.pageSize), ErrCorrupt))
	case best.root >= best.pgid || (best.freelist >= best.pgid && best.freelist != ^uint64(0)):
		return damaged(path, fmt.Errorf("meta page points past the end of the data: %w", ErrCorrupt))
	}
	return nil
}

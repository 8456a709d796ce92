package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeFileSync flushes what it writes: a new file and its directory's
// entry, a rewritten file's bytes (its entry is already there). The
// content is exactly b either way.
func TestWriteFileSyncFlushes(t *testing.T) {
	var synced []string
	oldData, oldPath := syncData, syncPath
	syncData = func(f *os.File) error { synced = append(synced, f.Name()); return oldData(f) }
	syncPath = func(p string) error { synced = append(synced, p); return oldPath(p) }
	t.Cleanup(func() { syncData, syncPath = oldData, oldPath })

	dir := t.TempDir()
	p := filepath.Join(dir, "meta.json")
	if err := writeFileSync(p, []byte(`{"argv":["long","command"]}`)); err != nil {
		t.Fatal(err)
	}
	if want := []string{p, dir}; !slices.Equal(synced, want) {
		t.Errorf("a new file flushed %q, want %q", synced, want)
	}
	synced = nil
	if err := writeFileSync(p, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if want := []string{p}; !slices.Equal(synced, want) {
		t.Errorf("a rewritten file flushed %q, want %q", synced, want)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "{}" {
		t.Errorf("content %q, %v; want {}", b, err)
	}
}

// A new spool flushes its description and its directory once; the
// result placeholder is flushed when a result is written over it.
func TestNewSpoolFlushesOnce(t *testing.T) {
	st := newStore(t)
	var dirs, files int
	oldData, oldPath := syncData, syncPath
	syncData = func(f *os.File) error { files++; return oldData(f) }
	syncPath = func(p string) error { dirs++; return oldPath(p) }
	t.Cleanup(func() { syncData, syncPath = oldData, oldPath })
	sp, err := st.NewSpool(SpoolMeta{Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Abort()
	if files != 1 || dirs != 1 {
		t.Errorf("a new spool flushed %d files and %d directories, want 1 and 1", files, dirs)
	}
}

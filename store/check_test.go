package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFindsAndRepairs: a run whose packed blob lost its record (the
// putPack defect left such runs) is reported with its handle; --repair
// re-links the intact orphaned pack, and the run reads back whole.
func TestCheckFindsAndRepairs(t *testing.T) {
	s := newStore(t)
	data := randomBytes(t, 10<<20)
	run := capture(t, s, []string{"big"}, 0, data, nil)
	small := capture(t, s, []string{"small"}, 0, []byte("small\n"), nil)
	rep, err := s.Check(CheckOptions{ReadData: true})
	if err != nil || !rep.OK() {
		t.Fatalf("a sound store: %v %+v", err, rep)
	}
	if rep.Read != int64(len(data))+6 {
		t.Errorf("read %d bytes, want %d", rep.Read, len(data)+6)
	}
	id := run.Manifest.Stdout.Blob
	dropBlobRecord(t, s, id)
	rep, err = s.Check(CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !strings.Contains(rep.Problems[0].Handle, run.Handle()) || !strings.Contains(rep.Problems[0].What, "blob:"+id.Short()+" is missing") {
		t.Fatalf("problems %+v", rep.Problems)
	}
	rep, err = s.Check(CheckOptions{Repair: true})
	if err != nil || len(rep.Repaired) != 1 || !strings.Contains(rep.Repaired[0], "re-linked") {
		t.Fatalf("repair: %v %+v", err, rep)
	}
	if got := readBlob(t, s, id); !bytes.Equal(got, data) {
		t.Fatal("re-linked blob reads back wrong")
	}
	if rep, err := s.Check(CheckOptions{ReadData: true}); err != nil || !rep.OK() {
		t.Fatalf("after repair: %v %+v", err, rep)
	}
	// A run whose content is truly gone: repair removes the run and its
	// execution, nothing else.
	sid := small.Manifest.Stdout.Blob
	if err := s.update(func(tx *boltTx) error { return tx.Bucket(bucketBlobs).Delete(sid[:]) }); err != nil {
		t.Fatal(err)
	}
	rep, err = s.Check(CheckOptions{Repair: true})
	if err != nil || len(rep.Repaired) != 2 {
		t.Fatalf("repair: %v %+v", err, rep.Repaired)
	}
	if _, err := s.GetRun(small.ID); err == nil {
		t.Error("the run with no content is still listed")
	}
	checkReadable(t, s)
}

// TestCheckReadDataFindsDamage: a flipped byte in a pack file is found by
// --read-data (and named with its blob), never read back silently.
func TestCheckReadDataFindsDamage(t *testing.T) {
	s := newStore(t)
	run := capture(t, s, []string{"big"}, 0, randomBytes(t, 10<<20), nil)
	files := packFiles(t, s)
	if len(files) != 1 {
		t.Fatalf("pack files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	b[len(b)/2] ^= 0x10
	if err := os.WriteFile(files[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Check(CheckOptions{ReadData: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Problems[0].Handle != "blob:"+run.Manifest.Stdout.Blob.Short() {
		t.Fatalf("problems %+v", rep.Problems)
	}
}

// TestCheckWithoutDatabaseNamesPacks: a store whose database was moved aside
// (what the hint for a database too damaged to read says to do) still holds
// the pack files of its large outputs, the only copy of those bytes. `ctx
// check` must name them, as that hint promises, not report "0 pack files, no
// damage found".
func TestCheckWithoutDatabaseNamesPacks(t *testing.T) {
	s := newStore(t)
	capture(t, s, []string{"big"}, 0, randomBytes(t, 10<<20), nil)
	files := packFiles(t, s)
	if len(files) != 1 {
		t.Fatalf("pack files %v", files)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(s.dbPath(), s.dbPath()+".aside"); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(Location{Dir: s.dir, Root: filepath.Dir(s.dir)}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rep, err := s2.Check(CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Packs != 1 || len(rep.Notes) != 1 || rep.Notes[0].Handle != files[0] {
		t.Fatalf("packs %d, notes %+v; want the one pack file %s named", rep.Packs, rep.Notes, files[0])
	}
}

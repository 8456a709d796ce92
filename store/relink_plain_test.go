package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRepairRelinksPlainPack: a run whose plain pack lost its blob record (a
// crash between the pack and its record, a record lost with a damaged page)
// gets its content back from the intact .raw pack, and repair says so; it
// never removes the run.
func TestRepairRelinksPlainPack(t *testing.T) {
	s := newStore(t)
	data := plainFlood()
	run, pack := plainRun(t, s, data)
	id := run.Manifest.Stdout.Blob
	dropBlobRecord(t, s, id)
	rep, err := s.Check(CheckOptions{Repair: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Repaired) != 1 || !strings.Contains(rep.Repaired[0], "blob:"+id.Short()+" re-linked from "+pack) {
		t.Fatalf("repaired %q, want the plain pack re-linked", rep.Repaired)
	}
	if _, err := s.GetRun(run.ID); err != nil {
		t.Fatalf("the run was removed: %v", err)
	}
	if got := readBlob(t, s, id); !bytes.Equal(got, data) {
		t.Fatal("the re-linked blob reads back wrong")
	}
	if rep, err := s.Check(CheckOptions{ReadData: true}); err != nil || !rep.OK() {
		t.Fatalf("after repair: %v %+v", err, rep)
	}
}

// TestRepairKeepsUnverifiedPlainPack: a .raw pack that names the missing blob
// but does not hold it (damaged, or truncated by a full disk) is not
// trusted, is not deleted, and the run that needs it is kept and reported
// with what was tried, so a person can look at the evidence.
func TestRepairKeepsUnverifiedPlainPack(t *testing.T) {
	s := newStore(t)
	run, pack := plainRun(t, s, plainFlood())
	id := run.Manifest.Stdout.Blob
	dropBlobRecord(t, s, id)
	f, err := os.OpenFile(pack, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("XXXX"), 1<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rep, err := s.Check(CheckOptions{Repair: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Repaired {
		if strings.Contains(r, run.Handle()) {
			t.Fatalf("repair removed the run whose pack it could not verify: %q", rep.Repaired)
		}
	}
	if _, err := s.GetRun(run.ID); err != nil {
		t.Fatalf("the run was removed: %v", err)
	}
	if _, err := os.Stat(pack); err != nil {
		t.Fatalf("the unverified pack was deleted: %v", err)
	}
	found := false
	for _, p := range rep.Problems {
		if p.Handle == pack && strings.Contains(p.What, "blob:"+id.Short()) {
			found = true
		}
	}
	if !found {
		t.Fatalf("repair does not say what it tried on %s: %+v", filepath.Base(pack), rep.Problems)
	}
}

// TestGCKeepsUnrecordedPackOfKeptRun: gc never removes the pack of a blob a
// kept run references when the blob's record is missing (the state `ctx
// check --repair` restores, and the one a database moved aside leaves): it
// is the only copy of that output. gc counts it, and repair then re-links it.
func TestGCKeepsUnrecordedPackOfKeptRun(t *testing.T) {
	s := newStore(t)
	data := plainFlood()
	run, pack := plainRun(t, s, data)
	id := run.Manifest.Stdout.Blob
	dropBlobRecord(t, s, id)
	rep, err := s.GC(GCOptions{Now: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pack); err != nil {
		t.Fatalf("gc removed the only copy of a kept run's output: %v", err)
	}
	if rep.Unrecorded != 1 {
		t.Fatalf("gc reported %d unrecorded packs, want 1", rep.Unrecorded)
	}
	if _, err := s.Check(CheckOptions{Repair: true}); err != nil {
		t.Fatal(err)
	}
	if got := readBlob(t, s, id); !bytes.Equal(got, data) {
		t.Fatal("the re-linked blob reads back wrong")
	}
}

// dropBlobRecord deletes blob id's record and nothing else: the state a
// crash between a pack and its record, or a record lost with a damaged
// page, leaves.
func dropBlobRecord(t *testing.T, s *Store, id ID) {
	t.Helper()
	if err := s.update(func(tx *boltTx) error { return tx.Bucket(bucketBlobs).Delete(id[:]) }); err != nil {
		t.Fatal(err)
	}
}

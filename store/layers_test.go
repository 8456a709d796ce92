package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

func layerStore(t *testing.T) *Store {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(Location{Dir: filepath.Join(dir, DirName), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestLayerRecords(t *testing.T) {
	s := layerStore(t)
	if _, err := s.LayerRecord("test.records", []byte("k")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read before any write: %v", err)
	}
	for _, bad := range []string{"runs", "blobs", "", "a/b.c"} {
		if _, err := s.PutLayerRecord(bad, []byte("k"), []byte("v")); err == nil {
			t.Errorf("bucket %q accepted", bad)
		}
	}
	existed, err := s.PutLayerRecord("test.records", []byte("ab1"), []byte("first"))
	if err != nil || existed {
		t.Fatalf("put: %v %v", existed, err)
	}
	// Put-if-absent: the first record stays.
	if existed, err = s.PutLayerRecord("test.records", []byte("ab1"), []byte("second")); err != nil || !existed {
		t.Fatalf("second put: %v %v", existed, err)
	}
	if v, err := s.LayerRecord("test.records", []byte("ab1")); err != nil || string(v) != "first" {
		t.Fatalf("get: %q %v", v, err)
	}
	for _, k := range []string{"ab2", "ac1", "b"} {
		if _, err := s.PutLayerRecord("test.records", []byte(k), []byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := s.LayerKeys("test.records", []byte("ab"), 10)
	if err != nil || fmt.Sprintf("%q", keys) != `["ab1" "ab2"]` {
		t.Fatalf("prefix ab: %q %v", keys, err)
	}
	if keys, _ = s.LayerKeys("test.records", nil, 2); len(keys) != 2 {
		t.Fatalf("limit 2: %q", keys)
	}
}

func TestLayerRows(t *testing.T) {
	s := layerStore(t)
	for i := 1; i <= 3; i++ {
		seq, err := s.AppendLayerRow("test.log", func(last []byte, seq uint64) ([]byte, error) {
			want := ""
			if seq > 1 {
				want = fmt.Sprintf("row %d", seq-1)
			}
			if string(last) != want {
				return nil, fmt.Errorf("row %d sees last %q, want %q", seq, last, want)
			}
			return []byte(fmt.Sprintf("row %d", seq)), nil
		})
		if err != nil || seq != uint64(i) {
			t.Fatalf("append %d: seq %d, %v", i, seq, err)
		}
	}
	// A failing next leaves no row and does not consume a sequence number.
	if _, err := s.AppendLayerRow("test.log", func([]byte, uint64) ([]byte, error) { return nil, errors.New("no") }); err == nil {
		t.Fatal("a failed append reported success")
	}
	var got []string
	err := s.LayerRows("test.log", func(k uint64, row []byte) error {
		got = append(got, fmt.Sprintf("%d=%s", k, row))
		return nil
	})
	if err != nil || fmt.Sprint(got) != "[1=row 1 2=row 2 3=row 3]" {
		t.Fatalf("rows %v %v", got, err)
	}
	seq, err := s.AppendLayerRow("test.log", func([]byte, uint64) ([]byte, error) { return []byte("x"), nil })
	if err != nil || seq != 4 {
		t.Fatalf("append after a failure: seq %d, %v", seq, err)
	}
}

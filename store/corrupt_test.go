package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// readEverything reads every listed run's streams in full. It returns an
// error when anything is missing or damaged, and fails the test if any read
// that reports success returns bytes other than want's.
func readEverything(t *testing.T, s *Store, want map[ID][]byte) error {
	t.Helper()
	execs, err := s.Execs(0, nil)
	if err != nil {
		return err
	}
	for _, ex := range execs {
		run, err := s.GetRun(ex.Run)
		if err != nil {
			return err
		}
		for _, id := range []ID{run.Manifest.Stdout.Blob, run.Manifest.Stderr.Blob} {
			b, err := s.Blob(id)
			if err != nil {
				return err
			}
			got, err := b.ReadAll()
			if err != nil {
				return err
			}
			if w, ok := want[id]; ok && !bytes.Equal(got, w) {
				t.Fatalf("blob:%s read back wrong bytes with no error", id.Short())
			}
			if _, ok := want[id]; !ok {
				t.Fatalf("a listed run names blob:%s, which no run stored", id.Short())
			}
		}
	}
	return nil
}

// corruptStore builds a store with a few runs and returns its database bytes
// and the content of every blob.
func corruptStore(t *testing.T) (*Store, []byte, map[ID][]byte) {
	t.Helper()
	s := newStore(t)
	want := map[ID][]byte{emptyID: nil}
	for i, out := range [][]byte{logLines(50), logLines(3000), []byte("short\n")} {
		run := capture(t, s, []string{"gen", string(rune('a' + i))}, 0, out, []byte("err\n"))
		want[run.Manifest.Stdout.Blob] = out
		want[run.Manifest.Stderr.Blob] = []byte("err\n")
	}
	s.Close()
	db, err := os.ReadFile(s.dbPath())
	if err != nil {
		t.Fatal(err)
	}
	return s, db, want
}

// TestTruncatedDatabase: a truncated store.db is reported damaged, never a
// crash (bbolt faults on pages past the end of the file); cutting only free
// pages loses nothing.
func TestTruncatedDatabase(t *testing.T) {
	s, db, want := corruptStore(t)
	cuts := []int{0, 1, 100, 4096, 4097, 8192, 12288, len(db) / 2, len(db) - 4096, len(db) - 1}
	if os.Getenv("CTX_TORTURE_FLIPS") == "all" {
		cuts = cuts[:0]
		for n := 0; n < len(db); n += 256 {
			cuts = append(cuts, n, n+1)
		}
	}
	detected := 0
	for _, n := range cuts {
		if err := os.WriteFile(s.dbPath(), db[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		err := readEverything(t, s, want)
		execs, _ := s.Execs(0, nil)
		s.Close()
		if err == nil {
			// Only free pages were cut: what is listed is all there.
			if len(execs) != 3 {
				t.Errorf("truncated to %d of %d bytes: %d runs listed with no error, want 3", n, len(db), len(execs))
			}
			continue
		}
		detected++
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("truncated to %d bytes: %v, want ErrCorrupt", n, err)
		}
	}
	t.Logf("%d truncations of a %d-byte store.db: %d detected, the rest cut only free pages", len(cuts), len(db), detected)
}

// TestFlippedDatabaseBytes flips single bytes of store.db: every read either
// fails or returns the right bytes; none crashes. A sample of 300 flips;
// CTX_TORTURE_FLIPS=all flips every byte of the file (the torture figure in
// BENCHMARKS.md).
func TestFlippedDatabaseBytes(t *testing.T) {
	s, db, want := corruptStore(t)
	rng := rand.New(rand.NewPCG(1, 2))
	offsets := make([]int, 300)
	for i := range offsets {
		offsets[i] = rng.IntN(len(db))
	}
	if os.Getenv("CTX_TORTURE_FLIPS") == "all" {
		offsets = offsets[:0]
		for off := range db {
			offsets = append(offsets, off)
		}
	}
	detected := 0
	bad := bytes.Clone(db)
	for _, off := range offsets {
		bad[off] ^= 0xff
		if err := os.WriteFile(s.dbPath(), bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if readEverything(t, s, want) != nil {
			detected++
		}
		s.Close()
		bad[off] = db[off]
	}
	t.Logf("%d single-byte flips of a %d-byte store.db: %d detected, %d harmless (every byte read back right), 0 wrong bytes",
		len(offsets), len(db), detected, len(offsets)-detected)
}

// TestFlippedPackBytes flips single bytes of a pack file: a read of the blob
// fails or returns the right bytes. A sample; CTX_TORTURE_FLIPS=all flips
// one byte in every 512.
func TestFlippedPackBytes(t *testing.T) {
	s := newStore(t)
	run := capture(t, s, []string{"big"}, 0, randomBytes(t, 9<<20), nil)
	files := packFiles(t, s)
	if len(files) != 1 {
		t.Fatalf("pack files %v", files)
	}
	pack, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	want := readBlob(t, s, run.Manifest.Stdout.Blob)
	step := len(pack) / 40
	if os.Getenv("CTX_TORTURE_FLIPS") == "all" {
		step = 512
	}
	detected, trials := 0, 0
	f, err := os.OpenFile(files[0], os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for off := 0; off < len(pack); off += step {
		trials++
		if _, err := f.WriteAt([]byte{pack[off] ^ 0xff}, int64(off)); err != nil {
			t.Fatal(err)
		}
		b, err := s.Blob(run.Manifest.Stdout.Blob)
		var got []byte
		if err == nil {
			got, err = b.ReadAll()
		}
		if err != nil {
			detected++
		} else if !bytes.Equal(got, want) {
			t.Fatalf("byte %d of the pack flipped: wrong bytes read back with no error", off)
		}
		if _, err := f.WriteAt(pack[off:off+1], int64(off)); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d single-byte flips of a %d-byte pack: %d detected, 0 wrong bytes", trials, len(pack), detected)
	if detected != trials {
		t.Errorf("%d flips went unnoticed", trials-detected)
	}
}

// TestFrameTableChecksum: a flipped bit anywhere in a blob's record (a
// newline count above all: it would return the wrong lines with no error)
// is detected.
func TestFrameTableChecksum(t *testing.T) {
	s := newStore(t)
	data := logLines(20000) // several frames
	run := capture(t, s, []string{"gen"}, 0, data, nil)
	id := run.Manifest.Stdout.Blob
	want := bytes.Join(bytes.SplitAfter(data, []byte("\n"))[14999:15002], nil)
	var rec []byte
	if err := s.view(func(tx *boltTx) error {
		rec = bytes.Clone(tx.Bucket(bucketBlobs).Get(id[:]))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for bit := range len(rec) * 8 {
		bad := bytes.Clone(rec)
		bad[bit/8] ^= 1 << (bit % 8)
		if err := s.update(func(tx *boltTx) error { return tx.Bucket(bucketBlobs).Put(id[:], bad) }); err != nil {
			t.Fatal(err)
		}
		b, err := s.Blob(id)
		if err == nil {
			var off, end int64
			off, end, err = b.LineRange(15000, 15002)
			if err == nil && !bytes.Equal(data[off:end], want) {
				t.Fatalf("bit %d flipped: lines 15000-15002 read from the wrong offsets with no error", bit)
			}
		}
		if err == nil {
			t.Errorf("bit %d of the record flipped: not detected", bit)
		} else if !errors.Is(err, ErrCorrupt) {
			t.Errorf("bit %d: %v, want ErrCorrupt", bit, err)
		}
	}
}

// TestSpanRecordVerified: a span record that no longer hashes to its token
// (here its line range changed) is refused, not resolved to other lines.
func TestSpanRecordVerified(t *testing.T) {
	s := newStore(t)
	run := capture(t, s, []string{"gen"}, 0, logLines(100), nil)
	sp := Span{Stream: "stdout", Kind: "item", From: 10, To: 12}
	if err := s.PutSpans(run, []Span{sp}); err != nil {
		t.Fatal(err)
	}
	sp.Run = run.ID
	tok, err := sp.Token(run)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseHandle("span:" + tok.Short())
	if err != nil {
		t.Fatal(err)
	}
	if tg, err := s.Resolve(h); err != nil || tg.Range.From != 10 || tg.Range.To != 12 {
		t.Fatalf("resolve: %+v %v", tg, err)
	}
	sp.To = 90
	rec, _ := json.Marshal(sp)
	if err := s.update(func(tx *boltTx) error { return tx.Bucket(bucketSpans).Put(tok[:], rec) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resolve(h); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a span record changed to lines 10-90: %v, want ErrCorrupt", err)
	}
}

// TestCheckOfUnreadableDatabase: when store.db is too damaged for Check to
// walk, its error is ErrCorrupt with advice that does not send the user back
// to ctx check.
func TestCheckOfUnreadableDatabase(t *testing.T) {
	s, db, _ := corruptStore(t)
	if err := os.WriteFile(s.dbPath(), db[:4097], 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Check(CheckOptions{})
	var se *Error
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &se) {
		t.Fatalf("Check of a truncated store.db: %v, want ErrCorrupt with a hint", err)
	}
	if strings.Contains(se.Hint, "ctx check` to see") || !strings.Contains(se.Hint, "move "+s.dbPath()+" aside") {
		t.Errorf("hint %q: want moving the database aside, not running ctx check again", se.Hint)
	}
}

// TestDamagedExecRecordQuoted: a damaged execution record's error quotes
// its key, so garbled key bytes never reach the terminal raw, and says how
// to find and set it aside.
func TestDamagedExecRecordQuoted(t *testing.T) {
	s := newStore(t)
	if err := s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketExecs)
		if err != nil {
			return err
		}
		return b.Put([]byte("\x1b]0;x\x07key"), []byte("not json"))
	}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Execs(0, nil)
	var se *Error
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &se) || !strings.Contains(se.Hint, "ctx check --repair") {
		t.Fatalf("err %v, want ErrCorrupt with a repair hint", err)
	}
	if strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Errorf("raw control bytes in %q", err)
	}
}

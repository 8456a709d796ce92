package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(Location{Dir: filepath.Join(dir, DirName), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// capture spools the given stream contents and commits them as a run.
func capture(t *testing.T, s *Store, argv []string, capBytes int64, stdout, stderr []byte) *Run {
	t.Helper()
	sp, err := s.NewSpool(SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: capBytes})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		name string
		data []byte
	}{{"stdout", stdout}, {"stderr", stderr}} {
		w, err := sp.Stream(st.name)
		if err != nil {
			t.Fatal(err)
		}
		// Write in uneven chunks, as a pipe delivers them.
		data := st.data
		for len(data) > 0 {
			n := min(len(data), 1+rand.IntN(70000))
			if _, err := w.Write(data[:n]); err != nil {
				t.Fatal(err)
			}
			data = data[n:]
		}
	}
	run, err := s.CommitSpool(sp, Manifest{Argv: argv, Dir: ".", Mode: "pipe", Status: StatusExited}, Exec{Argv: argv, Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sp.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("spool %s left behind after commit", sp.Dir())
	}
	return run
}

func readBlob(t *testing.T, s *Store, id ID) []byte {
	t.Helper()
	b, err := s.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func logLines(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "2026-11-29 12:00:%02d INFO worker-%d handled request %d in %dms\n", i%60, i%7, i, i%13)
	}
	return b.Bytes()
}

func TestRoundTripAndLines(t *testing.T) {
	s := newStore(t)
	all := make([]byte, 0, 256*40)
	for range 40 {
		for c := range 256 {
			all = append(all, byte(c))
		}
	}
	logs := logLines(50000) // several frames
	noNL := bytes.Repeat([]byte("x"), 3*FrameSize+5)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bytes", all},
		{"logs", logs},
		{"no newline", noNL},
		{"crlf", []byte("a\r\nb\r\n\x1b[31mred\x1b[0m\r50%\r100%\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := capture(t, s, []string{"gen", tc.name}, 0, tc.data, nil)
			got := readBlob(t, s, run.Manifest.Stdout.Blob)
			if !bytes.Equal(got, tc.data) {
				t.Fatalf("round trip: got %d bytes, want %d", len(got), len(tc.data))
			}
			if run.Manifest.Stdout.Size != int64(len(tc.data)) {
				t.Errorf("size %d, want %d", run.Manifest.Stdout.Size, len(tc.data))
			}
			wantLines := bytes.Count(tc.data, []byte{'\n'})
			if len(tc.data) > 0 && tc.data[len(tc.data)-1] != '\n' {
				wantLines++
			}
			if run.Manifest.Stdout.Lines != int64(wantLines) {
				t.Errorf("lines %d, want %d", run.Manifest.Stdout.Lines, wantLines)
			}
		})
	}
	// Line ranges from the middle of a multi-frame blob.
	run := capture(t, s, []string{"gen", "logs"}, 0, logs, nil)
	b, err := s.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if b.Frames() < 3 {
		t.Fatalf("want several frames, have %d", b.Frames())
	}
	lines := strings.SplitAfter(string(logs), "\n")
	for _, r := range [][2]int64{{1, 1}, {40, 52}, {24999, 25013}, {49990, 50000}, {49999, 70000}} {
		off, end, err := b.LineRange(r[0], r[1])
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(b.Section(off, end))
		want := strings.Join(lines[r[0]-1:min(r[1], 50000)], "")
		if string(got) != want {
			t.Errorf("lines %d-%d: got %q, want %q", r[0], r[1], got, want)
		}
	}
	if _, _, err := b.LineRange(50001, 50001); !errors.Is(err, ErrRange) {
		t.Errorf("line past the end: err %v, want ErrRange", err)
	}
}

func TestDedupAndDeterministicRunID(t *testing.T) {
	s := newStore(t)
	logs := logLines(20000)
	a := capture(t, s, []string{"x"}, 0, logs, []byte("warn\n"))
	b := capture(t, s, []string{"x"}, 0, logs, []byte("warn\n"))
	if a.ID != b.ID {
		t.Errorf("same command and output gave run ids %s and %s", a.ID.Short(), b.ID.Short())
	}
	c := capture(t, s, []string{"y"}, 0, logs, nil)
	if c.ID == a.ID {
		t.Error("different argv gave the same run id")
	}
	if c.Manifest.Stdout.Blob != a.Manifest.Stdout.Blob {
		t.Error("identical stdout stored under different blob ids")
	}
	var frames int
	s.view(func(tx *boltTx) error {
		frames = tx.Bucket(bucketFrames).Stats().KeyN
		return nil
	})
	bl, _ := s.Blob(a.Manifest.Stdout.Blob)
	if want := bl.Frames() + 2; frames != want { // +2: the stderr blob and the interleave index
		t.Errorf("stored %d frames, want %d (dedup)", frames, want)
	}
}

func TestCapKeepsHeadAndTail(t *testing.T) {
	s := newStore(t)
	data := logLines(3000) // ~170 KB
	const capBytes = 20000
	run := capture(t, s, []string{"big"}, capBytes, data, nil)
	got := readBlob(t, s, run.Manifest.Stdout.Blob)
	want := append(append([]byte{}, data[:capBytes/2]...), data[len(data)-capBytes/2:]...)
	if !bytes.Equal(got, want) {
		t.Fatalf("capped stream: got %d bytes, want head+tail %d", len(got), len(want))
	}
	if run.Manifest.Stdout.Dropped != int64(len(data)-capBytes) || run.Manifest.Stdout.DroppedAt != capBytes/2 {
		t.Errorf("dropped %d at %d, want %d at %d", run.Manifest.Stdout.Dropped, run.Manifest.Stdout.DroppedAt, len(data)-capBytes, capBytes/2)
	}
}

func TestResolve(t *testing.T) {
	s := newStore(t)
	run := capture(t, s, []string{"echo", "hi"}, 0, []byte("hi\n"), nil)
	for _, h := range []string{"run:" + run.ID.Short(), "run:" + run.ID.String()[:6], run.ID.Short(), "run:" + strings.ToUpper(run.ID.Short()) + "#stdout:L1"} {
		hd, err := ParseHandle(h)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		tg, err := s.Resolve(hd)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		if tg.Kind != "run" || tg.ID != run.ID {
			t.Errorf("%s resolved to %s:%s", h, tg.Kind, tg.ID.Short())
		}
	}
	hd, _ := ParseHandle("run:000000")
	if _, err := s.Resolve(hd); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown run: err %v", err)
	}
}

func TestParseHandle(t *testing.T) {
	good := map[string]string{
		"run:ba3d1020ee8f":               "run:ba3d1020ee8f",
		"run:ba3d10#stderr":              "run:ba3d10#stderr",
		"run:ba3d1020ee8f#stdout:L40-52": "run:ba3d1020ee8f#stdout:L40-52",
		"run:ba3d1020ee8f#merged:L7":     "run:ba3d1020ee8f#merged:L7",
		"run:ba3d1020ee8f:L40-":          "run:ba3d1020ee8f:L40-",
		"blob:4f1c0a9e2b77:B100-200":     "blob:4f1c0a9e2b77:B100-200",
		"span:7d0c1e22aa":                "span:7d0c1e22aa",
		"BA3D1020EE8F":                   "ba3d1020ee8f",
	}
	for in, want := range good {
		h, err := ParseHandle(in)
		if err != nil {
			t.Errorf("ParseHandle(%q): %v", in, err)
			continue
		}
		if h.String() != want {
			t.Errorf("ParseHandle(%q) = %q, want %q", in, h, want)
		}
	}
	for _, in := range []string{"", "run:", "run:abc", "run:xyzxyzxyz", "run:ba3d1020ee8f#", "run:ba3d1020ee8f#out",
		"run:ba3d1020ee8f:L0", "run:ba3d1020ee8f:L9-3", "run:ba3d1020ee8f:B5", "blob:ba3d1020ee8f#stdout",
		"nope:ba3d1020ee8f", "run:ba3d1020ee8f:", "span:ba3d1020ee8f:L1-2", "run:ba3d1020ee8f:Lx"} {
		if _, err := ParseHandle(in); !errors.Is(err, ErrBadHandle) {
			t.Errorf("ParseHandle(%q): err %v, want ErrBadHandle", in, err)
		}
	}
}

func TestRecoverOrphanSpool(t *testing.T) {
	s := newStore(t)
	sp, err := s.NewSpool(SpoolMeta{Argv: []string{"slow"}, Dir: ".", Mode: "pipe", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := sp.Stream("stdout")
	w.Write([]byte("partial output\nbefore the crash\n"))
	// While the capture holds its lock, nothing is recovered.
	if got := s.Recover(); len(got) != 0 {
		t.Fatalf("recovered a live capture: %+v", got)
	}
	// Simulate the process dying: its lock goes away with it.
	sp.lock.Close()
	got := s.Recover()
	if len(got) != 1 || got[0].Run == nil || got[0].Err != nil {
		t.Fatalf("recover: %+v", got)
	}
	if st := got[0].Run.Manifest.Status; st != StatusRecovered {
		t.Errorf("status %q, want recovered", st)
	}
	if data := readBlob(t, s, got[0].Run.Manifest.Stdout.Blob); string(data) != "partial output\nbefore the crash\n" {
		t.Errorf("recovered %q", data)
	}
	if again := s.Recover(); len(again) != 0 {
		t.Errorf("recovered twice: %+v", again)
	}
}

func TestMerged(t *testing.T) {
	s := newStore(t)
	sp, _ := s.NewSpool(SpoolMeta{Argv: []string{"m"}, Dir: ".", Mode: "pipe", Started: time.Now()})
	out, _ := sp.Stream("stdout")
	errw, _ := sp.Stream("stderr")
	out.Write([]byte("a1\n"))
	errw.Write([]byte("e1\n"))
	out.Write([]byte("a2\n"))
	out.Write([]byte("a3\n"))
	errw.Write([]byte("e2\n"))
	run, err := s.CommitSpool(sp, Manifest{Argv: []string{"m"}, Dir: ".", Status: StatusExited}, Exec{Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	r, ordered, err := s.Merged(run)
	if err != nil || !ordered {
		t.Fatalf("merged: %v ordered=%v", err, ordered)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "a1\ne1\na2\na3\ne2\n" {
		t.Errorf("merged %q", got)
	}
}

func TestGC(t *testing.T) {
	s := newStore(t)
	old := capture(t, s, []string{"old"}, 0, []byte("old output\n"), nil)
	keep := capture(t, s, []string{"new"}, 0, []byte("new output\n"), nil)
	// Age the first execution.
	execs, _ := s.Execs(0, nil)
	for _, ex := range execs {
		if ex.Run == old.ID {
			ex.Start = ex.Start.Add(-48 * time.Hour)
			s.UpdateExec(ex)
		}
	}
	dry, err := s.GC(GCOptions{Keep: 24 * time.Hour, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if dry.Runs != 1 || dry.Execs != 1 {
		t.Errorf("dry run: %+v", dry)
	}
	if _, err := s.GetRun(old.ID); err != nil {
		t.Fatal("dry run removed the old run")
	}
	rep, err := s.GC(GCOptions{Keep: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != 1 || rep.Blobs != 1 || rep.Frames != 1 {
		t.Errorf("gc: %+v", rep)
	}
	if _, err := s.GetRun(old.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("old run still there: %v", err)
	}
	if got := readBlob(t, s, keep.Manifest.Stdout.Blob); string(got) != "new output\n" {
		t.Errorf("kept run lost its output: %q", got)
	}
}

// TestCompactRawFrames stores a stream whose frames went out raw (a flood
// outran the compressor), compacts it, and reads back the same bytes.
func TestCompactRawFrames(t *testing.T) {
	for _, size := range []int{3 * FrameSize, 40 * FrameSize} { // in the frames bucket, and packed
		s := newStore(t)
		sp, err := s.NewSpool(SpoolMeta{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Started: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := sp.Stream("stdout")
		data := logLines(size / 60)
		// One write of everything fills the compressor's queue at once, so
		// frames go out raw as they would in a flood.
		w.Write(data)
		run, err := s.CommitSpool(sp, Manifest{Argv: []string{"flood"}, Dir: ".", Status: StatusExited}, Exec{Start: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := s.Blob(run.Manifest.Stdout.Blob)
		before := b.StoredSize()
		n, saved, err := s.Compact()
		if err != nil {
			t.Fatal(err)
		}
		b, _ = s.Blob(run.Manifest.Stdout.Blob)
		t.Logf("size %d: packed %v, %d blobs compacted, stored %d -> %d (saved %d)", len(data), b.meta.Packed, n, before, b.StoredSize(), saved)
		if got := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(got, data) {
			t.Fatal("compaction changed the bytes")
		}
		if n > 0 && b.StoredSize() >= before {
			t.Errorf("compaction saved nothing: %d -> %d", before, b.StoredSize())
		}
		for _, f := range b.meta.Frames {
			if isRawFrame(f) {
				t.Fatal("a raw frame survived compaction")
			}
		}
	}
}

// TestResolveAmbiguous finds two runs whose ids share a 6-digit prefix and
// checks that the prefix is refused with both candidates listed.
func TestResolveAmbiguous(t *testing.T) {
	s := newStore(t)
	seen := map[string]Manifest{}
	var a, b Manifest
	for i := 0; ; i++ {
		m := Manifest{Argv: []string{"echo", fmt.Sprint(i)}, Dir: ".", Status: StatusExited}
		p := m.ID().String()[:MinPrefix]
		if prev, ok := seen[p]; ok {
			a, b = prev, m
			break
		}
		seen[p] = m
	}
	for _, m := range []Manifest{a, b} {
		id := m.ID()
		rb, _ := json.Marshal(Run{ID: id, Manifest: m})
		if err := s.update(func(tx *boltTx) error { return tx.Bucket(bucketRuns).Put(id[:], rb) }); err != nil {
			t.Fatal(err)
		}
	}
	prefix := a.ID().String()[:MinPrefix]
	h, err := ParseHandle("run:" + prefix)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Resolve(h)
	var amb *AmbiguousError
	if !errors.As(err, &amb) || !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("Resolve(%s): %v, want an ambiguity", prefix, err)
	}
	if len(amb.Candidates) != 2 || !strings.Contains(err.Error(), "run:"+a.ID().String()[:ShortLen]) || !strings.Contains(err.Error(), "run:"+b.ID().String()[:ShortLen]) {
		t.Errorf("candidates %v", amb.Candidates)
	}
	// A longer prefix tells them apart.
	h, _ = ParseHandle("run:" + a.ID().Short())
	if tg, err := s.Resolve(h); err != nil || tg.ID != a.ID() {
		t.Errorf("the full short id: %v", err)
	}
}

// TestMiddleLinesReadFewFrames: reading 13 lines from the middle of a
// many-frame blob decompresses one or two frames, not the blob.
func TestMiddleLinesReadFewFrames(t *testing.T) {
	s := newStore(t)
	data := logLines(200000) // ~12 MiB, ~50 frames
	run := capture(t, s, []string{"big"}, 0, data, nil)
	b, err := s.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if b.Frames() < 40 {
		t.Fatalf("only %d frames", b.Frames())
	}
	fetched := 0
	inner := b.fetch
	b.fetch = func(i int) ([]byte, error) { fetched++; return inner(i) }
	off, end, err := b.LineRange(100000, 100012)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(b.Section(off, end))
	if n := strings.Count(string(got), "\n"); n != 13 {
		t.Fatalf("read %d lines", n)
	}
	if fetched > 2 {
		t.Errorf("decompressed %d frames to read 13 lines", fetched)
	}
}

// TestPermissions: the store's directories are 0700 and its files 0600.
func TestPermissions(t *testing.T) {
	s := newStore(t)
	capture(t, s, []string{"x"}, 0, logLines(100000), []byte("err\n"))
	err := filepath.WalkDir(s.Dir(), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		want := os.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A capsule or task id given to a command that reads captured output is
// refused with the command that reads it, not "unsupported".
func TestParseHandleRecordSchemesPointElsewhere(t *testing.T) {
	for in, want := range map[string]string{
		"capsule:09f06d686174": "ctx capsule render capsule:ID",
		"task:ab12cd34":        "ctx task show task:ID",
	} {
		_, err := ParseHandle(in)
		if !errors.Is(err, ErrBadHandle) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseHandle(%q) = %v, want ErrBadHandle naming %q", in, err, want)
		}
	}
}

// TestParseHandleErrorsQuoteLittle: a malformed handle's error names what is
// wrong and quotes at most a short head of it, however much was pasted
// (the error reaches an agent's context through ctx_get); a non-hex id is
// called not hex, whatever its length.
func TestParseHandleErrorsQuoteLittle(t *testing.T) {
	huge := strings.Repeat("a", 3_000_000)
	for _, in := range []string{huge, "run:" + huge + "z", "run:ba3d1020ee8f#" + huge, "run:ba3d1020ee8f:L" + huge, "é" + strings.Repeat("é", 100000) + ":x"} {
		_, err := ParseHandle(in)
		if !errors.Is(err, ErrBadHandle) {
			t.Fatalf("err %v, want ErrBadHandle", err)
		}
		if len(err.Error()) > 600 || !utf8.ValidString(err.Error()) {
			t.Errorf("error is %d bytes (valid UTF-8: %v): %.200s", len(err.Error()), utf8.ValidString(err.Error()), err)
		}
		if !strings.Contains(err.Error(), "bytes)") {
			t.Errorf("error does not say how long the handle was: %.200s", err)
		}
	}
	_, err := ParseHandle("run:zz")
	if err == nil || !strings.Contains(err.Error(), "not hex") {
		t.Errorf("run:zz: %v, want a not-hex error", err)
	}
	_, err = ParseHandle("run:abc")
	if err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("run:abc: %v, want a too-short error", err)
	}
}

// TestPermissionHintNamesExistingDir: the advice for a permission error
// names a directory that exists (the one to make writable), not the spool
// that could not be created in it.
func TestPermissionHintNamesExistingDir(t *testing.T) {
	root := t.TempDir()
	err := storeErr(filepath.Join(root, "spool", ".20261202-abcd"), "create spool", fs.ErrPermission)
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(se.Hint, "make "+root+" writable") {
		t.Errorf("hint %v, want it to name %s", err, root)
	}
}

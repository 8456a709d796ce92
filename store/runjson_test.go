package store

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRunJSONIsEncodingJSON holds the hand-written run encoding to
// encoding/json's bytes over manifests with every field set and unset and
// strings that need each of its escapes.
func TestRunJSONIsEncodingJSON(t *testing.T) {
	strs := []string{"", "go", "test", "./...", "a b", `q"uote`, `back\slash`, "<html>&amp;", "tab\there", "nl\n", "\x00\x1f\x7f",
		"héllo", "日本", "\u2028\u2029", "bad\xffutf8", "\xc3", "emoji 🙂", "~", "a<b", "x>y", "&", "\r\b\f"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return strs[r.IntN(len(strs))] }
	num := func() int64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return -r.Int64N(1 << 40)
		default:
			return r.Int64N(1 << 62)
		}
	}
	id := func() ID {
		var v ID
		if r.IntN(3) > 0 {
			for i := range v {
				v[i] = byte(r.UintN(256))
			}
		}
		return v
	}
	stream := func() StreamRef {
		return StreamRef{Blob: id(), Size: num(), Lines: num(), Dropped: num(), DroppedAt: num(), Lost: num()}
	}
	for i := 0; i < 2000; i++ {
		m := Manifest{Dir: pick(), Mode: pick(), Exit: int(num()), Status: Status(pick()), Signal: int(num()), Stdin: id(), Stdout: stream(), Stderr: stream()}
		switch i % 3 {
		case 0: // nil argv
		case 1:
			m.Argv = []string{}
		default:
			for j := r.IntN(5); j >= 0; j-- {
				m.Argv = append(m.Argv, pick())
			}
		}
		run := Run{ID: id(), Manifest: m, Interleave: id()}
		want, err := json.Marshal(run)
		if err != nil {
			t.Fatal(err)
		}
		if got := run.appendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("run %d:\n got %s\nwant %s", i, got, want)
		}
		wantM, _ := json.Marshal(m)
		if got := m.appendJSON(nil); !bytes.Equal(got, wantM) {
			t.Fatalf("manifest %d:\n got %s\nwant %s", i, got, wantM)
		}
		start := time.Unix(r.Int64N(1<<34), r.Int64N(1e9)).In(time.FixedZone("z", r.IntN(50*3600)-25*3600))
		ex := Exec{Key: pick(), Run: id(), Argv: m.Argv, Start: start, Duration: time.Duration(num()), Host: pick(), PID: int(num()),
			Version: pick(), Session: pick(), Cwd: pick(), Receipt: id(), RawBytes: num(), ShownBytes: num(), Profile: pick(), Note: pick()}
		if r.IntN(2) == 0 {
			ex.Generation = &Generation{ID: pick(), Head: pick(), More: int(num())}
			for j := r.IntN(3); j > 0; j-- {
				ex.Generation.Changed = append(ex.Generation.Changed, GenChange{Path: pick(), Status: pick(), Hash: pick()})
			}
		}
		sameJSON(t, &ex, ex.marshal)
		meta := SpoolMeta{Argv: m.Argv, Dir: pick(), Mode: pick(), Started: start, PID: int(num()), Session: pick(), Cap: num(), Exec: pick()}
		sameJSON(t, &meta, meta.marshal)
	}
}

// sameJSON fails unless marshal gives json.Marshal(v)'s bytes, or fails
// where it fails.
func sameJSON(t *testing.T, v any, marshal func() ([]byte, error)) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, err := marshal()
	if (err != nil) != (werr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("%T:\n got %s (%v)\nwant %s (%v)", v, got, err, want, werr)
	}
}

package digest

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/store"
)

// liveDigest spools the output the way a capture does, in chunks of random
// sizes with the two streams interleaved, while a Live parse reads it; it
// returns the live digest and the one Make renders after the end from the
// same spool.
func liveDigest(t *testing.T, c goldenCase, stdout, stderr []byte, start, limit int64, seed uint64) (live, post *Result, counted bool) {
	t.Helper()
	return liveDigestSettled(t, c, stdout, stderr, start, limit, seed, nil)
}

// liveDigestSettled is liveDigest with settle changing the manifest the
// Live is settled with.
func liveDigestSettled(t *testing.T, c goldenCase, stdout, stderr []byte, start, limit int64, seed uint64, settle func(*store.Manifest)) (live, post *Result, counted bool) {
	t.Helper()
	return liveDigestThen(t, c, stdout, stderr, start, limit, seed, settle, nil)
}

// liveDigestThen is liveDigestSettled calling before(l) once everything is
// spooled, before the Live is settled.
func liveDigestThen(t *testing.T, c goldenCase, stdout, stderr []byte, start, limit int64, seed uint64, settle func(*store.Manifest), before func(*Live)) (live, post *Result, counted bool) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sp, err := st.NewSpool(store.SpoolMeta{Argv: c.argv, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Abort()
	l := NewLive(c.argv, "", limit)
	l.start = start
	if before != nil {
		l.chunk = 1
	}
	var taps [2]interface{ Write([]byte) (int, error) }
	for i, name := range []string{"stdout", "stderr"} {
		w, err := sp.Stream(name)
		if err != nil {
			t.Fatal(err)
		}
		taps[i] = l.Tap(i, w)
	}
	rng := rand.New(rand.NewPCG(seed, 21))
	rest := [2][]byte{stdout, stderr}
	for len(rest[0])+len(rest[1]) > 0 {
		i := rng.IntN(2)
		if len(rest[i]) == 0 {
			i = 1 - i
		}
		n := min(len(rest[i]), 1+rng.IntN(16<<10))
		if _, err := taps[i].Write(rest[i][:n]); err != nil {
			t.Fatal(err)
		}
		rest[i] = rest[i][n:]
		if rng.IntN(4) == 0 {
			runtime.Gosched() // let the parse catch up and wait at the end
		}
	}
	if before != nil {
		before(l)
	}
	p, err := st.Prepare(sp, store.Manifest{Argv: c.argv, Dir: ".", Mode: "pipe", Exit: c.exit, Status: "exited"})
	if err != nil {
		t.Fatal(err)
	}
	m := p.Run.Manifest
	if settle != nil {
		settle(&m)
	}
	l.Settle(m)
	if live, err = l.Make(context.Background(), p, p.Run, Options{}); err != nil {
		t.Fatal(err)
	}
	if post, err = Make(context.Background(), p, p.Run, Options{}); err != nil {
		t.Fatal(err)
	}
	return live, post, l.Counted()
}

func sameDigest(t *testing.T, live, post *Result) {
	t.Helper()
	if !bytes.Equal(live.Digest.Text, post.Digest.Text) {
		t.Fatalf("live digest differs:\n--- live\n%s\n--- after the end\n%s", live.Digest.Text, post.Digest.Text)
	}
	if !bytes.Equal(live.ReceiptJSON, post.ReceiptJSON) {
		t.Fatalf("live receipt differs:\n%s\n%s", live.ReceiptJSON, post.ReceiptJSON)
	}
	a, _ := json.Marshal(live.Graph)
	b, _ := json.Marshal(post.Graph)
	if !bytes.Equal(a, b) {
		t.Fatalf("live graph differs:\n%s\n%s", a, b)
	}
}

// TestLiveMatchesAfterTheEnd parses every real-run fixture and golden case
// while it is spooled, starting at the first byte and after 4 KiB, and
// requires the digest, receipt and graph to be the bytes Make renders after
// the end. Where the heads seen at the start detect another chain than the
// final ones, the live parse must be discarded; it must count for most.
func TestLiveMatchesAfterTheEnd(t *testing.T) {
	cases := append(realRuns(t), goldenCases...)
	used, total := 0, 0
	for k, c := range cases {
		stdout, stderr := c.streams(t)
		for _, start := range []int64{1, 4 << 10} {
			live, post, counted := liveDigest(t, c, stdout, stderr, start, 1<<40, uint64(k)*2+uint64(start))
			sameDigest(t, live, post)
			if len(stdout)+len(stderr) >= int(start) {
				total++
				if counted {
					used++
				}
			}
		}
	}
	t.Logf("the live parse counted in %d of %d parses", used, total)
	if used*10 < total*6 {
		t.Errorf("the live parse counted in only %d of %d parses", used, total)
	}
}

// TestLivePastTheCap: a stream past its cap is stored with its middle
// dropped, which the live parse did not see; it is discarded and the
// digest is rendered after the end.
func TestLivePastTheCap(t *testing.T) {
	c := goldenCase{name: "flood", argv: []string{"sh", "-c", "./build.sh"}, exit: 2}
	out := textFlood()
	live, post, counted := liveDigest(t, c, out, nil, 1, int64(len(out))/2, 7)
	if counted {
		t.Error("the live parse counted for a stream past its cap")
	}
	sameDigest(t, live, post)
	if !bytes.Contains(live.Digest.Text, []byte("dropped")) && post.Run.Manifest.Stdout.Dropped == 0 {
		t.Errorf("the cap dropped nothing: %+v", post.Run.Manifest.Stdout)
	}
}

// TestLiveSettledElsewise: a Live settled with a run whose streams are not
// what its taps saw (a size, a drop) voids its parse, and the digest is
// rendered after the end.
func TestLiveSettledElsewise(t *testing.T) {
	c := goldenCases[0]
	stdout, stderr := c.streams(t)
	for _, tc := range []struct {
		name   string
		change func(*store.Manifest)
	}{
		{"as prepared", func(*store.Manifest) {}},
		{"another size", func(m *store.Manifest) { m.Stdout.Size++ }},
		{"a drop", func(m *store.Manifest) { m.Stdout.Dropped = 1 }},
	} {
		live, post, counted := liveDigestSettled(t, c, stdout, stderr, 1, 1<<40, 3, tc.change)
		if counted != (tc.name == "as prepared") {
			t.Errorf("%s: counted %v", tc.name, counted)
		}
		sameDigest(t, live, post)
	}
}

// TestLiveRunsAlongside is the audit of which profiles parse while the
// capture runs: with every byte spooled but the capture not yet ended, a
// profile that reads its streams before it asks for the exit status, sizes
// or line counts has read stdout to its end (readers here do not wait for
// a chunk at the end). Every profile must.
func TestLiveRunsAlongside(t *testing.T) {
	cases := append(realRuns(t), goldenCases...)
	byProfile := map[string][2]int{} // profile: along, total
	for k, c := range cases {
		stdout, stderr := c.streams(t)
		if len(stdout) == 0 || !lines.Printable(stdout[:min(len(stdout), evidence.HeadSize)]) {
			// A profile reads stdout first; a case without one says
			// nothing of stderr. Binary output is described, never read.
			continue
		}
		// A head is final once HeadSize bytes have arrived: repeat a short
		// output past that, or every profile would wait for the end.
		stdout = bytes.Repeat(stdout, 1+2*evidence.HeadSize/len(stdout))
		along := false
		live, post, counted := liveDigestThen(t, c, stdout, stderr, 1, 1<<40, uint64(k), nil, func(l *Live) {
			// A parse blocked on a fact stops reading (for long: the
			// window allows for -race and a loaded machine).
			last, since := int64(-1), time.Now()
			for !along && time.Since(since) < 3*time.Second {
				n := l.streams[0].read.Load()
				along = n == int64(len(stdout))
				if n != last {
					last, since = n, time.Now()
				}
				time.Sleep(time.Millisecond)
			}
		})
		sameDigest(t, live, post)
		if !counted {
			continue
		}
		p := live.Graph.Profile
		n := byProfile[p]
		n[1]++
		if along {
			n[0]++
		} else {
			t.Logf("%s (%s): the parse waited for the end", c.name, p)
		}
		byProfile[p] = n
	}
	for _, p := range evidence.SortedKeys(byProfile) {
		n := byProfile[p]
		t.Logf("%-12s read stdout to its end before the capture ended in %d of %d runs", p, n[0], n[1])
	}
	for _, p := range evidence.SortedKeys(byProfile) {
		if n := byProfile[p]; n[0] != n[1] {
			t.Errorf("%s parsed alongside the capture in %d of %d runs; want all", p, n[0], n[1])
		}
	}
	for _, p := range []string{"text", "logs", "gotest", "pytest"} {
		if byProfile[p][1] == 0 {
			t.Errorf("no run of %s was parsed live", p)
		}
	}
}

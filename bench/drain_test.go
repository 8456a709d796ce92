package bench

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

func TestDrainGroups(t *testing.T) {
	lines := []string{
		"Received block blk_1 of size 67108864 from /10.0.0.1", // 0
		"Received block blk_2 of size 12 from /10.0.0.2",       // 0: digits masked
		"Deleting block blk_3 file /data/x",                    // 1: other length
		"connection from alice closed now",                     // 2
		"connection from bob closed now",                       // 2: 4 of 5 agree
		"connection refused by peer host",                      // 3: 2 of 5 agree, below 0.5
		"",                                                     // 4
		"",                                                     // 4
		"x",                                                    // 5
		"x",                                                    // 5: a one-token line has a leaf too
	}
	want := []int{0, 0, 1, 2, 2, 3, 4, 4, 5, 5}
	d := NewDrain()
	for i, l := range lines {
		if got := d.Add(l); got != want[i] {
			t.Errorf("line %d %q: group %d, want %d", i, l, got, want[i])
		}
	}
	if got := d.Template(2); got != "connection from <*> closed now" {
		t.Errorf("template 2 = %q", got)
	}
	if got := d.Template(0); got != "Received block <*> of size <*> from <*>" {
		t.Errorf("template 0 = %q", got)
	}
}

func TestDrainMaxChildren(t *testing.T) {
	// Once the first token layer is full, a new first word goes to the
	// wildcard child, where it is compared with the groups filed there.
	d := &Drain{Depth: DrainDepth, Similarity: DrainSimilarity, MaxChild: 3, root: map[int]*drainNode{}}
	for _, w := range []string{"a", "b", "c", "d"} {
		d.Add(w + " same tail here")
	}
	// a and b took nodes of their own; c took the last place, the wildcard
	// child; d joined c's group there (3 of 4 tokens agree).
	if n := len(d.root[4].children); n != 3 {
		t.Fatalf("first layer has %d children, want 3", n)
	}
	if got := d.Add("e same tail here"); got != 2 {
		t.Errorf("e: group %d, want 2 (the wildcard child's)", got)
	}
	if got := d.Template(2); got != "<*> same tail here" {
		t.Errorf("template = %q", got)
	}
}

func TestDrainLabelsScoreLoghub(t *testing.T) {
	testenv.Corpus(t, "loghub2k")
	sys, err := LoadLoghubSystem(filepath.Join(loghubDir, "HDFS"))
	if err != nil {
		t.Fatal(err)
	}
	sc := Score(sys.Truth, DrainLabels(sys.Content))
	// Drain is known to parse HDFS almost perfectly (0.998 in the paper's
	// benchmark); a broken tree or similarity would not.
	if sc.GA < 0.99 {
		t.Errorf("Drain GA on HDFS Content = %.4f, want ≥ 0.99", sc.GA)
	}
	if strings.Contains(DrainLabels([][]byte{[]byte("id deadbeefcafe ok")})[0], "deadbeef") {
		t.Error("a run of 12 hex digits was not masked")
	}
}

func TestRunLoghubMinerChoice(t *testing.T) {
	for _, cfg := range []LoghubConfig{
		{Dirs: []string{loghubDir}, Miner: "nope"},
		{Dirs: []string{loghubDir}, Miner: MinerDrain, LeaveOut: true},
	} {
		if _, err := RunLoghub(context.Background(), cfg); !errors.Is(err, ErrLoghubData) {
			t.Errorf("%+v: err = %v, want ErrLoghubData", cfg, err)
		}
	}
}

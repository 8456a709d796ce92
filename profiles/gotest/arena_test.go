package gotest

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// TestArenaViewsNotKept parses every real output with the arena poisoned
// (each line's bytes overwritten once the lines are read): a string the
// parser kept as a view of a line, not a copy, would change the graph.
func TestArenaViewsNotKept(t *testing.T) {
	var inputs []string
	for _, pat := range []string{"testdata/*.stdout", "testdata/*.stderr", "testdata/realrun/*/*", "testdata/bench/*.gz"} {
		m, _ := filepath.Glob(pat)
		inputs = append(inputs, m...)
	}
	if dir := corpusDirFromWd(); dir != "" {
		m, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		inputs = append(inputs, m...)
	}
	if len(inputs) < 40 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	poisoned := 0
	for _, in := range inputs {
		out := profiletest.ReadCapture(t, in)
		plain, ok := parseSealed(t, out)
		if !ok {
			continue
		}
		poisonArena = true
		kept, _ := parseSealed(t, out)
		poisonArena = false
		if !bytes.Equal(plain, kept) {
			t.Errorf("%s: the graph changes when the lines' bytes are overwritten:\n%s", in, firstDiff(kept, plain))
		}
		if bytes.Contains(out, []byte("--- ")) {
			poisoned++
		}
	}
	if poisoned < 20 {
		t.Errorf("only %d inputs with results", poisoned)
	}
}

// parseSealed is an output's sealed graph as JSON; false when the output
// is not go test's.
func parseSealed(t *testing.T, out []byte) ([]byte, bool) {
	t.Helper()
	g, err := Parse(context.Background(), evidence.BytesSource(goTest, 1, out, nil))
	if errors.Is(err, ErrUnrecognised) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	g.Seal("run:test")
	return marshal(t, g), true
}

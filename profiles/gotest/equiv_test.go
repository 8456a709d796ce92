package gotest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// equivFile holds, for every input equivInputs lists, the SHA-256 of its
// sealed graph as the parser of main@640a6c7 built it (before issue 21's
// per-line routing), written by `CTX_EQUIV_WRITE=1 go test -run
// TestGraphsMatchRecorded` on that commit. A change for speed must leave
// every graph byte-identical; a change that means to alter graphs
// rewrites the file and says why.
const equivFile = "testdata/equiv.sha256"

// TestGraphsMatchRecorded parses every real output here and in the corpus,
// the benchmark's 32 MiB inputs, a held-out real run and generated runs of
// every shape go test prints (past the item cap too), and compares each
// sealed graph with the one recorded from the parser before.
func TestGraphsMatchRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("parses about 200 MiB")
	}
	got := map[string]string{}
	for _, in := range equivInputs(t) {
		g := parse(t, in.argv, in.exit, string(in.stdout), string(in.stderr))
		sum := sha256.Sum256(marshal(t, g))
		got[in.name] = hex.EncodeToString(sum[:])
	}
	if os.Getenv("CTX_EQUIV_WRITE") != "" {
		writeEquiv(t, got)
		return
	}
	want := readEquiv(t)
	for name, h := range got {
		w, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s: no recorded graph in %s", name, equivFile)
		case w != h:
			t.Errorf("%s: graph differs from the recorded one (%s, want %s)", name, h[:12], w[:12])
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok && !strings.HasPrefix(name, "corpus/") && !raceEnabled {
			t.Errorf("%s: recorded but not parsed", name)
		}
	}
	least := 70
	if raceEnabled {
		least = 50 // the benchmark inputs and the largest run are left out
	}
	if len(got) < least {
		t.Errorf("only %d inputs, want at least %d", len(got), least)
	}
}

// equivInput is one output the guard parses.
type equivInput struct {
	name           string
	argv           []string
	exit           int
	stdout, stderr []byte
}

func equivInputs(t *testing.T) []equivInput {
	var ins []equivInput
	for _, name := range caseNames(t) {
		stdout, stderr, exit := readCase(t, name)
		ins = append(ins, equivInput{"case/" + name, goTest, exit, []byte(stdout), []byte(stderr)})
	}
	files, _ := filepath.Glob("testdata/realrun/*/stdout")
	more, _ := filepath.Glob("testdata/bench/*.gz")
	files = append(files, more...)
	if dir := corpusDirFromWd(); dir != "" {
		more, _ = filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range more {
			ins = append(ins, equivInput{"corpus/" + filepath.Base(f), goTest, 1, profiletest.ReadCapture(t, f), nil})
		}
	}
	for _, f := range files {
		ins = append(ins, equivInput{f, goTest, 1, profiletest.ReadCapture(t, f), nil})
	}
	for _, c := range benchCases {
		if raceEnabled {
			break // see race_test.go
		}
		if m, _ := filepath.Glob(c.inputs[0]); len(m) == 0 {
			continue // the corpus is not here
		}
		prefix := "bench/"
		if strings.HasPrefix(c.name, "corpus") {
			prefix = "corpus/bench/"
		}
		ins = append(ins, equivInput{prefix + c.name, []string{"go", "test", "./..."}, c.exit(), benchInput(t, c), nil})
	}
	for seed := int64(1); seed <= 12; seed++ {
		tests := 3000
		if seed == 12 {
			if raceEnabled {
				break
			}
			tests = 160_000 // past MaxTests
		}
		stdout, stderr := genRun(seed, tests)
		ins = append(ins, equivInput{fmt.Sprintf("gen/%d-%d", seed, tests), []string{"go", "test", "-v", "./..."}, 1, []byte(stdout), []byte(stderr)})
	}
	return ins
}

func readEquiv(t *testing.T) map[string]string {
	f, err := os.Open(equivFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(h) != 64 {
			t.Fatalf("%s: bad line %q", equivFile, sc.Text())
		}
		want[name] = h
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}

func writeEquiv(t *testing.T, got map[string]string) {
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, name := range names {
		fmt.Fprintf(&buf, "%s  %s\n", got[name], name)
	}
	if err := os.WriteFile(equivFile, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

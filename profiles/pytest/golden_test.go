package pytest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the parser's output")

// capture is one real pytest run recorded by testdata/capture.sh.
type capture struct {
	name   string
	exit   int
	suite  string
	args   []string
	stdout []byte
	stderr []byte
}

func (c capture) argv() []string {
	return append([]string{"pytest", "-p", "no:cacheprovider"}, c.args...)
}

func (c capture) source() *evidence.Source {
	return evidence.BytesSource(c.argv(), c.exit, c.stdout, c.stderr)
}

func loadCaptures(t *testing.T) []capture {
	t.Helper()
	f, err := os.Open("testdata/out/INDEX")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []capture
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 4 {
			t.Fatalf("bad INDEX line %q", sc.Text())
		}
		exit, err := strconv.Atoi(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		c := capture{name: parts[0], exit: exit, suite: parts[2], args: strings.Fields(parts[3])}
		if c.stdout, err = os.ReadFile(filepath.Join("testdata/out", c.name+".out")); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join("testdata/out", c.name+".err")); err == nil {
			c.stderr = b
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatal("no captures")
	}
	return out
}

func parseSource(t testing.TB, src *evidence.Source) *evidence.Graph {
	t.Helper()
	g, err := Parse(context.Background(), src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	g.Seal("run:test")
	return g
}

func graphJSON(t testing.TB, g *evidence.Graph) []byte {
	t.Helper()
	b, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestGolden parses every real capture and compares the graph's JSON with
// testdata/golden/<name>.json (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	for _, c := range loadCaptures(t) {
		t.Run(c.name, func(t *testing.T) {
			got := graphJSON(t, parseSource(t, c.source()))
			path := filepath.Join("testdata/golden", c.name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("graph differs from %s (run with -update to accept):\n%s", path, got)
			}
		})
	}
}

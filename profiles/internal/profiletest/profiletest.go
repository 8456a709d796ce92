// Package profiletest holds the helpers profile tests share: parsing a
// captured output with a profile (twice, to hold it to determinism), sealing
// the graph, and reading it back as JSON or as a list of failing identities.
package profiletest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// ParseTwice parses an output twice with p and requires both graphs to be the
// same JSON; it returns the graph, sealed under "run:test".
func ParseTwice(p evidence.Profile, argv []string, exit int, stdout, stderr []byte) (*evidence.Graph, error) {
	var js [2][]byte
	var g *evidence.Graph
	for i := range js {
		var err error
		g, err = p.Parse(context.Background(), evidence.BytesSource(argv, exit, stdout, stderr))
		if err != nil {
			return nil, err
		}
		p.Stamp(g)
		g.Seal("run:test")
		js[i], _ = json.Marshal(g)
	}
	if !bytes.Equal(js[0], js[1]) {
		return nil, fmt.Errorf("two parses differ:\n%s\n%s", js[0], js[1])
	}
	return g, nil
}

// Parse is ParseTwice that fails the test on an error.
func Parse(t testing.TB, p evidence.Profile, argv []string, exit int, stdout, stderr []byte) *evidence.Graph {
	t.Helper()
	g, err := ParseTwice(p, argv, exit, stdout, stderr)
	if err != nil {
		t.Fatalf("%s.Parse %q: %v", p.Name, argv, err)
	}
	return g
}

// JSON is the graph as indented JSON with a final newline (golden files).
func JSON(t testing.TB, g *evidence.Graph) []byte {
	t.Helper()
	b, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// Failing lists "package|name" of the failed and errored tests, sorted.
func Failing(g *evidence.Graph) []string {
	var out []string
	for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
		out = append(out, it.Package+"|"+it.Name)
	}
	slices.Sort(out)
	return out
}

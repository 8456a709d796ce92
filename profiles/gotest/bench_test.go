package gotest

import (
	"bytes"
	"fmt"
	"regexp"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// BenchmarkParse measures throughput (issue 21: ≥ 100 MB/s on one core)
// over 32 MiB of real go test output: eight standard-library packages'
// verbose and -json runs with the scratch module's failing run appended
// (testdata/bench), and the shared corpus's outputs read in place, each
// repeated with the package paths of every copy renamed.
func BenchmarkParse(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			src := profiletest.MemSource([]string{"go", "test", "./..."}, c.exit(), benchInput(b, c), nil)
			profiletest.BenchParse(b, Parse, src, func(g *evidence.Graph) bool { return g.Verdict == c.verdict })
		})
	}
}

// benchCase is one input of BenchmarkParse.
type benchCase struct {
	name    string
	inputs  []string
	json    bool
	verdict string // the graph's: "fail" (the status then 1) or "pass" (0)
}

func (c benchCase) exit() int {
	if c.verdict == "pass" {
		return 0
	}
	return 1
}

var benchCases = []benchCase{
	{"v", []string{"testdata/bench/stdlib-v.txt.gz", "testdata/verbose.stdout"}, false, "fail"},
	{"json", []string{"testdata/bench/stdlib-json.txt.gz", "testdata/json.stdout"}, true, "fail"},
	{"corpus-v", []string{"../../../shared/corpus/gotest/[0-9]*[^n].txt"}, false, "fail"},
	{"corpus-json", []string{"../../../shared/corpus/gotest/*.gojson.txt"}, true, "fail"},
	{"heldout-v", []string{"testdata/bench/heldout-v.txt.gz"}, false, "pass"},
}

// benchInput is a case's inputs concatenated and repeated to
// profiletest.BenchSize, the packages of each copy renamed.
func benchInput(tb testing.TB, c benchCase) []byte {
	var one []byte
	for _, in := range c.inputs {
		one = append(one, profiletest.ReadCaptures(tb, in)...)
	}
	return profiletest.Repeat(one, profiletest.BenchSize, func(i int, b []byte) []byte {
		return renamePackages(b, i, c.json)
	})
}

// renamePackages prefixes every package path of a go test output with rN/.
func renamePackages(b []byte, n int, json bool) []byte {
	pre := fmt.Sprintf("r%d/", n)
	b = bytes.ReplaceAll(b, []byte("example.com/m/"), []byte("example.com/m"+pre))
	if json {
		return bytes.ReplaceAll(b, []byte(`"Package":"`), []byte(`"Package":"`+pre))
	}
	return pkgLineRE.ReplaceAll(b, []byte("${1}"+pre+"${2}"))
}

// pkgLineRE finds the package path of a package's result line (`ok`,
// `FAIL`, `?`, separated by tabs or, in old outputs, spaces) and of a build
// output header (`# pkg`).
var pkgLineRE = regexp.MustCompile(`(?m)^((?:ok|FAIL|\?|#)[ \t]+)([^\s\[])`)

//go:build cgo

package source

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// BenchmarkTreeSitterParseGo is the floor a tree-sitter Go outline could
// reach: one reused parser, ts_parser_parse over the same net/http bytes,
// and nothing else (no walk, no facts). It is why Go is outlined with
// go/parser (BENCHMARKS.md, issue 15).
func BenchmarkTreeSitterParseGo(b *testing.B) {
	_, srcs := netHTTP(b)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(golang.GetLanguage())
	for b.Loop() {
		for _, src := range srcs {
			tree, err := p.ParseCtx(context.Background(), nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
}

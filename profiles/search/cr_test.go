package search

import (
	"context"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// TestCarriageReturnInMatch: a matched line holding a carriage return (file
// content) keeps its path:line prefix.
func TestCarriageReturnInMatch(t *testing.T) {
	out := "build.log:3:progress 10%\rprogress 100%\nsrc/a.go:7:func a() {}\n"
	g, err := Profile.Parse(context.Background(), evidence.BytesSource([]string{"grep", "-rn", "progress\\|func", "."}, 0, []byte(out), nil))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	for _, it := range g.Items {
		if it.Kind == evidence.KindHit {
			files[it.File] = it.Count
		}
	}
	if files["build.log"] != 1 || files["src/a.go"] != 1 || len(files) != 2 {
		t.Errorf("hits by file: %v", files)
	}
}

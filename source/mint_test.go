package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

func TestMintAnchorsFailureLocationsInsideTheRepo(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "calc/div.go", "package calc\n\nfunc Div(a, b int) int {\n\treturn a / b\n}\n")
	outside := t.TempDir()
	writeFile(t, outside, "x.go", "package x\n")
	if err := os.Symlink(filepath.Join(outside, "x.go"), filepath.Join(root, "calc", "link.go")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "calc") // the command ran here
	g := &evidence.Graph{Items: []evidence.Item{
		{Kind: evidence.KindTest, ID: "abs", Outcome: evidence.OutcomeFail, File: filepath.Join(root, "calc/div.go"), Line: 4},
		{Kind: evidence.KindTest, ID: "rel", Outcome: evidence.OutcomeError, File: "div.go", Line: 3},
		{Kind: evidence.KindDiagnostic, ID: "diag", Severity: evidence.SeverityError, File: "./div.go", Line: 4},
		{Kind: evidence.KindSummary, ID: "panic", Outcome: evidence.OutcomeFail, Message: "panic: divide by zero", File: "div.go", Line: 4},
		{Kind: evidence.KindDiagnostic, ID: "warn", Severity: evidence.SeverityWarning, File: "div.go", Line: 4},
		{Kind: evidence.KindTest, ID: "pass", Outcome: evidence.OutcomePass, File: "div.go", Line: 4},
		{Kind: evidence.KindTest, ID: "past-end", Outcome: evidence.OutcomeFail, File: "div.go", Line: 99},
		{Kind: evidence.KindTest, ID: "outside", Outcome: evidence.OutcomeFail, File: filepath.Join(outside, "x.go"), Line: 1},
		{Kind: evidence.KindTest, ID: "dotdot", Outcome: evidence.OutcomeFail, File: "../../x.go", Line: 1},
		{Kind: evidence.KindTest, ID: "symlink-out", Outcome: evidence.OutcomeFail, File: "link.go", Line: 1},
		{Kind: evidence.KindTest, ID: "gone", Outcome: evidence.OutcomeFail, File: "nosuch.go", Line: 1},
	}}
	got := Mint(g, root, dir)
	want := map[string]string{"abs": "L4", "rel": "L3", "diag": "L4", "panic": "L4"}
	if len(got) != len(want) {
		t.Errorf("minted %v, want handles for %v only", got, want)
	}
	for id, lines := range want {
		h := got[id]
		if !strings.HasPrefix(h, "repo:calc/div.go:"+lines+"@") {
			t.Errorf("%s: handle %q, want repo:calc/div.go:%s@…", id, h, lines)
			continue
		}
		a, err := ParseAddress(h)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Resolve(root, a)
		if err != nil || res.Moved {
			t.Errorf("%s: %s does not resolve in place: %v", id, h, err)
		}
	}
	for _, it := range g.Items {
		if (it.Attrs["repo"] != "") != (got[it.ID] != "") {
			t.Errorf("%s: attribute %q, minted %q", it.ID, it.Attrs["repo"], got[it.ID])
		}
	}
	// A replay applies the receipt's handles without reading the tree.
	g2 := &evidence.Graph{Items: []evidence.Item{{ID: "abs"}, {ID: "other"}}}
	Apply(g2, got)
	if g2.Items[0].Attrs["repo"] != got["abs"] || g2.Items[1].Attrs != nil {
		t.Errorf("apply: %+v", g2.Items)
	}
}

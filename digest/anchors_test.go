package digest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// TestMintedHandlesReplayWithoutTheTree: a diagnostic inside the repository
// gets an anchored repo: handle in the digest; the receipt keeps it, so the
// digest replays byte for byte after the file has changed.
func TestMintedHandlesReplayWithoutTheTree(t *testing.T) {
	dir := t.TempDir()
	src := "int main(void) {\n\tint y = 1;\n\treturn x;\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "calc.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := goldenCase{name: "cc", argv: []string{"gcc", "-c", "calc.c"}, exit: 1}
	var b strings.Builder
	for i := 1; i <= 300; i++ { // noise around the one error: the digest is not the whole output
		fmt.Fprintf(&b, "gen/big.c:%d:5: warning: unused variable 'v%d' [-Wunused-variable]\n  %d |  int v%d;\n    |      ^~\n", i, i, i, i)
	}
	b.WriteString("calc.c: In function 'main':\ncalc.c:3:9: error: 'x' undeclared (first use in this function)\n    3 |  return x;\n      |         ^\n")
	out := b.String()
	res := digest(t, dir, c, nil, []byte(out), Options{Repo: dir, Dir: dir})
	h := regexp.MustCompile(`repo:calc\.c:L3@[0-9a-f]{8}`).FindString(string(res.Digest.Text))
	if h == "" {
		t.Fatalf("no repo: handle for calc.c:3 in the digest:\n%s", res.Digest.Text)
	}
	if len(res.Receipt.Anchors) != 1 {
		t.Errorf("receipt anchors %v, want the one minted", res.Receipt.Anchors)
	}
	for _, v := range res.Receipt.Anchors {
		if v != h {
			t.Errorf("receipt keeps %q, the digest shows %q", v, h)
		}
	}
	// The line changes; the stored digest still replays to its bytes.
	if err := os.WriteFile(filepath.Join(dir, "calc.c"), []byte(strings.Replace(src, "return x", "return y", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	data, err := st.Receipt(res.ReceiptID)
	if err != nil {
		t.Fatal(err)
	}
	if rep := Replay(context.Background(), st, res.ReceiptID, data, ""); !rep.Match {
		t.Errorf("replay after the edit: %s", rep.Why)
	}
	// Without a repository nothing is minted.
	res = digest(t, t.TempDir(), c, nil, []byte(out), Options{})
	if strings.Contains(string(res.Digest.Text), "repo:") || res.Receipt.Anchors != nil {
		t.Errorf("minted without a repository:\n%s", res.Digest.Text)
	}
}

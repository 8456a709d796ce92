package benchcmd_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/bench"
	"github.com/ctxhq/ctx/internal/cmd/benchcmd"
	"github.com/ctxhq/ctx/internal/ctxmcp"
)

// TestSeqTokens runs one shape of the seq-tokens suite through ctx in this
// process with the real go command: every arm prints a digest, the
// sequence that stops at vet's failure ran all three steps, and the kept
// digests are the ones counted (a sequence digest with #N rows).
func TestSeqTokens(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build, go test and go vet")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	keep := t.TempDir()
	res, err := benchcmd.SeqTokens(context.Background(), benchcmd.Program{Run: ctxmcp.Run}, 1, []string{"fail-last"}, keep)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 {
		t.Fatalf("rows %+v", res.Rows)
	}
	r := res.Rows[0]
	if r.Ran != 3 || len(r.Runs) != 1 || r.Runs[0] != r.Steps[0][0]+r.Steps[1][0]+r.Steps[2][0] || r.Keep[0] == 0 || r.Stop[0] == 0 {
		t.Errorf("row %+v", r)
	}
	seq, err := os.ReadFile(filepath.Join(keep, "fail-last-0", "keep-seq.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := bench.Tokens(seq); n != r.Keep[0] || !strings.Contains(string(seq), "\n#3 exit 1 ") || !strings.Contains(string(seq), "wrong type int") {
		t.Errorf("kept digest (%d tokens, counted %d):\n%s", n, r.Keep[0], seq)
	}
}

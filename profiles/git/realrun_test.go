package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// TestRealRunHunks holds issue 10's git findings on real runs
// (testdata/realrun/gen.sh): a diff names each hunk with its function
// context and its own +/-, and git log -p files each change under the
// commit that made it.
func TestRealRunHunks(t *testing.T) {
	read := func(name string) *evidence.Graph {
		b, err := os.ReadFile(filepath.Join("testdata", "realrun", name, "stdout"))
		if err != nil {
			t.Fatal(err)
		}
		cmd, _ := os.ReadFile(filepath.Join("testdata", "realrun", name, "cmd"))
		g, err := parse(context.Background(), evidence.BytesSource(strings.Fields(string(cmd)), 0, b, nil))
		if err != nil {
			t.Fatal(err)
		}
		g.Seal("run:test")
		return g
	}
	want := "join.go @@ -21,7 +21,7 @@ func Join(errs ...error) error { +1 -1 L5-13\n" +
		"pipe.go @@ -70,7 +70,7 @@ func (p *pipe) closeRead(err error) error { +1 -1 L18-26\n" +
		"pipe.go @@ -101,7 +101,7 @@ func (p *pipe) closeWrite(err error) error { +1 -1 L27-35\n" +
		"wrap.go @@ -19,7 +19,7 @@ func Unwrap(err error) error { // unwrap once +1 -1 L40-48\n"
	if got := hunks(read("diff")); got != want {
		t.Errorf("git diff hunks:\n%s\nwant\n%s", got, want)
	}

	g := read("log-p")
	commitOf := map[string]string{} // hash → subject
	for _, it := range g.Items {
		if it.Kind == evidence.KindCommit {
			commitOf[it.Name] = it.Text
		}
	}
	var got []string
	for _, it := range g.Items {
		if it.Kind == evidence.KindFile {
			got = append(got, commitOf[it.Attrs["commit"]]+": "+it.Attrs["status"]+" "+it.File)
		}
	}
	wantFiles := []string{
		"join: drop the header; wrap: add Version: modified join.go",
		"join: drop the header; wrap: add Version: modified wrap.go",
		"pipe: clearer message; wrap: comment: modified pipe.go",
		"pipe: clearer message; wrap: comment: modified wrap.go",
		"import three files: added join.go",
		"import three files: added pipe.go",
		"import three files: added wrap.go",
	}
	if strings.Join(got, "\n") != strings.Join(wantFiles, "\n") {
		t.Errorf("git log -p files by commit:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantFiles, "\n"))
	}
}

package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const calcBase = "package calc\n\nfunc Div(a, b int) int {\n\treturn a / b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"

// committed is a new git repository whose first commit holds the files
// (path, content, path, content...).
func committed(t *testing.T, files ...string) string {
	t.Helper()
	requireGit(t)
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	for i := 0; i+1 < len(files); i += 2 {
		writeFile(t, dir, files[i], files[i+1])
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "base")
	return dir
}

// changedNames renders changes as "status path#Symbol by".
func changedNames(cs []SymbolChange) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Status+" "+c.String()+" "+c.By)
	}
	slices.Sort(out)
	return out
}

// TestChangedInPerSymbol: a generation's changed-in relation is per
// declaration where its content is still at hand (the work tree, or HEAD
// after a commit), against the HEAD it was recorded on, and per file where
// it is not; added files change every declaration, deleted ones every
// declaration they had.
func TestChangedInPerSymbol(t *testing.T) {
	ctx := context.Background()
	dir := committed(t, "calc.go", calcBase, "old.go", "package calc\n\nfunc Old() {}\n", "notes.md", "# notes\n")

	// Generation 1: Div edited, a file added, one deleted, notes edited.
	g1src := "package calc\n\nfunc Div(a, b int) int {\n\treturn a / (b - b)\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"
	writeFile(t, dir, "calc.go", g1src)
	writeFile(t, dir, "new.go", "package calc\n\nfunc New() int { return 1 }\n")
	writeFile(t, dir, "notes.md", "# notes\nmore\n")
	if err := os.Remove(filepath.Join(dir, "old.go")); err != nil {
		t.Fatal(err)
	}
	g1, err := Current(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{" D old.go#Old lines", " M calc.go#Div lines", " M notes.md file", "?? new.go#New lines"}
	if got := changedNames((&ChangeFinder{Root: dir}).ChangedIn(ctx, g1)); !slices.Equal(got, want) {
		t.Errorf("in the live tree:\n got %q\nwant %q", got, want)
	}

	// Committed, then Mul edited on top: generation 1's calc.go is HEAD's
	// now, and still diffs against the HEAD generation 1 was recorded on
	// (Div, not Mul).
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "break Div")
	writeFile(t, dir, "calc.go", g1src[:len(g1src)-len("\treturn a * b\n}\n")]+"\treturn a * b * 1\n}\n")
	if got := changedNames((&ChangeFinder{Root: dir}).ChangedIn(ctx, g1)); !slices.Equal(got, want) {
		t.Errorf("after a commit:\n got %q\nwant %q", got, want)
	}
	g2, err := Current(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := changedNames((&ChangeFinder{Root: dir}).ChangedIn(ctx, g2)); !slices.Equal(got, []string{" M calc.go#Mul lines"}) {
		t.Errorf("generation 2: %q", got)
	}

	// Edited again, uncommitted: generation 2's calc.go is neither the work
	// tree's nor HEAD's any more, so its relation falls back to the file.
	writeFile(t, dir, "calc.go", calcBase)
	if got := changedNames((&ChangeFinder{Root: dir}).ChangedIn(ctx, g2)); !slices.Equal(got, []string{" M calc.go file"}) {
		t.Errorf("generation 2 once its content is gone: %q", got)
	}
}

// TestSinceDiffsAgainstAnEarlierGeneration: the lines that differ from an
// earlier generation include what was committed since (HEAD moved), what
// is edited now, and files added since; a file whose content in that
// generation is gone counts whole.
func TestSinceDiffsAgainstAnEarlierGeneration(t *testing.T) {
	ctx := context.Background()
	dir := committed(t, "calc.go", calcBase, "keep.go", "package calc\n\nfunc Keep() {}\n")
	writeFile(t, dir, "keep.go", "package calc\n\nfunc Keep() { _ = 1 }\n")
	green, err := Current(ctx, dir, nil) // keep.go edited, uncommitted
	if err != nil {
		t.Fatal(err)
	}
	// Div broken and committed, Mul edited on top, a file added; keep.go
	// as it was in green.
	writeFile(t, dir, "calc.go", strings.Replace(calcBase, "a / b", "a / (b - b)", 1))
	git(t, dir, "add", "calc.go")
	git(t, dir, "commit", "-qm", "break Div")
	writeFile(t, dir, "calc.go", strings.Replace(strings.Replace(calcBase, "a / b", "a / (b - b)", 1), "a * b", "a * b * 1", 1))
	writeFile(t, dir, "new.go", "package calc\n")
	d, err := (&ChangeFinder{Root: dir}).Since(ctx, green)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path     string
		from, to int
		want     bool
	}{
		{"calc.go", 3, 5, true},   // Div: committed since
		{"calc.go", 7, 9, false},  // Sub: untouched
		{"calc.go", 11, 13, true}, // Mul: edited now
		{"keep.go", 1, 3, false},  // still green's content
		{"new.go", 1, 1, true},    // added since
	} {
		if got := d.Changed(c.path, c.from, c.to); got != c.want {
			t.Errorf("%s:%d-%d changed %v, want %v", c.path, c.from, c.to, got, c.want)
		}
	}
	// keep.go edited again: green's content of it is in neither the work
	// tree nor HEAD, so it counts whole.
	writeFile(t, dir, "keep.go", "package calc\n\nfunc Keep() { _ = 2 }\n")
	if d, err = (&ChangeFinder{Root: dir}).Since(ctx, green); err != nil || !d.Whole["keep.go"] {
		t.Errorf("keep.go with green's content gone: whole %v (%v)", d.Whole, err)
	}
}

// TestChangedInHeadGone: a generation recorded on a commit the repository
// no longer has gives per-file relations, and Since refuses it by name.
func TestChangedInHeadGone(t *testing.T) {
	ctx := context.Background()
	dir := committed(t, "calc.go", calcBase)
	g := &Generation{Head: "0123456789012345678901234567890123456789", Changed: []Change{{Path: "calc.go", Status: " M", Hash: contentHash([]byte(calcBase))}}}
	if got := changedNames((&ChangeFinder{Root: dir}).ChangedIn(ctx, g)); !slices.Equal(got, []string{" M calc.go file"}) {
		t.Errorf("HEAD gone: %q", got)
	}
	if _, err := (&ChangeFinder{Root: dir}).Since(ctx, g); err == nil || !strings.Contains(err.Error(), "gone from the repository") {
		t.Errorf("Since with HEAD gone: %v", err)
	}
}

package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

const calcBase = "package calc\n\nfunc Div(a, b int) int {\n\treturn a / b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"

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
	requireGit(t)
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	writeFile(t, dir, "calc.go", calcBase)
	writeFile(t, dir, "old.go", "package calc\n\nfunc Old() {}\n")
	writeFile(t, dir, "notes.md", "# notes\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "base")

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

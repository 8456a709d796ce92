package source

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"

	"github.com/ctxhq/ctx/internal/blake3"
)

// How a SymbolChange is known.
const (
	// ByLines: the generation's content of the file was found, diffed
	// against its HEAD, and the hunks fell inside the declaration.
	ByLines = "lines"
	// ByFile: the file as a whole, with no declaration: its content in the
	// generation is no longer at hand (neither the work tree nor HEAD holds
	// it now, or the generation's HEAD is gone), ctx has no outline for its
	// language, or the diff budget of one call ran out.
	ByFile = "file"
)

// SymbolChange is one changed-in relation: a declaration of a file that
// differed from HEAD in a generation, touched by the change.
type SymbolChange struct {
	Path   string
	Status string // git status's two letters, as the generation recorded
	// Decl is the declaration with its lines in the file as it was in the
	// generation (for a deleted file: as it was at HEAD). Zero when By is
	// ByFile.
	Decl Decl
	By   string
}

// maxDiffs bounds the files one ChangeFinder diffs (each costs a git
// process or two); past it a changed file is reported ByFile.
const maxDiffs = 256

// ChangeFinder computes changed-in relations of generations in one work
// tree, remembering each file version it has diffed: generations recorded
// by successive runs mostly share their changed files.
type ChangeFinder struct {
	Root    string
	memo    map[string][]SymbolChange
	diffs   int
	commits map[string]bool // commit id → present in the repository
}

// hasCommit reports whether the repository still holds commit rev.
func (f *ChangeFinder) hasCommit(ctx context.Context, rev string) bool {
	ok, seen := f.commits[rev]
	if !seen {
		ok = exec.CommandContext(ctx, "git", "-C", f.Root, "cat-file", "-e", rev+"^{commit}").Run() == nil
		if f.commits == nil {
			f.commits = map[string]bool{}
		}
		f.commits[rev] = ok
	}
	return ok
}

// ChangedIn lists the declarations that changed in generation g: for each
// file g recorded as differing from g.Head, the declarations (of that
// file's content in g) that the diff against g.Head touches. The content
// of g is found by its recorded hash: the work tree's file if it still has
// that content, else HEAD's if it was committed since. Where it is found
// the relation is per declaration (ByLines); where not, or for a file ctx
// cannot outline, the file is reported whole (ByFile). A changed file
// whose changes fall outside every declaration (imports, comments at the
// top) yields no row.
func (f *ChangeFinder) ChangedIn(ctx context.Context, g *Generation) []SymbolChange {
	var out []SymbolChange
	for _, c := range g.Changed {
		key := g.Head + "\x00" + c.Path + "\x00" + c.Hash + "\x00" + c.Status
		rows, ok := f.memo[key]
		if !ok {
			rows = f.changedFile(ctx, g.Head, c)
			if f.memo == nil {
				f.memo = map[string][]SymbolChange{}
			}
			f.memo[key] = rows
		}
		out = append(out, rows...)
	}
	return out
}

func (f *ChangeFinder) changedFile(ctx context.Context, head string, c Change) []SymbolChange {
	whole := []SymbolChange{{Path: c.Path, Status: c.Status, By: ByFile}}
	if Lang(c.Path) == "" || f.diffs >= maxDiffs || head != "" && !f.hasCommit(ctx, head) {
		return whole
	}
	f.diffs++
	if c.Hash == "deleted" {
		old, ok := gitShow(ctx, f.Root, head, c.Path)
		if !ok {
			return whole
		}
		return touched(c, Parse(c.Path, old), nil, true)
	}
	src, rev, ok := f.versionOf(ctx, c)
	if !ok {
		return whole
	}
	if head == "" || !inTree(ctx, f.Root, head, c.Path) {
		return touched(c, Parse(c.Path, src), nil, true) // added: every line is new
	}
	args := []string{"-C", f.Root, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", head}
	if rev != "" {
		args = append(args, rev)
	}
	out, err := exec.CommandContext(ctx, "git", append(args, "--", c.Path)...).Output()
	if err != nil {
		return whole
	}
	return touched(c, Parse(c.Path, src), hunks(out), false)
}

// versionOf finds the content a change recorded, by its hash: the work
// tree's file (rev "") or HEAD's (rev "HEAD").
func (f *ChangeFinder) versionOf(ctx context.Context, c Change) (src []byte, rev string, ok bool) {
	if full, err := Confine(f.Root, c.Path); err == nil {
		if fi, err := os.Lstat(full); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxMintFile {
			if b, err := os.ReadFile(full); err == nil && contentHash(b) == c.Hash {
				return b, "", true
			}
		}
	}
	if b, ok := gitShow(ctx, f.Root, "HEAD", c.Path); ok && contentHash(b) == c.Hash {
		return b, "HEAD", true
	}
	return nil, "", false
}

// touched are the declarations of o that ranges touch (all of them when
// all is set), as changes of c; the file whole when it has none at all.
func touched(c Change, o *Outline, ranges []LineRange, all bool) []SymbolChange {
	if o.Partial && len(o.Decls) == 0 {
		return []SymbolChange{{Path: c.Path, Status: c.Status, By: ByFile}}
	}
	var out []SymbolChange
	for _, d := range o.Decls {
		if all || Overlaps(ranges, d.Start, d.End) {
			out = append(out, SymbolChange{Path: c.Path, Status: c.Status, Decl: d, By: ByLines})
		}
	}
	return out
}

// contentHash is a file's hash as a generation records it.
func contentHash(b []byte) string {
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// gitShow reads path at commit rev, or false when git has no such blob.
func gitShow(ctx context.Context, root, rev, path string) ([]byte, bool) {
	if rev == "" {
		return nil, false
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "cat-file", "blob", rev+":"+path).Output()
	if err != nil || len(out) > maxMintFile {
		return nil, false
	}
	return out, true
}

// inTree reports whether commit rev holds path.
func inTree(ctx context.Context, root, rev, path string) bool {
	return exec.CommandContext(ctx, "git", "-C", root, "cat-file", "-e", rev+":"+path).Run() == nil
}

// hunks are the new-side line ranges of git diff -U0 output; a pure
// deletion marks the line after it.
func hunks(diff []byte) []LineRange {
	var out []LineRange
	for _, m := range hunk.Re().FindAllSubmatch(diff, -1) {
		from, _ := strconv.Atoi(string(m[1]))
		n := 1
		if len(m[2]) > 0 {
			n, _ = strconv.Atoi(string(m[2]))
		}
		if n == 0 {
			out = append(out, LineRange{from + 1, from + 1})
			continue
		}
		out = append(out, LineRange{from, from + n - 1})
	}
	return out
}

// String names a change for messages: path#Symbol, or the path alone.
func (c SymbolChange) String() string {
	if c.By == ByFile {
		return c.Path
	}
	return fmt.Sprintf("%s#%s", c.Path, c.Decl.Name)
}

// Diff is which lines of the work tree's files differ from an earlier
// generation: per line where that generation's content of a file is found,
// the whole file where not.
type Diff struct {
	Lines map[string][]LineRange
	// Whole holds files changed as a whole: added since, or whose content
	// in the generation is no longer at hand.
	Whole map[string]bool
}

// Changed reports whether lines from..to of path differ.
func (d *Diff) Changed(path string, from, to int) bool {
	return d.Whole[path] || Overlaps(d.Lines[path], from, to)
}

// Since diffs the work tree against generation g: the files changed now
// (against HEAD), changed in g, or changed between g's HEAD and HEAD are
// compared with their content in g, found as ChangedIn finds it (g's HEAD
// for a file g had unchanged; by its hash, in the work tree or HEAD, for
// one g had changed). Past the finder's diff budget (maxDiffs files) a
// file counts whole.
func (f *ChangeFinder) Since(ctx context.Context, g *Generation) (*Diff, error) {
	live, err := Current(ctx, f.Root, nil)
	if err != nil {
		return nil, err
	}
	if g.Head != "" && !f.hasCommit(ctx, g.Head) {
		return nil, fmt.Errorf("the generation's HEAD %s is gone from the repository (rebased or pruned)", g.Head)
	}
	inG := map[string]Change{}
	for _, c := range g.Changed {
		inG[c.Path] = c
	}
	paths := map[string]bool{}
	for _, c := range append(live.Changed, g.Changed...) {
		paths[c.Path] = true
	}
	if g.Head != "" && g.Head != live.Head {
		out, err := exec.CommandContext(ctx, "git", "-C", f.Root, "diff", "--name-only", "-z", "--no-renames", g.Head, "HEAD").Output()
		if err != nil {
			return nil, fmt.Errorf("git diff %s HEAD: %w", g.Head, err)
		}
		for _, p := range bytes.Split(out, []byte{0}) {
			if len(p) > 0 {
				paths[string(p)] = true
			}
		}
	}
	d := &Diff{Lines: map[string][]LineRange{}, Whole: map[string]bool{}}
	for _, p := range slices.Sorted(maps.Keys(paths)) { // the budget goes to the same files every time
		rev, whole := g.Head, false
		if c, ok := inG[p]; ok {
			switch src, at, found := f.versionOf(ctx, c); {
			case c.Hash == "deleted" || !found:
				whole = true
			case at == "" && src != nil:
				continue // the work tree still holds g's content
			default:
				rev = at
			}
		} else if g.Head == "" || !inTree(ctx, f.Root, g.Head, p) {
			whole = true
		}
		if whole || f.diffs >= maxDiffs {
			d.Whole[p] = true
			continue
		}
		f.diffs++
		out, err := exec.CommandContext(ctx, "git", "-C", f.Root, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", rev, "--", p).Output()
		if err != nil {
			return nil, fmt.Errorf("git diff %s -- %s: %w", rev, p, err)
		}
		d.Lines[p] = hunks(out)
	}
	return d, nil
}

// ContentAt is path's content in generation g: for a file g had changed,
// the content it recorded (found by its hash in the work tree or at HEAD,
// as ChangedIn finds it); for one it had not, the file at g's HEAD. ok is
// false when that content is no longer at hand, the file did not exist
// then, or g's HEAD is gone.
func (f *ChangeFinder) ContentAt(ctx context.Context, g *Generation, path string) (src []byte, ok bool) {
	for _, c := range g.Changed {
		if c.Path != path {
			continue
		}
		if c.Hash == "deleted" {
			return nil, false
		}
		src, _, ok = f.versionOf(ctx, c)
		return src, ok
	}
	if g.Head == "" || !f.hasCommit(ctx, g.Head) {
		return nil, false
	}
	return gitShow(ctx, f.Root, g.Head, path)
}

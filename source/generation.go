package source

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/ctxhq/ctx/internal/blake3"
	"github.com/ctxhq/ctx/internal/lines"
)

// Generation is the state of a work tree: the commit checked out plus the
// content of every file that differs from it. Two executions with the same
// generation ran against the same source.
type Generation struct {
	// ID is the first 16 hex digits of BLAKE3 over HEAD and the sorted
	// changed entries.
	ID      string   `json:"id"`
	Head    string   `json:"head"` // commit id, or "" before the first commit
	Changed []Change `json:"changed"`
}

// Change is one file that differs from HEAD.
type Change struct {
	Path   string `json:"path"`   // slash-separated, relative to the root
	Status string `json:"status"` // git status --porcelain's two letters: " M", "??", "D "…
	// Hash is the first 16 hex digits of BLAKE3 of the file's content, or
	// "deleted".
	Hash string `json:"hash"`
}

// Handle is the generation's handle, "gen:" and its id.
func (g *Generation) Handle() string { return "gen:" + g.ID }

// HashCache remembers file hashes by path, size, modification time and
// inode, so a generation costs one stat per changed file after the first.
// It is safe for concurrent use.
type HashCache struct {
	mu sync.Mutex
	m  map[string]cached
}

type cached struct {
	size, mtime int64
	ino         uint64
	hash        string
}

// hash returns the content hash of the file at full, from the cache when
// its size, mtime and inode are unchanged.
func (c *HashCache) hash(full string) (string, error) {
	fi, err := os.Lstat(full)
	if err != nil {
		return "", err
	}
	var ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = st.Ino
	}
	key := cached{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ino: ino}
	if c != nil {
		c.mu.Lock()
		e, ok := c.m[full]
		c.mu.Unlock()
		if ok && e.size == key.size && e.mtime == key.mtime && e.ino == key.ino {
			return e.hash, nil
		}
	}
	h := blake3.New()
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(full)
		if err != nil {
			return "", err
		}
		h.Write([]byte("symlink\x00" + t))
	} else if fi.Mode().IsRegular() {
		f, err := os.Open(full)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	} else {
		h.Write([]byte("not-a-file\x00" + fi.Mode().String()))
	}
	key.hash = hex.EncodeToString(h.Sum(nil)[:8])
	if c != nil {
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]cached{}
		}
		c.m[full] = key
		c.mu.Unlock()
	}
	return key.hash, nil
}

// Current computes the generation of the git work tree at root (its top
// level; repo paths are relative to it). cache may be nil. Outside a git
// repository it fails with the reason.
//
// It costs one git process: git status --porcelain=v2 --branch gives HEAD
// and the changed entries together, and --no-optional-locks keeps it from
// rewriting the index, so it never contends with the user's own git for
// index.lock. Changed files are hashed through the cache.
func Current(ctx context.Context, root string, cache *HashCache) (*Generation, error) {
	out, err := exec.CommandContext(ctx, "git", "--no-optional-locks", "-C", root, "status",
		"--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty").Output()
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", root, err)
	}
	g, err := parseStatus(out)
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", root, err)
	}
	for i := range g.Changed {
		c := &g.Changed[i]
		if c.Status[0] == 'D' || c.Status[1] == 'D' {
			c.Hash = "deleted"
		} else if c.Hash, err = cache.hash(filepath.Join(root, filepath.FromSlash(c.Path))); err != nil {
			return nil, fmt.Errorf("hash changed file %s: %w", c.Path, err)
		}
	}
	slices.SortFunc(g.Changed, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	h := blake3.New()
	fmt.Fprintf(h, "ctx-generation-v1\nhead %s\n", g.Head)
	for _, c := range g.Changed {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", c.Status, c.Path, c.Hash)
	}
	g.ID = hex.EncodeToString(h.Sum(nil)[:8])
	return g, nil
}

// parseStatus reads git status --porcelain=v2 -z --branch: the HEAD
// commit and the changed entries, with v1's two status letters (" M",
// "??", "D "…). Hashes are left to the caller.
func parseStatus(out []byte) (*Generation, error) {
	g := &Generation{Changed: []Change{}}
	for _, e := range strings.Split(string(out), "\x00") {
		if e == "" {
			continue
		}
		switch e[0] {
		case '#':
			if oid, ok := strings.CutPrefix(e, "# branch.oid "); ok && oid != "(initial)" {
				g.Head = oid
			}
		case '?':
			g.Changed = append(g.Changed, Change{Status: "??", Path: e[2:]})
		case '1', 'u':
			// 1 XY sub mH mI mW hH hI path; u XY sub m1 m2 m3 mW h1 h2 h3 path
			n := 8
			if e[0] == 'u' {
				n = 10
			}
			f := strings.SplitN(e, " ", n+1)
			if len(f) != n+1 || len(f[1]) != 2 {
				return nil, fmt.Errorf("unreadable entry %q", e)
			}
			st := strings.ReplaceAll(f[1], ".", " ")
			g.Changed = append(g.Changed, Change{Status: st, Path: f[n]})
		case '!':
		default:
			return nil, fmt.Errorf("unexpected entry %q (renames are off)", e)
		}
	}
	return g, nil
}

// LineRange is a 1-based inclusive range of lines.
type LineRange struct{ From, To int }

var hunk = lines.Lazy(`(?m)^@@ -[0-9,]+ \+([0-9]+)(?:,([0-9]+))? @@`)

// ChangedLines returns the line ranges of path (in the work tree) that
// differ from HEAD: git diff's hunks, or the whole file when git does not
// track it (all=true). Deleted lines mark the line after them.
func ChangedLines(ctx context.Context, root, path string) (ranges []LineRange, all bool, err error) {
	if _, err := Confine(root, path); err != nil {
		return nil, false, err
	}
	if exec.CommandContext(ctx, "git", "-C", root, "ls-files", "--error-unmatch", "--", path).Run() != nil {
		return nil, true, nil
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "diff", "-U0", "--no-color", "--no-ext-diff", "HEAD", "--", path).Output()
	if err != nil {
		return nil, false, fmt.Errorf("git diff %s: %w", path, err)
	}
	return hunks(out), false, nil
}

// Overlaps reports whether any range touches lines from..to.
func Overlaps(ranges []LineRange, from, to int) bool {
	for _, r := range ranges {
		if r.From <= to && from <= r.To {
			return true
		}
	}
	return false
}

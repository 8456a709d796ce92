package source

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// maxMintFile bounds the size of a file Mint reads to anchor a location.
const maxMintFile = 8 << 20

// Mint gives the failure locations among a run's items repo: handles
// anchored on the line they name: failing tests, error diagnostics and
// failure summaries (a panic's frame) whose file lies inside the
// repository at root. dir is the directory the command ran in (relative
// paths in its output are relative to it). Each handle is set as the
// item's "repo" attribute; the map (item id → handle) is what a receipt
// keeps so a replay renders the same bytes without reading the tree.
// Locations outside root, in files that are gone, or past their end get
// none.
func Mint(g *evidence.Graph, root, dir string) map[string]string {
	out := map[string]string{}
	files := map[string][]byte{} // repo path → content (nil: unreadable)
	for i := range g.Items {
		it := &g.Items[i]
		if !mintable(it) {
			continue
		}
		rel, ok := repoRel(root, dir, it.File)
		if !ok {
			continue
		}
		src, seen := files[rel]
		if !seen {
			src = readConfined(root, rel)
			files[rel] = src
		}
		a := LinesAddress(rel, src, it.Line, it.Line)
		if src == nil || a.Anchor == "" {
			continue
		}
		if it.Attrs == nil {
			it.Attrs = map[string]string{}
		}
		it.Attrs["repo"] = a.String()
		out[it.ID] = it.Attrs["repo"]
	}
	return out
}

// Apply sets minted handles (from a receipt) back on a graph's items.
func Apply(g *evidence.Graph, handles map[string]string) {
	for i := range g.Items {
		it := &g.Items[i]
		if h, ok := handles[it.ID]; ok {
			if it.Attrs == nil {
				it.Attrs = map[string]string{}
			}
			it.Attrs["repo"] = h
		}
	}
}

func mintable(it *evidence.Item) bool {
	if it.File == "" || it.Line < 1 {
		return false
	}
	switch it.Kind {
	case evidence.KindTest:
		return it.Outcome.Failed()
	case evidence.KindDiagnostic:
		return it.Severity == evidence.SeverityError
	case evidence.KindSummary:
		return it.Message != "" && it.Outcome.Failed()
	}
	return false
}

// repoRel turns a path as a tool printed it into a repository path, or
// false when it is outside root.
func repoRel(root, dir, file string) (string, bool) {
	p := filepath.FromSlash(file)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	if rp, err := filepath.EvalSymlinks(p); err == nil {
		p = rp
	}
	rel, err := filepath.Rel(realRoot, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// readConfined reads a repository file through Confine, or nil.
func readConfined(root, rel string) []byte {
	full, err := Confine(root, rel)
	if err != nil {
		return nil
	}
	fi, err := os.Stat(full)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxMintFile {
		return nil
	}
	b, err := os.ReadFile(full)
	if err != nil {
		return nil
	}
	return b
}

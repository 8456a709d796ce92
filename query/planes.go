package query

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// Planes are the Facts of a workspace: the dynamic plane from the store's
// runs, the static and temporal planes from the work tree at Root.
type Planes struct {
	Store *store.Store
	Root  string
	// Runs bounds how many recent executions the dynamic sources (tests,
	// failures, frames, diagnostics) parse.
	Runs int

	graphs     map[store.ID]*runFacts
	outlines   map[string]*source.Outline
	srcs       map[string][]byte
	changed    map[string][]source.LineRange
	changedAll map[string]bool
	all        map[string]bool
	files      []string
	finder     *source.ChangeFinder
	diffs      map[string]*source.Diff      // in-changed since run:ID
	late       map[string]Late              // the store's late generations, once read
	lags       map[string]time.Duration     // late generations' lags, by execution key
	runGens    map[string]*store.Generation // by run handle; nil: none recorded
	gens       map[string]*store.Generation // by id: those the dynamic sources' rows name
	contents   map[string][]byte            // a file's content in a generation (nil: not at hand)
}

// execs are the store's newest executions (up to limit, 0 for all, those
// keep accepts), each with its late generation where it recorded none.
func (p *Planes) execs(limit int, keep func(*store.Exec) bool) ([]*store.Exec, error) {
	execs, err := p.Store.Execs(limit, keep)
	if err != nil {
		return nil, err
	}
	lags, err := lateFill(execs, func() (map[string]Late, error) {
		if p.late == nil {
			l, err := LateGenerations(p.Store)
			if err != nil {
				return nil, err
			}
			p.late = l
		}
		return p.late, nil
	})
	if err != nil {
		return nil, err
	}
	if p.lags == nil {
		p.lags = map[string]time.Duration{}
	}
	maps.Copy(p.lags, lags)
	return execs, nil
}

var _ Facts = (*Planes)(nil)

// maxParsed bounds the output of one run that the dynamic plane parses.
const maxParsed = 32 << 20

type runFacts struct {
	g       *evidence.Graph
	streams map[string][][]byte
}

// Rows implements Facts.
func (p *Planes) Rows(ctx context.Context, src string, limit int) ([]Row, []string, error) {
	switch src {
	case "runs", "tests", "failures", "frames", "diagnostics", "templates", "anomalies":
		return p.dynamic(ctx, src, limit)
	case "symbols":
		return p.symbols(ctx, limit)
	case "files":
		files, err := p.list(ctx)
		var rows []Row
		for _, f := range files {
			if len(rows) == limit {
				break
			}
			rows = append(rows, Row{"path": f, "lang": source.Lang(f)})
		}
		return rows, []string{"repo:"}, err
	case "changes", "changed_symbols", "generations":
		return p.temporal(ctx, src, limit)
	}
	return nil, nil, fmt.Errorf("unknown source %q", src)
}

func (p *Planes) dynamic(ctx context.Context, src string, limit int) ([]Row, []string, error) {
	n := limit
	if src != "runs" {
		n = max(p.Runs, 1)
	}
	execs, err := p.execs(n, nil)
	if err != nil {
		return nil, nil, err
	}
	var rows []Row
	var from []string
	for i, ex := range execs {
		run, err := p.Store.GetRun(ex.Run)
		if err != nil {
			return nil, nil, err
		}
		h := run.Handle()
		from = append(from, h)
		base := Row{"n": int64(i + 1), "run": h, "generation": ""}
		if ex.Generation != nil {
			base["generation"] = "gen:" + ex.Generation.ID
			if p.gens == nil {
				p.gens = map[string]*store.Generation{}
			}
			p.gens[ex.Generation.ID] = ex.Generation
		}
		if src == "runs" {
			r := clone(base)
			r["argv"], r["exit"], r["status"], r["profile"] = strings.Join(ex.Argv, " "), int64(run.Manifest.Exit), run.Manifest.Status, ex.Profile
			r["generation_lag_ms"] = p.lags[ex.Key].Milliseconds()
			rows = append(rows, r)
			continue
		}
		rf, err := p.graph(ctx, run)
		if err != nil {
			return nil, nil, err
		}
		if rf == nil {
			continue
		}
		for _, it := range rf.g.Items {
			if len(rows) >= limit {
				return rows, from, nil
			}
			switch {
			case it.Kind == evidence.KindDiagnostic && src == "diagnostics":
				r := clone(base)
				r["tool"], r["file"], r["line"], r["severity"], r["code"], r["message"], r["span"] =
					it.Tool, p.repoPath(it.File, run), int64(it.Line), string(it.Severity), it.Code, it.Message, it.Span.Handle()
				rows = append(rows, r)
			case it.Kind == evidence.KindTemplate && src == "templates":
				r := clone(base)
				r["template"], r["count"], r["first_line"], r["span"] = it.Template, int64(it.Count), int64(it.FirstLine), it.Span.Handle()
				rows = append(rows, r)
			case it.Kind == evidence.KindAnomaly && src == "anomalies":
				r := clone(base)
				r["text"], r["severity"], r["why"], r["span"] = it.Text, string(it.Severity), it.Why, it.Span.Handle()
				rows = append(rows, r)
			case it.Kind == evidence.KindTest && (src == "tests" || src == "failures" && it.Outcome.Failed()):
				r := clone(base)
				r["name"], r["package"], r["outcome"], r["file"], r["line"], r["span"] =
					it.Name, it.Package, string(it.Outcome), p.repoPath(it.File, run), int64(it.Line), it.Span.Handle()
				rows = append(rows, r)
			case it.Kind == evidence.KindTest && src == "frames" && it.Outcome.Failed():
				for _, fr := range p.frames(rf, it, run) {
					r := clone(base)
					r["test"], r["file"], r["line"], r["span"] = it.Name, fr.file, int64(fr.line), fr.span
					rows = append(rows, r)
				}
			}
		}
	}
	return rows, from, nil
}

func clone(r Row) Row {
	c := make(Row, len(r)+6)
	for k, v := range r {
		c[k] = v
	}
	return c
}

// graph parses a run's output with its profile (cached).
func (p *Planes) graph(ctx context.Context, run *store.Run) (*runFacts, error) {
	if p.graphs == nil {
		p.graphs = map[store.ID]*runFacts{}
	}
	if rf, ok := p.graphs[run.ID]; ok {
		return rf, nil
	}
	m := run.Manifest
	if m.Stdout.Size+m.Stderr.Size > maxParsed {
		p.graphs[run.ID] = nil
		return nil, nil
	}
	read := func(ref store.StreamRef) ([]byte, error) {
		if ref.Blob.IsZero() {
			return nil, nil
		}
		b, err := p.Store.Blob(ref.Blob)
		if err != nil {
			return nil, err
		}
		return b.ReadAll()
	}
	out, err := read(m.Stdout)
	if err != nil {
		return nil, err
	}
	errb, err := read(m.Stderr)
	if err != nil {
		return nil, err
	}
	g, err := profiles.Extract(ctx, evidence.BytesSource(m.Argv, m.Exit, out, errb), "")
	if err != nil {
		return nil, err
	}
	g.Seal(run.Handle())
	rf := &runFacts{g: g, streams: map[string][][]byte{evidence.Stdout: bytes.Split(out, []byte{'\n'}), evidence.Stderr: bytes.Split(errb, []byte{'\n'})}}
	p.graphs[run.ID] = rf
	return rf, nil
}

type frame struct {
	file string
	line int
	span string
}

// frameRE finds file:line locations: Python's File "x.py", line 3, and
// path.ext:12 as go, pytest, rustc, javac, gcc and node print them.
var frameRE = lines.Lazy(`File "([^"]+)", line ([0-9]+)|([A-Za-z0-9_./\\-]+\.(?:go|py|js|mjs|cjs|jsx|ts|tsx|rs|java|c|cc|cpp|h|hpp)):([0-9]+)`)

// ansi matches terminal colour and cursor sequences (pytest colours paths
// under a pty).
var ansi = lines.Lazy(`\x1b\[[0-9;?]*[A-Za-z]`)

// frames lists the locations inside a failed test's block (its detail span,
// or its own span), in order, each once, keeping only files in the repo.
func (p *Planes) frames(rf *runFacts, it evidence.Item, run *store.Run) []frame {
	sp := it.Detail
	if sp.IsZero() {
		sp = it.Span
	}
	var out []frame
	seen := map[string]bool{}
	lines := rf.streams[sp.Stream]
	for n := sp.From; n >= 1 && n <= sp.To && n <= len(lines); n++ {
		for _, m := range frameRE.Re().FindAllSubmatch(ansi.ReplaceAll(lines[n-1], nil), -1) {
			file, num := string(m[1]), string(m[2])
			if file == "" {
				file, num = string(m[3]), string(m[4])
			}
			rel := p.repoPath(file, run)
			line, _ := strconv.Atoi(num)
			k := rel + ":" + num
			if rel == "" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, frame{rel, line, fmt.Sprintf("%s#%s:L%d", run.Handle(), sp.Stream, n)})
		}
	}
	return out
}

// repoPath maps a path a tool printed to a repository path: absolute
// paths inside the root, paths relative to the run's directory or the root,
// or (go test prints paths relative to the package) the one tracked file
// ending with it. "" when it is none of these.
func (p *Planes) repoPath(file string, run *store.Run) string {
	if file == "" {
		return ""
	}
	if filepath.IsAbs(file) {
		root, _ := filepath.EvalSymlinks(p.Root)
		for _, r := range []string{p.Root, root} {
			if rel, err := filepath.Rel(r, file); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
		return ""
	}
	files, _ := p.list(context.Background())
	for _, cand := range []string{filepath.ToSlash(filepath.Join(run.Manifest.Dir, file)), filepath.ToSlash(filepath.Clean(file))} {
		if p.all[cand] {
			return cand
		}
	}
	match := ""
	for _, f := range files {
		if strings.HasSuffix(f, "/"+filepath.ToSlash(file)) {
			if match != "" {
				return "" // ambiguous
			}
			match = f
		}
	}
	return match
}

// maxFiles bounds the files of the static plane.
const maxFiles = 20000

// list returns the repository's files (tracked and untracked, not ignored).
func (p *Planes) list(ctx context.Context) ([]string, error) {
	if p.all != nil {
		return p.files, nil
	}
	p.all = map[string]bool{}
	out, err := exec.CommandContext(ctx, "git", "-C", p.Root, "ls-files", "-co", "--exclude-standard", "-z").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			why, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
			return nil, fmt.Errorf("list the repository's files: git ls-files: %s (files, symbols and changes read a git work tree: run ctx q inside one)", why)
		}
		return nil, fmt.Errorf("list the repository's files: git ls-files: %w", err)
	}
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 && len(p.files) < maxFiles {
			p.files = append(p.files, string(f))
			p.all[string(f)] = true
		}
	}
	return p.files, nil
}

func (p *Planes) outline(file string) (*source.Outline, []byte) {
	if p.outlines == nil {
		p.outlines, p.srcs = map[string]*source.Outline{}, map[string][]byte{}
	}
	if o, ok := p.outlines[file]; ok {
		return o, p.srcs[file]
	}
	var o *source.Outline
	full, err := source.Confine(p.Root, file)
	var src []byte
	if err == nil {
		src, err = os.ReadFile(full)
	}
	if err == nil {
		o = source.Parse(file, src)
	}
	p.outlines[file], p.srcs[file] = o, src
	return o, src
}

func (p *Planes) symbols(ctx context.Context, limit int) ([]Row, []string, error) {
	files, err := p.list(ctx)
	if err != nil {
		return nil, nil, err
	}
	var rows []Row
	for _, f := range files {
		if source.Lang(f) == "" {
			continue
		}
		o, src := p.outline(f)
		if o == nil {
			continue
		}
		for _, d := range o.Decls {
			if len(rows) == limit {
				return rows, []string{"repo:"}, nil
			}
			rows = append(rows, Row{"path": f, "name": d.Name, "kind": d.Kind, "start": int64(d.Start), "end": int64(d.End),
				"test": d.Test, "handle": source.LinesAddress(f, src, d.Start, d.End).String()})
		}
	}
	return rows, []string{"repo:"}, nil
}

// maxOrdinal bounds how far back RunOrdinal looks for a run.
const maxOrdinal = RowCap

// RunOrdinal implements Facts.
func (p *Planes) RunOrdinal(ctx context.Context, handle string) (int, error) {
	if id, ok := strings.CutPrefix(handle, "gen:"); ok {
		execs, err := p.execs(maxOrdinal, nil)
		if err != nil {
			return 0, err
		}
		for i, ex := range execs {
			if ex.Generation != nil && ex.Generation.ID == id {
				return i + 1, nil
			}
		}
		return 0, fmt.Errorf("since %s: no execution among the newest %d recorded it", handle, maxOrdinal)
	}
	h, err := store.ParseHandle(handle)
	if err != nil {
		return 0, err
	}
	t, err := p.Store.Resolve(h)
	if err != nil {
		return 0, err
	}
	if t.Kind != "run" {
		return 0, fmt.Errorf("since %s: not a run", handle)
	}
	execs, err := p.Store.Execs(maxOrdinal, nil)
	if err != nil {
		return 0, err
	}
	for i, ex := range execs {
		if ex.Run == t.ID {
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("since %s: not among the newest %d executions", handle, maxOrdinal)
}

// Locate implements Facts: the line is located in the file as the run's
// generation had it when that content is at hand (source.ContentAt), and
// the symbol found there is given by its lines and handle today; without
// it, in today's file.
func (p *Planes) Locate(ctx context.Context, file string, line int, gen string) (Symbol, bool, error) {
	if file == "" || source.Lang(file) == "" {
		return Symbol{}, false, nil
	}
	o, src := p.outline(file)
	old, ok := p.genContent(ctx, gen, file)
	if !ok || bytes.Equal(old, src) {
		in := LocatedToday
		if ok {
			in = LocatedRun
		}
		return declAt(o, src, file, line, in)
	}
	d, ok := source.Parse(file, old).At(line)
	if !ok {
		return Symbol{}, false, nil
	}
	if o != nil {
		if now, ok := o.Find(d.Name); ok && now.Kind == d.Kind {
			return Symbol{Name: now.Name, Kind: now.Kind, Start: now.Start, End: now.End,
				Handle: source.LinesAddress(file, src, now.Start, now.End).String(), In: LocatedRun}, true, nil
		}
	}
	return Symbol{Name: d.Name, Kind: d.Kind, Start: d.Start, End: d.End, In: LocatedGone}, true, nil
}

// declAt is the declaration of o (src's outline) holding line.
func declAt(o *source.Outline, src []byte, file string, line int, in string) (Symbol, bool, error) {
	if o == nil {
		return Symbol{}, false, nil
	}
	d, ok := o.At(line)
	if !ok {
		return Symbol{}, false, nil
	}
	return Symbol{Name: d.Name, Kind: d.Kind, Start: d.Start, End: d.End,
		Handle: source.LinesAddress(file, src, d.Start, d.End).String(), In: in}, true, nil
}

// genContent is file's content in generation gen (one the dynamic
// sources' rows named), when that content is at hand.
func (p *Planes) genContent(ctx context.Context, gen, file string) ([]byte, bool) {
	g := p.gens[strings.TrimPrefix(gen, "gen:")]
	if g == nil {
		return nil, false
	}
	if g.More > 0 && !slices.ContainsFunc(g.Changed, func(c store.GenChange) bool { return c.Path == file }) {
		return nil, false // the file may be among the changes not kept
	}
	k := g.ID + "\x00" + file
	if c, ok := p.contents[k]; ok {
		return c, c != nil
	}
	c, ok := p.changeFinder().ContentAt(ctx, sourceGeneration(*g), file)
	if !ok {
		c = nil
	} else if c == nil {
		c = []byte{}
	}
	if p.contents == nil {
		p.contents = map[string][]byte{}
	}
	p.contents[k] = c
	return c, ok
}

// runGeneration is the generation of the newest execution of the run
// handle that has one, its own or its late one; nil when none has.
func (p *Planes) runGeneration(handle string) (*store.Generation, error) {
	if g, ok := p.runGens[handle]; ok {
		return g, nil
	}
	h, err := store.ParseHandle(handle)
	if err != nil {
		return nil, err
	}
	t, err := p.Store.Resolve(h)
	if err != nil {
		return nil, err
	}
	if t.Kind != "run" {
		return nil, fmt.Errorf("%s: not a run", handle)
	}
	execs, err := p.execs(16, func(e *store.Exec) bool { return e.Run == t.ID })
	if err != nil {
		return nil, err
	}
	var g *store.Generation
	if i := slices.IndexFunc(execs, func(e *store.Exec) bool { return e.Generation != nil }); i >= 0 {
		g = execs[i].Generation
	}
	if p.runGens == nil {
		p.runGens = map[string]*store.Generation{}
	}
	p.runGens[handle] = g
	return g, nil
}

// Changed implements Facts.
func (p *Planes) Changed(ctx context.Context, file string, from, to int, since string) (bool, error) {
	if since != "" {
		d, err := p.since(ctx, since)
		if err != nil {
			return false, err
		}
		return d.Changed(file, from, to), nil
	}
	if p.changed == nil {
		p.changed = map[string][]source.LineRange{}
		g, err := source.Current(ctx, p.Root, nil)
		if err != nil {
			return false, err
		}
		p.changedAll = map[string]bool{}
		for _, c := range g.Changed {
			r, all, err := source.ChangedLines(ctx, p.Root, c.Path)
			if err != nil {
				return false, err
			}
			p.changed[c.Path] = r
			p.changedAll[c.Path] = all
		}
	}
	if p.changedAll[file] {
		return true, nil
	}
	return source.Overlaps(p.changed[file], from, to), nil
}

// since is the diff of the work tree against the generation a run
// recorded (its newest execution's), computed once per run.
func (p *Planes) since(ctx context.Context, handle string) (*source.Diff, error) {
	if d, ok := p.diffs[handle]; ok {
		return d, nil
	}
	g, err := p.runGeneration(handle)
	if err != nil {
		return nil, fmt.Errorf("in-changed since %w", err)
	}
	if g == nil {
		return nil, fmt.Errorf("in-changed since %s: the run recorded no generation (outside git, CTX_NO_GENERATION=1, or its late generation was not computed)", handle)
	}
	if g.More > 0 {
		return nil, fmt.Errorf("in-changed since %s: its generation recorded only %d of %d changed files", handle, len(g.Changed), len(g.Changed)+g.More)
	}
	d, err := p.changeFinder().Since(ctx, sourceGeneration(*g))
	if err != nil {
		return nil, err
	}
	if p.diffs == nil {
		p.diffs = map[string]*source.Diff{}
	}
	p.diffs[handle] = d
	return d, nil
}

func (p *Planes) changeFinder() *source.ChangeFinder {
	if p.finder == nil {
		p.finder = &source.ChangeFinder{Root: p.Root}
	}
	return p.finder
}

// temporal yields the generations (the live work tree as n = 0, then each
// one recorded by the newest --runs executions, newest first), their
// changed files (a changes row is the relation changed-in, file →
// generation) or their changed declarations (changed_symbols: symbol →
// generation, per file where the generation's content is gone).
func (p *Planes) temporal(ctx context.Context, src string, limit int) ([]Row, []string, error) {
	var gens []store.Generation
	var runs []string
	var ns, lags []int64
	if live, err := source.Current(ctx, p.Root, nil); err == nil {
		rec := store.Generation{ID: live.ID, Head: live.Head}
		for _, c := range live.Changed {
			rec.Changed = append(rec.Changed, store.GenChange{Path: c.Path, Status: c.Status, Hash: c.Hash})
		}
		gens, runs, ns, lags = append(gens, rec), append(runs, ""), append(ns, 0), append(lags, 0)
	} else if p.Store == nil {
		return nil, nil, err
	}
	if p.Store != nil {
		execs, err := p.execs(max(p.Runs, 1), nil)
		if err != nil {
			return nil, nil, err
		}
		seen := map[string]bool{}
		if len(gens) > 0 {
			seen[gens[0].ID] = true
		}
		for i, ex := range execs {
			if ex.Generation == nil || seen[ex.Generation.ID] {
				continue
			}
			seen[ex.Generation.ID] = true
			gens, runs, ns = append(gens, *ex.Generation), append(runs, ex.Handle()), append(ns, int64(i+1))
			lags = append(lags, p.lags[ex.Key].Milliseconds())
		}
	}
	var rows []Row
	var from []string
	for i, g := range gens {
		from = append(from, "gen:"+g.ID)
		if src == "generations" {
			rows = append(rows, Row{"n": ns[i], "id": "gen:" + g.ID, "head": g.Head, "changed": int64(len(g.Changed) + g.More), "run": runs[i], "lag_ms": lags[i]})
			continue
		}
		if src == "changed_symbols" {
			rows = append(rows, p.changedSymbols(ctx, g, ns[i])...)
			continue
		}
		for _, c := range g.Changed {
			rows = append(rows, Row{"generation": "gen:" + g.ID, "n": ns[i], "path": c.Path, "status": c.Status, "hash": c.Hash})
		}
	}
	if len(rows) > limit {
		rows = rows[:limit]
	}
	return rows, from, nil
}

// changedSymbols are the changed_symbols rows of one generation.
func (p *Planes) changedSymbols(ctx context.Context, g store.Generation, n int64) []Row {
	var rows []Row
	for _, c := range p.changeFinder().ChangedIn(ctx, sourceGeneration(g)) {
		rows = append(rows, Row{"generation": "gen:" + g.ID, "n": n, "path": c.Path, "symbol": c.Decl.Name, "kind": c.Decl.Kind,
			"start": int64(c.Decl.Start), "end": int64(c.Decl.End), "status": c.Status, "by": c.By})
	}
	return rows
}

// sourceGeneration is a recorded generation as package source reads it.
func sourceGeneration(g store.Generation) *source.Generation {
	sg := &source.Generation{ID: g.ID, Head: g.Head}
	for _, c := range g.Changed {
		sg.Changed = append(sg.Changed, source.Change{Path: c.Path, Status: c.Status, Hash: c.Hash})
	}
	return sg
}

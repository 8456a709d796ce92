package hosts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/hosts/flood"
)

// Reason says why [Rewrite] did or did not rewrite a command. The list is
// closed: these constants are the only values, and docs/hosts.md describes
// each one. When nothing was wrapped, the reason is the one of the first
// command (in source order) that looked interesting but could not be wrapped,
// or [ReasonNotFlooding] when no command looked interesting at all.
type Reason string

const (
	// ReasonWrapped: at least one command was wrapped in `ctx run --`, or
	// a run of a && list became one `ctx seq` (see [Chain]).
	ReasonWrapped Reason = "wrapped"

	// ReasonEmpty: the command is blank or only comments.
	ReasonEmpty Reason = "empty"
	// ReasonTooLong: the command is longer than [MaxCommandBytes]; it is not parsed.
	ReasonTooLong Reason = "too-long"
	// ReasonParseError: the command does not parse as Bash.
	ReasonParseError Reason = "parse-error"
	// ReasonAlreadyCtx: the command already goes through ctx.
	ReasonAlreadyCtx Reason = "already-ctx"
	// ReasonNotFlooding: no command in it is known to produce a flood.
	ReasonNotFlooding Reason = "not-flooding"
	// ReasonBounded: a flood-prone program whose own arguments already bound
	// its output (git log -5, tail -n 20, git diff --stat).
	ReasonBounded Reason = "bounded"
	// ReasonPiped: the flood-prone command reads from or writes into a pipe,
	// so its raw bytes are another program's input, not the transcript's.
	ReasonPiped Reason = "piped"
	// ReasonRedirected: its stdout or stderr goes to a file or another
	// descriptor, or its stdin is redirected (including here-documents).
	ReasonRedirected Reason = "redirected"
	// ReasonBackground: it runs in the background (&, coproc), or the host
	// asked to run the whole command in the background.
	ReasonBackground Reason = "background"
	// ReasonInteractive: watch or follow mode, a pager, an editor, a REPL, a
	// dev server, a prompt, or anything else that waits on a terminal.
	ReasonInteractive Reason = "interactive"
	// ReasonPrivileged: sudo, doas, su and friends, which may prompt for a
	// password on the terminal.
	ReasonPrivileged Reason = "privileged"
	// ReasonNested: it sits where wrapping is not attempted: a function body,
	// loop, if/case, command or process substitution.
	ReasonNested Reason = "nested"
	// ReasonShellDefined: its name is a function or alias defined in the same
	// command, or it runs after `eval` or `source` of a file that could define
	// one; ctx executes programs, not shell functions.
	ReasonShellDefined Reason = "shell-defined"
	// ReasonDynamic: the command name, or an argument the decision depends
	// on, is only known at run time ($VAR, $(...)).
	ReasonDynamic Reason = "dynamic"
	// ReasonHostLimit: the host's own settings for this call make wrapping
	// unsafe (for example a tool timeout above ctx's default).
	ReasonHostLimit Reason = "host-limit"
)

// Reasons lists every [Reason] in documentation order.
var Reasons = []Reason{
	ReasonWrapped, ReasonEmpty, ReasonTooLong, ReasonParseError, ReasonAlreadyCtx,
	ReasonNotFlooding, ReasonBounded, ReasonPiped, ReasonRedirected, ReasonBackground,
	ReasonInteractive, ReasonPrivileged, ReasonNested, ReasonShellDefined, ReasonDynamic,
	ReasonHostLimit,
}

// Site is one place where the ctx prefix was inserted.
type Site struct {
	// Offset is the byte offset in the original command of the command word
	// the prefix was inserted before.
	Offset int
	// Tool is the program the flood comes from (after looking through
	// wrappers such as timeout, env, npx, uv run).
	Tool string
	// Family is the kind of output Tool floods with.
	Family flood.Family
}

// Decision is the result of [Rewrite].
type Decision struct {
	// Rewrite reports whether Command differs from the input.
	Rewrite bool
	// Command is the command to run: the rewritten one, or the input unchanged.
	Command string
	// Reason is why; see [Reason].
	Reason Reason
	// Sites lists the insertions, in source order. Without Chains, removing
	// len(Prefix) bytes at each Offset (shifted by the prefixes before it)
	// gives back the input.
	Sites []Site
	// Chains lists the && runs replaced by one ctx seq each, in source
	// order; see [Chain].
	Chains []Chain
	// Prefix is the exact text inserted at each site.
	Prefix string
}

// MaxCommandBytes bounds the commands Rewrite parses; longer ones are left
// alone. Agents' shell commands are a few hundred bytes; a huge one is a
// generated script, not a command worth second-guessing.
const MaxCommandBytes = 64 << 10

// DefaultPrefix is what [Rewrite] inserts before each flooding command.
const DefaultPrefix = "ctx run -- "

// Options tune [RewriteWith].
type Options struct {
	// Program is how the inserted text names the ctx binary; default "ctx".
	// An absolute path keeps wrapped commands working when the command
	// itself changes PATH (PATH=/x go test) and avoids alias lookups.
	Program string
	// Session, when non-empty, is exported to each ctx invocation as
	// CTX_SESSION. It must be made of [A-Za-z0-9._:-]; anything else is
	// dropped rather than quoted, so the inserted text stays trivially safe.
	Session string
	// RunArgs are extra arguments to `ctx run` placed before "--", e.g.
	// {"--pipe"}. Each must be a plain word ([A-Za-z0-9._=:/-]).
	RunArgs []string
}

// Rewrite decides whether cmd, a shell command an agent is about to run,
// should go through ctx, and returns the command to run.
//
// It never changes what the command means: the only edit is the insertion of
// "ctx run -- " immediately before the command word of each simple command
// that is known to flood the transcript and whose output reaches it directly;
// every other byte is kept. ctx runs the program with the same argv,
// environment and working directory and exits with its status, so the only
// observable change is that the transcript receives a digest instead of the
// raw bytes. Anything that could change meaning is left alone; see [Reason].
func Rewrite(cmd string) Decision {
	return RewriteWith(cmd, Options{})
}

// RewriteWith is [Rewrite] with options for the inserted text.
func RewriteWith(cmd string, opt Options) Decision {
	d := Decision{Command: cmd, Prefix: opt.prefix()}
	if strings.TrimSpace(cmd) == "" {
		d.Reason = ReasonEmpty
		return d
	}
	if len(cmd) > MaxCommandBytes {
		d.Reason = ReasonTooLong
		return d
	}
	// Anything that mentions ctx is left alone: never wrap twice, and keep
	// the inserted text unique in the result.
	if strings.Contains(cmd, "ctx run") || strings.Contains(cmd, d.Prefix) {
		d.Reason = ReasonAlreadyCtx
		return d
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		d.Reason = ReasonParseError
		return d
	}
	if len(f.Stmts) == 0 {
		d.Reason = ReasonEmpty
		return d
	}
	w := walker{src: cmd}
	w.collectDefinitions(f)
	seqPrefix, seqOK := opt.chainPrefix()
	if seqOK {
		d.Chains, w.inChain = findChains(f, cmd, w.defined)
	}
	w.stmts(f.Stmts, place{ok: true})
	if w.ctx {
		d.Reason = ReasonAlreadyCtx
		d.Chains = nil
		return d
	}
	if len(w.sites) == 0 && len(d.Chains) == 0 {
		d.Reason = w.reason
		if d.Reason == "" {
			d.Reason = ReasonNotFlooding
		}
		return d
	}
	out := edit(cmd, d.Prefix, w.sites, seqPrefix, d.Chains)
	// Belt and braces: the result must still parse. An insertion before a
	// command word cannot break the grammar, but a failure here must never
	// reach the agent as a broken command.
	if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(out), ""); err != nil {
		d.Reason = ReasonParseError
		d.Chains = nil
		return d
	}
	d.Rewrite = true
	d.Command = out
	d.Reason = ReasonWrapped
	d.Sites = w.sites
	return d
}

func (o Options) prefix() string {
	prog := o.Program
	if prog == "" {
		prog = "ctx"
	}
	var b strings.Builder
	if o.Session != "" && plainWord(o.Session, "._:-") {
		b.WriteString("CTX_SESSION=")
		b.WriteString(o.Session)
		b.WriteByte(' ')
	}
	b.WriteString(cmdline.QuoteWord(prog))
	b.WriteString(" run ")
	for _, a := range o.RunArgs {
		if a == "" || a == "--" || !plainWord(a, "._=:/-") {
			continue
		}
		b.WriteString(a)
		b.WriteByte(' ')
	}
	b.WriteString("-- ")
	return b.String()
}

// plainWord reports whether s consists of ASCII letters, digits and the
// bytes in extra only.
func plainWord(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0 {
			continue
		}
		return false
	}
	return s != ""
}

// edit returns src with prefix inserted before each site's offset and each
// chain replaced by its ctx seq (seqPrefix). Sites and chains are each in
// increasing offset order and never overlap.
func edit(src, prefix string, sites []Site, seqPrefix string, chains []Chain) string {
	var b strings.Builder
	b.Grow(len(src) + len(sites)*len(prefix))
	last := 0
	for len(sites) > 0 || len(chains) > 0 {
		if len(chains) == 0 || len(sites) > 0 && sites[0].Offset < chains[0].Offset {
			b.WriteString(src[last:sites[0].Offset])
			b.WriteString(prefix)
			last = sites[0].Offset
			sites = sites[1:]
			continue
		}
		b.WriteString(src[last:chains[0].Offset])
		b.WriteString(chains[0].render(seqPrefix))
		last = chains[0].End
		chains = chains[1:]
	}
	b.WriteString(src[last:])
	return b.String()
}

// place describes where a statement sits: ok means its stdout reaches the
// transcript directly and wrapping is allowed there; otherwise why is the
// reason it is not.
type place struct {
	ok  bool
	why Reason
}

func (p place) not(why Reason) place {
	if !p.ok {
		return p
	}
	return place{why: why}
}

type walker struct {
	src string
	// defined holds names of functions and aliases defined in the command.
	defined map[string]bool
	// tainted is set once the walk passes an eval or a source of an unknown
	// file; later commands may be shell functions we cannot see.
	tainted bool
	// redirected is set once the walk passes `exec >file`: from there on the
	// shell's own stdout is not the transcript.
	redirected bool
	// ctx is set when a command word is ctx itself.
	ctx bool
	// inChain holds the simple commands a ctx seq replaces.
	inChain map[*syntax.CallExpr]bool
	sites   []Site
	reason  Reason
}

// collectDefinitions records every function and alias name in f, wherever it
// is defined: a definition anywhere makes the name unsafe to wrap everywhere.
func (w *walker) collectDefinitions(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				w.define(n.Name.Value)
			}
			for _, l := range n.Names {
				w.define(l.Value)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == "alias" {
				for _, a := range n.Args[1:] {
					v, _ := staticWord(a)
					if i := strings.IndexByte(v, '='); i > 0 {
						w.define(v[:i])
					}
				}
			}
		}
		return true
	})
}

func (w *walker) define(name string) {
	if w.defined == nil {
		w.defined = make(map[string]bool)
	}
	w.defined[name] = true
}

func (w *walker) note(r Reason) {
	if w.reason == "" {
		w.reason = r
	}
}

func (w *walker) stmts(list []*syntax.Stmt, p place) {
	for _, s := range list {
		w.stmt(s, p)
	}
}

func (w *walker) stmt(s *syntax.Stmt, p place) {
	if s.Background || s.Coprocess || s.Disown {
		p = p.not(ReasonBackground)
	}
	if w.redirected {
		p = p.not(ReasonRedirected)
	}
	for _, r := range s.Redirs {
		if !harmlessRedirect(r) {
			p = p.not(ReasonRedirected)
		}
		w.words(p, r.Word)
		if r.Hdoc != nil {
			w.words(p, r.Hdoc)
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, s, p)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt:
			w.stmt(c.X, p)
			w.stmt(c.Y, p)
		default: // | and |&
			w.stmt(c.X, p.not(ReasonPiped))
			w.stmt(c.Y, p.not(ReasonPiped))
		}
	case *syntax.Subshell:
		w.stmts(c.Stmts, p)
	case *syntax.Block:
		w.stmts(c.Stmts, p)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt, p)
		}
	case *syntax.FuncDecl:
		w.stmt(c.Body, p.not(ReasonNested))
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, p.not(ReasonNested))
			w.stmts(ic.Then, p.not(ReasonNested))
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, p.not(ReasonNested))
		w.stmts(c.Do, p.not(ReasonNested))
	case *syntax.ForClause:
		w.stmts(c.Do, p.not(ReasonNested))
	case *syntax.CaseClause:
		for _, it := range c.Items {
			w.stmts(it.Stmts, p.not(ReasonNested))
		}
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, p.not(ReasonBackground))
	case nil:
		// Only redirections, e.g. `>file`.
	default:
		// Arithmetic, [[ ]], declarations, let, test declarations: not
		// programs; look inside their words for substitutions only.
		syntax.Walk(c, func(n syntax.Node) bool { return w.subst(n, p) })
	}
}

// words walks words looking for command and process substitutions.
func (w *walker) words(p place, ws ...*syntax.Word) {
	for _, wd := range ws {
		if wd != nil {
			syntax.Walk(wd, func(n syntax.Node) bool { return w.subst(n, p) })
		}
	}
}

func (w *walker) subst(n syntax.Node, p place) bool {
	switch n := n.(type) {
	case *syntax.CmdSubst:
		w.stmts(n.Stmts, p.not(ReasonNested))
		return false
	case *syntax.ProcSubst:
		w.stmts(n.Stmts, p.not(ReasonNested))
		return false
	}
	return true
}

// harmlessRedirect reports whether a wrapped command with this redirection
// still sends its output to the transcript and reads nothing it would not
// otherwise read: `2>&1` and `2>/dev/null` only.
func harmlessRedirect(r *syntax.Redirect) bool {
	if r.N == nil || r.N.Value != "2" || r.Word == nil {
		return false
	}
	target, ok := staticWord(r.Word)
	if !ok {
		return false
	}
	switch r.Op {
	case syntax.DplOut:
		return target == "1"
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
		return target == "/dev/null"
	}
	return false
}

func (w *walker) call(c *syntax.CallExpr, s *syntax.Stmt, p place) {
	for _, a := range c.Assigns {
		if a.Value != nil {
			w.words(p, a.Value)
		}
		if a.Array != nil {
			for _, e := range a.Array.Elems {
				w.words(p, e.Value)
			}
		}
	}
	w.words(p, c.Args...)
	if len(c.Args) == 0 || w.inChain[c] {
		return
	}
	args := make([]flood.Arg, len(c.Args))
	for i, wd := range c.Args {
		args[i] = makeArg(wd)
	}
	name := args[0]
	if !name.Static {
		if cl := flood.ClassifyName(baseName(name.Value)); cl.Verdict != flood.None {
			w.note(ReasonDynamic)
		}
		return
	}
	base := baseName(name.Value)
	switch base {
	case "ctx":
		w.ctx = true
		return
	case "eval":
		w.tainted = true
		return
	case "source", ".":
		if len(args) < 2 || !isActivateScript(args[1].Value) {
			w.tainted = true
		}
		return
	case "exec":
		if len(args) == 1 && len(s.Redirs) > 0 {
			// `exec >file` redirects the rest of the script.
			for _, r := range s.Redirs {
				if r.Op != syntax.DplIn && r.Op != syntax.RdrIn && !harmlessRedirect(r) {
					w.redirected = true
				}
			}
		}
		return
	}
	cl := flood.Classify(args)
	switch {
	case cl.Verdict == flood.None:
		return
	case cl.Verdict != flood.Flood:
		w.note(reasonOf(cl.Verdict))
		return
	case w.defined[base] || w.defined[name.Value] || w.tainted:
		w.note(ReasonShellDefined)
		return
	case !p.ok:
		w.note(p.why)
		return
	}
	w.sites = append(w.sites, Site{
		Offset: int(c.Args[0].Pos().Offset()),
		Tool:   cl.Tool,
		Family: cl.Family,
	})
}

// reasonOf maps a non-flooding verdict to the reason a command was left alone.
func reasonOf(v flood.Verdict) Reason {
	switch v {
	case flood.Bounded:
		return ReasonBounded
	case flood.Interactive:
		return ReasonInteractive
	case flood.Privileged:
		return ReasonPrivileged
	case flood.Dynamic:
		return ReasonDynamic
	}
	return ReasonNotFlooding
}

// isActivateScript reports whether a sourced path is a virtualenv-style
// activation script, which changes PATH and defines only `deactivate`.
func isActivateScript(p string) bool {
	b := baseName(p)
	return b == "activate" || b == "activate.sh" || b == "activate.bash"
}

func makeArg(wd *syntax.Word) flood.Arg {
	v, ok := staticWord(wd)
	if !ok {
		return flood.Arg{Value: v}
	}
	a := flood.Arg{Value: v, Static: true}
	for _, part := range wd.Parts {
		if l, isLit := part.(*syntax.Lit); isLit && strings.ContainsAny(l.Value, "*?[") {
			a.Glob = true
		}
	}
	return a
}

// staticWord returns the value of a word made only of literals and quotes,
// with quotes and backslash escapes removed. ok is false when the word has
// expansions; v then holds the literal prefix, which is enough for naming.
func staticWord(wd *syntax.Word) (v string, ok bool) {
	if wd == nil {
		return "", false
	}
	if len(wd.Parts) == 1 {
		if l, isLit := wd.Parts[0].(*syntax.Lit); isLit && strings.IndexByte(l.Value, '\\') < 0 {
			return l.Value, true
		}
	}
	var b strings.Builder
	ok = true
	for _, part := range wd.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				ok = false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, qp := range p.Parts {
				l, isLit := qp.(*syntax.Lit)
				if !isLit {
					return b.String(), false
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return b.String(), false
		}
	}
	return b.String(), ok
}

func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' { // line continuation
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unescapeDouble(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

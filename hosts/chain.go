package hosts

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/hosts/flood"
)

// Chain is a run of `cmd1 && cmd2 && ...` that [RewriteWith] replaced with
// one `ctx seq -- 'cmd1' -- 'cmd2' ...`.
//
// ctx seq runs each step with sh -c in ctx's directory and environment,
// stops at the first failing step (listing the rest as skipped) and exits
// with that step's status, or 0: exactly what the && list does with the
// same commands. A run is only replaced when that holds whatever the
// commands print:
//
//   - the whole command is one && list, not backgrounded, negated or
//     redirected, with no ||, ;, pipe or newline anywhere in it;
//   - each step is a simple command of known programs (a flooding one, or
//     one whose arguments bound its output), not a shell builtin, so no
//     step changes the shell's directory, variables or functions for the
//     next one, and not after a `source` or `eval` that could define
//     functions ctx cannot see;
//   - every word is static (no $VAR, $(…), brace expansion, glob, or
//     quoting sh reads differently from bash), so sh -c reads each step's
//     source text as the agent's shell would whatever its options; an
//     argument's ~ only at its start, where it expands the same way (bash
//     also expands one after the = of NAME=~/x, sh does not);
//   - its only redirections are 2>&1 and 2>/dev/null, which stay in the
//     step's text;
//   - at least one step floods.
//
// Other commands of the list (cd, source, an assignment, a pipeline) stay
// in place and split the list: `cd api && go build && go test` becomes
// `cd api && ctx seq -- 'go build' -- 'go test'`, which runs the same
// commands in the same order with the same short-circuit, because && is
// associative in both its exit status and what it skips.
type Chain struct {
	// Offset and End delimit the replaced text in the original command.
	Offset, End int
	// Steps are the steps' source texts, in order, as ctx seq runs them.
	Steps []string
}

// seqArgs are the `ctx run` options ctx seq takes too (Options.RunArgs
// beyond these disable chain rewriting).
var seqArgs = []string{"--pipe", "--timeout", "--grace", "--budget", "--pressure"}

// chainPrefix is the text before the steps: the ctx program, session and
// run arguments as in [Options.prefix], with seq for run; ok is false when
// a run argument means nothing to ctx seq.
func (o Options) chainPrefix() (string, bool) {
	for _, a := range o.RunArgs {
		name, _, _ := strings.Cut(a, "=")
		if a != "" && a != "--" && plainWord(a, "._=:/-") && !slices.Contains(seqArgs, name) {
			return "", false
		}
	}
	p := o.prefix()
	i := strings.LastIndex(p, " run ")
	return p[:i] + " seq " + p[i+len(" run "):], true
}

// render is the replacement text of c.
func (c Chain) render(prefix string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(prefix, "-- "))
	for i, s := range c.Steps {
		if i > 0 {
			b.WriteString(" -- ")
		} else {
			b.WriteString("-- ")
		}
		b.WriteString(cmdline.QuoteWord(s))
	}
	return b.String()
}

// findChains returns the chains in f worth one ctx seq each, and the simple
// commands they hold (which the walker then leaves alone).
func findChains(f *syntax.File, src string, defined map[string]bool) ([]Chain, map[*syntax.CallExpr]bool) {
	if len(f.Stmts) != 1 {
		return nil, nil
	}
	top := f.Stmts[0]
	if !plainStmt(top) {
		return nil, nil
	}
	if b, ok := top.Cmd.(*syntax.BinaryCmd); !ok || b.Op != syntax.AndStmt {
		return nil, nil
	}
	var leaves []*syntax.Stmt
	if !andOperands(top, &leaves) {
		return nil, nil
	}
	var chains []Chain
	skip := map[*syntax.CallExpr]bool{}
	var run []*syntax.Stmt
	flooding := false
	flush := func() {
		if len(run) >= 2 && flooding {
			c := Chain{Offset: int(run[0].Pos().Offset()), End: int(run[len(run)-1].End().Offset())}
			for _, s := range run {
				c.Steps = append(c.Steps, src[s.Pos().Offset():s.End().Offset()])
				skip[s.Cmd.(*syntax.CallExpr)] = true
			}
			chains = append(chains, c)
		}
		run, flooding = nil, false
	}
	tainted := false
	for _, s := range leaves {
		ok, floods := false, false
		if !tainted {
			ok, floods = chainStep(s, defined)
		}
		if !ok {
			flush()
			tainted = tainted || taints(s)
			continue
		}
		run = append(run, s)
		flooding = flooding || floods
	}
	flush()
	return chains, skip
}

// plainStmt reports whether s runs in the foreground, un-negated, with no
// redirection of its own.
func plainStmt(s *syntax.Stmt) bool {
	return !s.Background && !s.Coprocess && !s.Disown && !s.Negated && len(s.Redirs) == 0
}

// andOperands appends the operands of a list made of && only to out, in
// order; false when another operator (||, |, |&) is part of it.
func andOperands(s *syntax.Stmt, out *[]*syntax.Stmt) bool {
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok {
		*out = append(*out, s)
		return true
	}
	if b.Op != syntax.AndStmt || !plainStmt(s) {
		return false
	}
	return andOperands(b.X, out) && andOperands(b.Y, out)
}

// taints reports whether a command of the list may define shell functions
// for the ones after it (eval, or source of anything but an activate
// script), as the walker judges.
func taints(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	name, _ := staticWord(c.Args[0])
	switch baseName(name) {
	case "eval":
		return true
	case "source", ".":
		v := ""
		if len(c.Args) > 1 {
			v, _ = staticWord(c.Args[1])
		}
		return !isActivateScript(v)
	}
	return false
}

// chainStep reports whether s can be a step of a ctx seq (see [Chain]), and
// whether it floods.
func chainStep(s *syntax.Stmt, defined map[string]bool) (ok, floods bool) {
	if s.Background || s.Coprocess || s.Disown || s.Negated {
		return false, false
	}
	for _, r := range s.Redirs {
		if !harmlessRedirect(r) {
			return false, false
		}
	}
	c, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(c.Args) == 0 {
		return false, false
	}
	for _, a := range c.Assigns {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || (a.Value != nil && !portableWord(a.Value)) {
			return false, false
		}
	}
	args := make([]flood.Arg, len(c.Args))
	for i, wd := range c.Args {
		if !portableWord(wd) || innerTilde(wd) {
			return false, false
		}
		args[i] = makeArg(wd)
	}
	name := args[0].Value
	if shellBuiltin[baseName(name)] || defined[name] || defined[baseName(name)] || syntax.IsKeyword(name) {
		return false, false
	}
	switch flood.Classify(args).Verdict {
	case flood.Flood:
		return true, true
	case flood.Bounded:
		return true, false
	}
	return false, false
}

// portableWord reports whether wd is static and reads the same under sh as
// under the agent's shell: literals and plain quotes, no $'…', no unquoted
// brace, and no unquoted glob (*, ?, [): how a glob expands depends on the
// shell and its options (set -f, shopt -s globstar, nullglob or failglob,
// zsh's ** and no-match error), which sh -c inside ctx seq does not share.
func portableWord(wd *syntax.Word) bool {
	if _, ok := staticWord(wd); !ok {
		return false
	}
	for _, p := range wd.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(l.Value, "{}*?[") {
			return false
		}
	}
	return true
}

// innerTilde reports whether an argument word holds an unquoted ~ after
// its first character. bash (outside POSIX mode) expands a tilde after
// the = of an argument that looks like an assignment (make PREFIX=~/.local
// gets /home/u/.local) and after each : that follows it; sh leaves the
// word alone, so the step would mean something else under ctx seq's sh -c.
// A leading ~ expands the same in both.
func innerTilde(wd *syntax.Word) bool {
	for i, p := range wd.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := l.Value
		if i == 0 {
			v = strings.TrimPrefix(v, "~")
		}
		if strings.Contains(v, "~") {
			return true
		}
	}
	return false
}

// shellBuiltin lists the builtins of bash and dash: a step naming one would
// run sh's builtin rather than the agent shell's, or change the shell
// itself.
var shellBuiltin = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`. : [ alias bg bind break builtin caller cd command compgen complete
		compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help
		history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set
		shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait`) {
		shellBuiltin[n] = true
	}
}

package cmdline

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Split splits a command line typed as one string (`ctx ingest --as`, a
// fixture's cmd file) into words as sh would: quotes removed, backslashes
// honoured. Parameters expand to nothing, so the result never depends on the
// environment; a command substitution or a syntax error is an error.
func Split(line string) ([]string, error) {
	words, err := shell.Fields(line, func(string) string { return "" })
	if err != nil {
		return nil, fmt.Errorf("split %q into words: %w", line, err)
	}
	return words, nil
}

// newParser returns a parser of the scripts agents write: bash, a superset
// of the sh that `sh -c` runs for the cases that matter here.
func newParser() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }

// ScriptCommand returns the words of the first simple command a shell script
// runs, as far as they are known before it runs: `cd DIR &&` prefixes are
// looked through, a pipeline or list gives its first command, assignments and
// redirections are not words, and the words stop at the first one holding an
// expansion ($X, $(…)). It is nil when the script does not parse or does not
// start with a simple command (a subshell, a loop, a function).
func ScriptCommand(script string) []string {
	f, err := newParser().Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	cmd := f.Stmts[0].Cmd
	for {
		switch c := cmd.(type) {
		case *syntax.BinaryCmd:
			if c.Op == syntax.AndStmt && isCd(c.X.Cmd) {
				cmd = c.Y.Cmd
			} else {
				cmd = c.X.Cmd
			}
		case *syntax.TimeClause:
			if c.Stmt == nil {
				return nil
			}
			cmd = c.Stmt.Cmd
		case *syntax.CallExpr:
			return staticWords(c.Args)
		default:
			return nil
		}
	}
}

// Compound reports whether a shell script is more than one simple command: a
// pipeline, a list (;, &&, ||, &, a newline) or a compound command. Its exit
// status is then not the first command's. A script that does not parse
// counts as compound.
func Compound(script string) bool {
	f, err := newParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return true
	}
	if len(f.Stmts) != 1 {
		return len(f.Stmts) > 1
	}
	st := f.Stmts[0]
	for {
		if st.Background || st.Coprocess || st.Negated {
			return true
		}
		t, ok := st.Cmd.(*syntax.TimeClause)
		if !ok || t.Stmt == nil {
			break
		}
		st = t.Stmt // `time cmd` ends as cmd does
	}
	_, simple := st.Cmd.(*syntax.CallExpr)
	return !simple
}

func isCd(c syntax.Command) bool {
	call, ok := c.(*syntax.CallExpr)
	return ok && len(call.Args) > 0 && call.Args[0].Lit() == "cd"
}

// staticWords expands the leading words that hold no expansion.
func staticWords(ws []*syntax.Word) []string {
	var out []string
	for _, w := range ws {
		if !static(w) {
			break
		}
		// A configuration of its own: with nil, expand prepares a shared
		// default in place, a data race between two goroutines that read
		// argv (a live parse and the detection beside it).
		s, err := expand.Literal(&expand.Config{}, w)
		if err != nil {
			break
		}
		out = append(out, s)
	}
	return out
}

// static reports whether a word is the same whatever the environment.
func static(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			ok = false
		}
		return ok
	})
	return ok && !strings.HasPrefix(w.Lit(), "~")
}

package diag

import (
	"github.com/ctxhq/ctx/evidence"
)

// Tools whose success is silent: no output and exit 0 is the tool saying clean.
var silentOnSuccess = map[string]bool{
	"gcc": true, "clang": true, "go": true, "go vet": true, "staticcheck": true, "golint": true,
	"revive": true, "errcheck": true, "ineffassign": true, "go-consistent": true, "golangci-lint": true,
	"tsc": true, "eslint": true, "stylelint": true, "tslint": true, "flake8": true, "pycodestyle": true,
	"pep8": true, "pyflakes": true, "rustc": true, "javac": true, "kotlinc": true, "scalac": true,
	"swiftc": true, "yamllint": true, "buf": true, "protolint": true, "puppet-lint": true,
	"ansible-lint": true, "shellcheck": true, "clang-tidy": true,
}

// Tools that always close with a summary line; its absence means the output
// was cut short.
var closesWithSummary = map[string]bool{
	"cargo": true, "clippy": true, "mypy": true, "ruff": true, "rubocop": true, "black": true,
}

// Tools whose summary counts errors in a way the parsed items can be checked against.
var countsErrors = map[string]bool{
	"eslint": true, "mypy": true, "tsc": true, "rustc": true, "cargo": true,
	"sorbet": true, "luacheck": true, "pyright": true, "msbuild": true, "clang": true,
}

func (p *parser) finish() (*evidence.Graph, error) {
	g := p.g
	if len(g.Items) == 0 && p.dropped == 0 && p.nonBlank > 0 {
		return nil, ErrNoDiagnostics
	}
	if p.dropped > 0 {
		g.Lose("item-cap", "%d diagnostics and summaries beyond the first %d were not itemised; their lines stay in the streams", p.dropped, MaxItems)
	}
	if p.unparsed > 0 {
		g.Lose("partial-parse", "%d lines look like errors but match no diagnostic shape (first at %s)", p.unparsed, p.firstUnparsed)
	}
	errs := 0
	byTool := map[string]int{}
	for i := range g.Items {
		it := &g.Items[i]
		if it.Kind == evidence.KindDiagnostic {
			if it.Severity == evidence.SeverityError {
				errs++
			}
			if it.Tool != "" {
				byTool[it.Tool]++
			}
		}
	}
	// The tools' own error counts, summed per tool; the largest is what the
	// output claims at least.
	reported, haveSummary := p.reported, p.summarised
	claim, claimTool := 0, ""
	for _, tool := range evidence.SortedKeys(reported) {
		if reported[tool] > claim {
			claim, claimTool = reported[tool], tool
		}
	}
	if claim > errs {
		// A tool that prints its errors without a severity word (sorbet) and
		// counts them in its summary: the unmarked findings are those errors.
		var unmarked []int
		for i := range g.Items {
			if it := &g.Items[i]; it.Kind == evidence.KindDiagnostic && it.Attrs["severity"] == "default" {
				unmarked = append(unmarked, i)
			}
		}
		if len(unmarked) == claim-errs {
			for _, i := range unmarked {
				g.Items[i].Severity = evidence.SeverityError
				g.Items[i].Attrs["severity"] = "summary"
			}
			errs = claim
		}
	}
	if claim > errs {
		g.Lose("partial-parse", "%s reports %d errors but %d error diagnostics were parsed", claimTool, claim, errs)
	}
	killed := p.exit == 124 || p.exit > 128
	if killed {
		g.Lose("partial-parse", "the run was cut short (exit %d): diagnostics after the cut are missing", p.exit)
	} else if closesWithSummary[p.argvTool] && p.diags > 0 && !haveSummary[summaryToolOf(p.argvTool)] {
		g.Lose("partial-parse", "%s printed no closing summary: the output may be incomplete", p.argvTool)
	}

	switch {
	case errs > 0 || p.sumFail || claim > 0:
		g.Verdict = "fail"
	case killed || p.exit != 0 || p.unparsed > 0:
		g.Verdict = ""
	case p.sumPass:
		g.Verdict = "pass"
	case p.nonBlank == 0 && silentOnSuccess[p.argvTool]:
		g.Verdict = "pass"
	}
	if len(byTool) == 0 {
		for _, it := range g.Items {
			if it.Kind == evidence.KindSummary && it.Tool != "" {
				byTool[it.Tool]++
			}
		}
	}
	if g.Tool == "" {
		best := 0
		for _, tool := range evidence.SortedKeys(byTool) {
			if byTool[tool] > best {
				best, g.Tool = byTool[tool], tool
			}
		}
	}
	return g, nil
}

// summaryToolOf names the summary a command's tool closes with.
func summaryToolOf(tool string) string {
	switch tool {
	case "clippy":
		return "cargo"
	}
	return tool
}

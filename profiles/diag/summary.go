package diag

import (
	"strings"

	"github.com/ctxhq/ctx/internal/lines"
)

// A summary is a tool's own closing line: counts in the tool's words and what
// it says about the run.
type summary struct {
	tool    string
	name    string         // what the line is about: a crate, a make target
	counts  map[string]int // keyed by the tool's own words
	attrs   map[string]string
	verdict string // "fail", "pass" or "" when the line alone says neither
	noise   bool   // a closing line that carries nothing worth an item
}

type summaryRule struct {
	re *lines.Regexp
	fn func(m []string) summary
}

// words maps the number words rustc and sbt print ("aborting due to previous
// error" has no number at all).
func count(s string) int {
	switch strings.ToLower(s) {
	case "", "a", "an", "one":
		return 1
	case "no", "zero":
		return 0
	case "two":
		return 2
	case "three":
		return 3
	case "four":
		return 4
	case "five":
		return 5
	case "six":
		return 6
	case "seven":
		return 7
	case "eight":
		return 8
	case "nine":
		return 9
	case "ten":
		return 10
	}
	return atoi(s)
}

func failIf(n int) string {
	if n > 0 {
		return "fail"
	}
	return "pass"
}

var summaryRules = []summaryRule{
	// eslint, stylelint: "✖ 7 problems (5 errors, 2 warnings)"
	{lines.Lazy(`^[✖×] (\d+) problems? \((\d+) errors?, (\d+) warnings?\)`), func(m []string) summary {
		e := count(m[2])
		return summary{tool: "eslint", counts: map[string]int{"problems": count(m[1]), "errors": e, "warnings": count(m[3])}, verdict: failIf(e)}
	}},
	{lines.Lazy(`^\s*(\d+) errors? and (\d+) warnings? potentially fixable`), func(m []string) summary {
		return summary{noise: true}
	}},
	{lines.Lazy(`^ESLint found too many warnings \(maximum: (\d+)\)`), func(m []string) summary {
		return summary{tool: "eslint", counts: map[string]int{"max_warnings": count(m[1])}, verdict: "fail"}
	}},
	// eslint compact and unix: "7 problems"
	{lines.Lazy(`^(\d+) problems?$`), func(m []string) summary {
		return summary{tool: "eslint", counts: map[string]int{"problems": count(m[1])}}
	}},
	// mypy: "Found 3 errors in 1 file (checked 1 source file)"
	{lines.Lazy(`^Found (\d+) errors? in (\d+) files? \((?:checked (\d+) source files?|errors prevented further checking)\)`), func(m []string) summary {
		e := count(m[1])
		s := summary{tool: "mypy", counts: map[string]int{"errors": e, "files": count(m[2])}, verdict: failIf(e)}
		if m[3] != "" {
			s.counts["checked"] = count(m[3])
		}
		return s
	}},
	{lines.Lazy(`^Success: no issues found in (\d+) source files?`), func(m []string) summary {
		return summary{tool: "mypy", counts: map[string]int{"errors": 0, "checked": count(m[1])}, verdict: "pass"}
	}},
	// tsc: "Found 4 errors in 2 files.", "Found 1 error in src/a.ts:3", "Found 0 errors. Watching…"
	{lines.Lazy(`^Found (\d+) errors?(?: in (\d+) files?| in the same file, starting at: .*| in \S+:\d+)?\.(?:\s+Watching for file changes\.)?$`), func(m []string) summary {
		e := count(m[1])
		// tsc and ruff both print this line; argv tells them apart (see addSummary).
		s := summary{counts: map[string]int{"errors": e}, verdict: failIf(e)}
		if m[2] != "" {
			s.counts["files"] = count(m[2])
		}
		return s
	}},
	// ruff: "Found 3 errors.", "Found 3 errors (2 fixed, 1 remaining)."
	{lines.Lazy(`^Found (\d+) errors? \((\d+) fixed, (\d+) remaining\)\.$`), func(m []string) summary {
		r := count(m[3])
		return summary{tool: "ruff", counts: map[string]int{"errors": count(m[1]), "fixed": count(m[2]), "remaining": r}, verdict: failIf(r)}
	}},
	{lines.Lazy(`^\[\*\] (\d+) fixable with the`), func(m []string) summary {
		return summary{noise: true}
	}},
	{lines.Lazy(`^No fixes available \(`), func(m []string) summary { return summary{noise: true} }},
	{lines.Lazy(`^All checks passed!$`), func(m []string) summary {
		return summary{tool: "ruff", counts: map[string]int{"errors": 0}, verdict: "pass"}
	}},
	// scalastyle: "Found 1 errors", "Found 1 warnings", "Processed 1 file(s)", "Finished in 358 ms"
	{lines.Lazy(`^Found (\d+) (errors|warnings|infos)$`), func(m []string) summary {
		n := count(m[1])
		s := summary{tool: "scalastyle", counts: map[string]int{m[2]: n}}
		if m[2] == "errors" {
			s.verdict = failIf(n)
		}
		return s
	}},
	{lines.Lazy(`^Processed (\d+) file\(s\)$`), func(m []string) summary { return summary{noise: true} }},
	{lines.Lazy(`^Finished in \d+ ms$`), func(m []string) summary { return summary{noise: true} }},
	// pylint: "Your code has been rated at 7.50/10 (previous run: …)"
	{lines.Lazy(`^Your code has been rated at (-?[\d.]+)/10`), func(m []string) summary {
		return summary{tool: "pylint", attrs: map[string]string{"rating": m[1] + "/10"}}
	}},
	{lines.Lazy(`^-{10,}$`), func(m []string) summary { return summary{noise: true} }},
	// rubocop, standardrb, fasterer: "55 files inspected, 262 offenses detected, 3 offenses autocorrectable"
	{lines.Lazy(`^(\d+) files? inspected, (no|\d+) offenses? detected(?:, (\d+) offenses? (?:auto-?)?correct(?:ed|able))?`), func(m []string) summary {
		o := count(m[2])
		s := summary{tool: "rubocop", counts: map[string]int{"files": count(m[1]), "offenses": o}, verdict: failIf(o)}
		if m[3] != "" {
			s.counts["correctable"] = count(m[3])
		}
		return s
	}},
	{lines.Lazy(`^Inspecting (\d+) files?$`), func(m []string) summary { return summary{noise: true} }},
	{lines.Lazy(`^Offenses:$`), func(m []string) summary { return summary{noise: true} }},
	// reek: "65 total warnings"
	{lines.Lazy(`^(\d+) total warnings?$`), func(m []string) summary {
		n := count(m[1])
		return summary{tool: "reek", counts: map[string]int{"warnings": n}}
	}},
	{lines.Lazy(`^Inspecting (\d+) file\(s\):$`), func(m []string) summary { return summary{noise: true} }},
	// clang: "2 warnings and 2 errors generated.", "1 error generated."
	{lines.Lazy(`^(\d+) (warnings?|errors?)(?: and (\d+) (errors?))? generated\.$`), func(m []string) summary {
		s := summary{tool: "clang", counts: map[string]int{}}
		s.counts[plural(m[2])] = count(m[1])
		if m[3] != "" {
			s.counts[plural(m[4])] = count(m[3])
		}
		s.verdict = failIf(s.counts["errors"])
		if s.verdict == "pass" {
			s.verdict = ""
		}
		return s
	}},
	// gcc
	{lines.Lazy(`^compilation terminated\.$`), func(m []string) summary {
		return summary{tool: "gcc", counts: map[string]int{"terminated": 1}, verdict: "fail"}
	}},
	{lines.Lazy(`^(cc1\w*|lto1|f951): (all|some) warnings being treated as errors$`), func(m []string) summary {
		return summary{tool: "gcc", attrs: map[string]string{"werror": m[2]}, verdict: "fail"}
	}},
	// rustc and cargo
	{lines.Lazy(`^error: aborting due to (?:(\w+) )?previous errors?(?:; (\d+) warnings? emitted)?`), func(m []string) summary {
		s := summary{tool: "rustc", counts: map[string]int{"errors": count(m[1])}, verdict: "fail"}
		if m[2] != "" {
			s.counts["warnings"] = count(m[2])
		}
		return s
	}},
	{lines.Lazy("^error: could not compile `([^`]+)`(?: \\(([^)]*)\\))?(?: due to (\\w+) previous errors?)?(?:; (\\d+) warnings? emitted)?"), func(m []string) summary {
		s := summary{tool: "cargo", name: m[1], counts: map[string]int{}, verdict: "fail"}
		if m[3] != "" {
			s.counts["errors"] = count(m[3])
		}
		if m[4] != "" {
			s.counts["warnings"] = count(m[4])
		}
		return s
	}},
	{lines.Lazy("^warning: `([^`]+)` \\(([^)]*)\\) generated (\\d+) warnings?"), func(m []string) summary {
		// One line per target: "`calc` (lib)" and "`calc` (lib test)" are two.
		return summary{tool: "cargo", name: m[1] + " (" + m[2] + ")", counts: map[string]int{"warnings": count(m[3])}}
	}},
	{lines.Lazy(`^warning: (\d+) warnings? emitted$`), func(m []string) summary {
		return summary{tool: "rustc", counts: map[string]int{"warnings": count(m[1])}}
	}},
	{lines.Lazy(`^Finished .*target\(s\) in `), func(m []string) summary {
		return summary{tool: "cargo", counts: map[string]int{"errors": 0}, verdict: "pass"}
	}},
	{lines.Lazy(`^error: build failed$`), func(m []string) summary {
		return summary{tool: "cargo", verdict: "fail"}
	}},
	{lines.Lazy(`^(?:Some errors have detailed explanations|For more information about (?:this|an) error, try)`), func(m []string) summary {
		return summary{noise: true}
	}},
	// go
	{lines.Lazy(`^(?:\S+: )?too many errors$`), func(m []string) summary {
		return summary{tool: "go", counts: map[string]int{"too_many_errors": 1}, verdict: "fail"}
	}},
	// make
	{lines.Lazy(`^(?:g?make)(?:\[\d+\])?: \*\*\* (?:\[(.+?)\] )?Error (\d+)`), func(m []string) summary {
		return summary{tool: "make", name: m[1], counts: map[string]int{"status": count(m[2])}, verdict: "fail"}
	}},
	// black
	{lines.Lazy(`^(\d+) files? (?:would be reformatted|would be left unchanged|would fail to reformat|reformatted|left unchanged|failed to reformat).*$`), blackSummary},
	{lines.Lazy(`^(?:All done!|Oh no!)`), func(m []string) summary { return summary{noise: true} }},
	// sorbet
	{lines.Lazy(`^Errors: (\d+)$`), func(m []string) summary {
		e := count(m[1])
		return summary{tool: "sorbet", counts: map[string]int{"errors": e}, verdict: failIf(e)}
	}},
	{lines.Lazy(`^No errors! Great job\.$`), func(m []string) summary {
		return summary{tool: "sorbet", counts: map[string]int{"errors": 0}, verdict: "pass"}
	}},
	// sbt and maven
	{lines.Lazy(`^\[(?:error|warn|ERROR|WARNING)\] (\w+) (errors?|warnings?) found$`), func(m []string) summary {
		n := count(m[1])
		s := summary{tool: "sbt", counts: map[string]int{plural(m[2]): n}}
		if strings.HasPrefix(m[2], "error") {
			s.verdict = failIf(n)
		}
		return s
	}},
	{lines.Lazy(`^\[error\] \(([^)]*)\) Compilation failed`), func(m []string) summary {
		return summary{tool: "sbt", name: m[1], verdict: "fail"}
	}},
	{lines.Lazy(`^\[(error|success)\] Total time:`), func(m []string) summary {
		if m[1] == "success" {
			return summary{tool: "sbt", verdict: "pass"}
		}
		return summary{noise: true}
	}},
	{lines.Lazy(`^\[(?:ERROR|INFO)\] BUILD (FAILURE|SUCCESS)$`), func(m []string) summary {
		if m[1] == "SUCCESS" {
			return summary{tool: "maven", verdict: "pass"}
		}
		return summary{tool: "maven", verdict: "fail"}
	}},
	// golangci-lint: "3 issues:" then "* errcheck: 2"; "0 issues."
	{lines.Lazy(`^(\d+) issues?[:.]$`), func(m []string) summary {
		n := count(m[1])
		return summary{tool: "golangci-lint", counts: map[string]int{"issues": n}, verdict: failIf(n)}
	}},
	{lines.Lazy(`^\* [\w-]+: \d+$`), func(m []string) summary { return summary{noise: true} }},
	// msbuild and dotnet
	{lines.Lazy(`^\s*(\d+) (Warning|Error)\(s\)$`), func(m []string) summary {
		n := count(m[1])
		s := summary{tool: "msbuild", counts: map[string]int{strings.ToLower(m[2]) + "s": n}}
		if m[2] == "Error" {
			s.verdict = failIf(n)
		}
		return s
	}},
	{lines.Lazy(`^\s*Time Elapsed \d`), func(m []string) summary { return summary{noise: true} }},
	// hlint
	{lines.Lazy(`^(\d+) hints?$`), func(m []string) summary {
		return summary{tool: "hlint", counts: map[string]int{"hints": count(m[1])}}
	}},
	{lines.Lazy(`^No hints$`), func(m []string) summary {
		return summary{tool: "hlint", counts: map[string]int{"hints": 0}, verdict: "pass"}
	}},
	// luacheck: "Total: 4 warnings / 0 errors in 1 file"
	{lines.Lazy(`^Total: (\d+) warnings? / (\d+) errors? in (\d+) files?`), func(m []string) summary {
		e := count(m[2])
		return summary{tool: "luacheck", counts: map[string]int{"warnings": count(m[1]), "errors": e, "files": count(m[3])}, verdict: failIf(e)}
	}},
	// pyright: "3 errors, 1 warning, 0 informations"
	{lines.Lazy(`^(\d+) errors?, (\d+) warnings?, (\d+) (?:informations?|notes?)\s*$`), func(m []string) summary {
		e := count(m[1])
		return summary{tool: "pyright", counts: map[string]int{"errors": e, "warnings": count(m[2]), "informations": count(m[3])}, verdict: failIf(e)}
	}},
	// standardrb's banner
	{lines.Lazy(`^standard: (?:Use Ruby Standard Style|Run ` + "`" + `standardrb --fix` + "`" + `)`), func(m []string) summary { return summary{noise: true} }},
}

// blackSummary reads black's comma-separated closing line.
var reBlackPart = lines.Lazy(`(\d+) files? (would be reformatted|would be left unchanged|would fail to reformat|reformatted|left unchanged|failed to reformat)`)

func blackSummary(m []string) summary {
	s := summary{tool: "black", counts: map[string]int{}}
	for _, p := range reBlackPart.FindAllStringSubmatch(m[0], -1) {
		s.counts[strings.ReplaceAll(p[2], " ", "_")] += count(p[1])
	}
	s.verdict = failIf(s.counts["would_be_reformatted"] + s.counts["would_fail_to_reformat"] + s.counts["failed_to_reformat"])
	return s
}

func plural(w string) string {
	if strings.HasSuffix(w, "s") {
		return w
	}
	return w + "s"
}

// matchSummary recognises a tool's closing line. The line is trimmed of
// trailing space but keeps its indentation.
func matchSummary(line string) (summary, bool) {
	t := strings.TrimSpace(line)
	if t == "" {
		return summary{}, false
	}
	for i, r := range summaryRules {
		if !summaryLeads[i].admits(t[0]) {
			continue
		}
		m := r.re.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		return r.fn(m), true
	}
	return summary{}, false
}

// lead is what the first byte of a rule's match must be, read from its pattern.
type lead struct {
	any   bool
	digit bool
	b     byte
}

func (l lead) admits(c byte) bool {
	return l.any || l.digit && isDigit(c) || !l.digit && c == l.b
}

var summaryLeads = func() []lead {
	out := make([]lead, len(summaryRules))
	for i, r := range summaryRules {
		out[i] = leadOf(r.re.String())
	}
	return out
}()

func leadOf(pat string) lead {
	p := strings.TrimPrefix(pat, "^")
	switch {
	case strings.HasPrefix(p, `(\d+)`), strings.HasPrefix(p, `\d`):
		return lead{digit: true}
	case len(p) >= 2 && p[0] == '\\' && !isLetter(p[1]) && !isDigit(p[1]):
		return lead{b: p[1]}
	case len(p) >= 1 && (isLetter(p[0]) || isDigit(p[0]) || p[0] == ' ' || p[0] == '-' || p[0] == '#'):
		return lead{b: p[0]}
	}
	return lead{any: true}
}

// summaryPrefilter cheaply rejects lines that cannot be summaries.
func summaryPrefilter(t string) bool {
	if t == "" {
		return false
	}
	c := t[0]
	return isDigit(c) || c == '[' || c == '*' || c == '-' || c == 0xe2 || c == 0xc3 || // ✖ × are multi-byte
		strings.HasPrefix(t, "Found ") || strings.HasPrefix(t, "Success") || strings.HasPrefix(t, "All ") ||
		strings.HasPrefix(t, "Your ") || strings.HasPrefix(t, "Processed") || strings.HasPrefix(t, "Finished") ||
		strings.HasPrefix(t, "Inspecting") || strings.HasPrefix(t, "Offenses") || strings.HasPrefix(t, "compilation") ||
		strings.HasPrefix(t, "cc1") || strings.HasPrefix(t, "lto1") || strings.HasPrefix(t, "f951") ||
		strings.HasPrefix(t, "error: ") || strings.HasPrefix(t, "warning: ") || strings.HasPrefix(t, "Some errors") ||
		strings.HasPrefix(t, "For more") || strings.HasPrefix(t, "make") || strings.HasPrefix(t, "gmake") ||
		strings.HasPrefix(t, "Oh no") || strings.HasPrefix(t, "Errors: ") || strings.HasPrefix(t, "No ") ||
		strings.HasPrefix(t, "ESLint") || strings.HasPrefix(t, "Time Elapsed") || strings.HasPrefix(t, "Total: ") ||
		strings.HasPrefix(t, "standard: ") || strings.Contains(t, "too many errors")
}

package diag

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// parse runs the profile over in-memory streams and seals the graph.
func parse(t testing.TB, argv []string, exit int, stdout, stderr string) *evidence.Graph {
	t.Helper()
	g, err := Parse(context.Background(), evidence.BytesSource(argv, exit, []byte(stdout), []byte(stderr)))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	g.Seal("run:test")
	return g
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseTestdata parses a captured stream as the stream it was captured from.
func parseTestdata(t testing.TB, name string, argv []string, exit int) *evidence.Graph {
	t.Helper()
	data := readTestdata(t, name)
	if strings.HasSuffix(name, ".stderr") {
		return parse(t, argv, exit, "", data)
	}
	return parse(t, argv, exit, data, "")
}

type sevCount struct{ errors, warnings, info, notes int }

func countSev(g *evidence.Graph) sevCount {
	var c sevCount
	for _, it := range g.Items {
		if it.Kind != evidence.KindDiagnostic {
			continue
		}
		switch it.Severity {
		case evidence.SeverityError:
			c.errors++
		case evidence.SeverityWarning:
			c.warnings++
		case evidence.SeverityInfo:
			c.info++
		case evidence.SeverityNote:
			c.notes++
		}
	}
	return c
}

func diags(g *evidence.Graph) []evidence.Item {
	var out []evidence.Item
	for _, it := range g.Items {
		if it.Kind == evidence.KindDiagnostic {
			out = append(out, it)
		}
	}
	return out
}

func summaries(g *evidence.Graph) []evidence.Item {
	var out []evidence.Item
	for _, it := range g.Items {
		if it.Kind == evidence.KindSummary {
			out = append(out, it)
		}
	}
	return out
}

func lossCodes(g *evidence.Graph) string {
	var c []string
	for _, l := range g.Losses {
		c = append(c, l.Code)
	}
	return strings.Join(c, ",")
}

// want describes one diagnostic to find; zero fields are not checked.
type want struct {
	tool, file string
	line, col  int
	sev        evidence.Severity
	code, msg  string
	span       string // "L2-8"
	detail     string
}

func (w want) match(it evidence.Item) bool {
	if it.Kind != evidence.KindDiagnostic || it.File != w.file || it.Line != w.line {
		return false
	}
	if w.col != 0 && it.Col != w.col || w.sev != "" && it.Severity != w.sev || w.code != "" && it.Code != w.code ||
		w.tool != "" && it.Tool != w.tool || w.msg != "" && it.Message != w.msg {
		return false
	}
	if w.span != "" && !strings.HasSuffix(it.Span.Handle(), ":"+w.span) {
		return false
	}
	if w.detail != "" && !strings.HasSuffix(it.Detail.Handle(), ":"+w.detail) {
		return false
	}
	return true
}

func findWant(t *testing.T, g *evidence.Graph, w want) {
	t.Helper()
	for _, it := range g.Items {
		if w.match(it) {
			return
		}
	}
	var got []string
	for _, it := range diags(g) {
		j, _ := json.Marshal(it)
		got = append(got, string(j))
	}
	t.Errorf("no item matches %+v; items:\n%s", w, strings.Join(got, "\n"))
}

func TestRealOutputs(t *testing.T) {
	tests := []struct {
		file    string
		argv    []string
		exit    int
		verdict string
		sev     sevCount
		tool    string
		wants   []want
		losses  string
	}{
		{file: "gcc_main.stderr", argv: []string{"gcc", "-Wall", "-c", "main.c"}, exit: 1, verdict: "fail",
			sev: sevCount{errors: 2, warnings: 6, notes: 2}, tool: "gcc",
			wants: []want{
				// The include chain and the function context belong to the error's span; its note to its detail.
				{file: "a.h", line: 2, col: 20, sev: "error", span: "L1-5", detail: "L1-6", tool: "gcc"},
				{file: "a.h", line: 2, col: 20, sev: "note", span: "L6"},
				{file: "main.c", line: 9, col: 18, sev: "warning", code: "-Wformat=", span: "L11-16"},
				{file: "main.c", line: 10, col: 16, sev: "error", msg: "too many arguments to function ‘add’", span: "L17-19", detail: "L17-22"},
				{file: "main.c", line: 4, col: 5, sev: "note", msg: "declared here", span: "L20-22"},
				{file: "a.h", line: 1, col: 12, sev: "warning", code: "-Wunused-function", span: "L33-36"},
			}},
		{file: "gcc_main_color.stderr", argv: []string{"gcc"}, exit: 1, verdict: "fail",
			sev: sevCount{errors: 2, warnings: 6, notes: 2}, tool: "gcc",
			wants: []want{{file: "a.h", line: 2, col: 20, sev: "error", span: "L1-5", msg: "‘undefined_in_header’ undeclared (first use in this function)"}}},
		{file: "clang_main.stderr", argv: []string{"clang", "-Wall", "-c", "main.c"}, exit: 1, verdict: "fail",
			sev: sevCount{errors: 2, warnings: 2, notes: 1}, tool: "clang",
			wants: []want{
				{file: "./a.h", line: 2, col: 13, sev: "error", span: "L1-4"},
				{file: "main.c", line: 9, col: 17, sev: "warning", code: "-Wformat", span: "L8-11"},
				{file: "main.c", line: 10, col: 19, sev: "error", detail: "L12-17"},
			}},
		{file: "gpp_template.stderr", argv: []string{"g++"}, exit: 1, verdict: "fail", sev: sevCount{errors: 1}, tool: "gcc",
			wants: []want{{file: "tmpl.cpp", line: 4, col: 18, sev: "error", span: "L1-5"}}},
		{file: "gcc_link.stderr", argv: []string{"gcc", "link.c"}, exit: 1, verdict: "fail", sev: sevCount{errors: 2}, tool: "gcc",
			wants: []want{{file: "link.c", sev: "error", tool: "ld", msg: "undefined reference to `missing'", span: "L1-2"}}},
		{file: "gcc_warn.stderr", argv: []string{"gcc"}, exit: 0, verdict: "", sev: sevCount{warnings: 1}, tool: "gcc",
			wants: []want{{file: "ok.c", line: 1, col: 22, sev: "warning", code: "-Wunused-variable", span: "L1-4"}}},
		{file: "clang_warn.stderr", argv: []string{"clang"}, exit: 0, verdict: "", sev: sevCount{warnings: 1}, tool: "clang"},
		{file: "go_build.stderr", argv: []string{"go", "build", "./..."}, exit: 1, verdict: "fail", sev: sevCount{errors: 6}, tool: "go",
			wants: []want{
				{file: "util/util.go", line: 4, col: 17, sev: "error", msg: "undefined: missing", span: "L2"},
				{file: "./main.go", line: 11, col: 14, sev: "error", msg: "undefined: y"},
			}},
		{file: "go_vet_typeerr.stderr", argv: []string{"go", "vet", "./..."}, exit: 1, verdict: "fail", sev: sevCount{errors: 2}, tool: "go vet",
			wants: []want{{file: "./main.go", line: 10, col: 17, sev: "error", span: "L5"}}},
		{file: "go_vet.stderr", argv: []string{"go", "vet", "./..."}, exit: 1, verdict: "", sev: sevCount{warnings: 5}, tool: "go vet",
			wants: []want{{file: "main.go", line: 15, col: 14, sev: "warning", msg: "fmt.Printf format %s has arg x of wrong type int"}}},
		{file: "cargo_check_types.stderr", argv: []string{"cargo", "check"}, exit: 101, verdict: "fail", sev: sevCount{errors: 2}, tool: "cargo",
			wants: []want{
				{file: "src/main.rs", line: 7, col: 18, sev: "error", code: "E0308", msg: "mismatched types", span: "L2-8"},
				{file: "src/main.rs", line: 11, col: 5, sev: "error", code: "E0061", span: "L10-25"},
			}},
		{file: "cargo_check_borrow.stderr", argv: []string{"cargo", "check"}, exit: 101, verdict: "fail", sev: sevCount{errors: 1, warnings: 2}, tool: "cargo",
			wants: []want{
				{file: "src/main.rs", line: 5, col: 22, sev: "error", code: "E0382", span: "L12-25"},
				{file: "src/main.rs", line: 6, col: 9, sev: "warning", code: "unused_mut", span: "L2-10"},
			}},
		{file: "cargo_check_short.stderr", argv: []string{"cargo", "check", "--message-format", "short"}, exit: 101, verdict: "fail", sev: sevCount{errors: 1, warnings: 2}, tool: "cargo",
			wants: []want{{file: "src/main.rs", line: 5, col: 22, sev: "error", code: "E0382", span: "L3"}}},
		{file: "cargo_check_color.stderr", argv: []string{"cargo", "check"}, exit: 101, verdict: "fail", sev: sevCount{errors: 1, warnings: 2}, tool: "cargo",
			wants: []want{{file: "src/main.rs", line: 5, col: 22, sev: "error", code: "E0382", span: "L12-25"}}},
		{file: "rustc_borrow.stderr", argv: []string{"rustc", "src/main.rs"}, exit: 1, verdict: "fail", sev: sevCount{errors: 1, warnings: 2}, tool: "rustc",
			wants: []want{{file: "src/main.rs", line: 5, col: 22, sev: "error", code: "E0382", span: "L11-24"}}},
		{file: "cargo_check_warn.stderr", argv: []string{"cargo", "check"}, exit: 0, verdict: "pass", sev: sevCount{warnings: 1}, tool: "cargo",
			wants: []want{{file: "src/main.rs", line: 2, col: 9, sev: "warning", code: "unused_variables", span: "L2-8"}}},
		{file: "cargo_clippy.stderr", argv: []string{"cargo", "clippy"}, exit: 0, verdict: "pass", sev: sevCount{warnings: 2}, tool: "clippy",
			wants: []want{{file: "src/main.rs", line: 6, col: 8, sev: "warning", code: "clippy::len_zero", span: "L10-17"}}},
		{file: "flake8.stdout", argv: []string{"flake8", "app.py"}, exit: 1, verdict: "fail", sev: sevCount{errors: 1, warnings: 11}, tool: "flake8",
			wants: []want{
				{file: "app.py", line: 5, col: 7, sev: "error", code: "F821", msg: "undefined name 'undefined_name'"},
				{file: "app.py", line: 1, col: 1, sev: "warning", code: "F401"},
			}},
		{file: "pycodestyle.stdout", argv: []string{"pycodestyle", "app.py"}, exit: 1, verdict: "", sev: sevCount{warnings: 9}, tool: "pycodestyle"},
		{file: "mypy.stdout", argv: []string{"mypy", "app.py"}, exit: 1, verdict: "fail", sev: sevCount{errors: 3}, tool: "mypy",
			wants: []want{{file: "app.py", line: 6, sev: "error", code: "arg-type", msg: `Argument 2 to "add" has incompatible type "str"; expected "int"`}}},
		{file: "mypy_clean.stdout", argv: []string{"mypy", "clean.py"}, exit: 0, verdict: "pass", tool: "mypy"},
		{file: "mypy_pretty.stdout", argv: []string{"mypy", "--pretty", "notes.py"}, exit: 1, verdict: "fail", sev: sevCount{errors: 1, notes: 1}, tool: "mypy",
			wants: []want{{file: "notes.py", line: 4, col: 15, sev: "error", code: "arg-type", span: "L2-5",
				msg: `Argument 1 to "append" of "list" has incompatible type "str"; expected "int"`}}},
		{file: "pylint.stdout", argv: []string{"pylint", "app.py"}, exit: 30, verdict: "fail", sev: sevCount{errors: 1, warnings: 5, info: 11}, tool: "pylint",
			wants: []want{{file: "app.py", line: 5, col: 6, sev: "error", code: "E0602"}, {file: "app.py", line: 7, sev: "info", code: "R0903"}}},
		{file: "tsc_pretty.stdout", argv: []string{"tsc", "-p", ".", "--pretty", "true"}, exit: 1, verdict: "fail", sev: sevCount{errors: 4}, tool: "tsc",
			wants: []want{
				{file: "src/a.ts", line: 1, col: 7, sev: "error", code: "TS2322", span: "L1-4", msg: "Type 'string' is not assignable to type 'number'."},
				{file: "src/b.ts", line: 1, col: 22, sev: "error", code: "TS2307", span: "L16-19"},
			}},
		{file: "tsc_plain.stdout", argv: []string{"tsc"}, exit: 1, verdict: "fail", sev: sevCount{errors: 4}, tool: "tsc",
			wants: []want{{file: "src/a.ts", line: 5, col: 3, sev: "error", code: "TS2345", span: "L3"}}},
		{file: "eslint.stdout", argv: []string{"eslint", "src/app.js", "src/bad.js"}, exit: 1, verdict: "fail", sev: sevCount{errors: 5, warnings: 2}, tool: "eslint",
			wants: []want{
				{file: "/tmp/diagnpm/esproj/src/app.js", line: 1, col: 7, sev: "error", code: "no-unused-vars", msg: "'unused' is assigned a value but never used", span: "L3"},
				{file: "/tmp/diagnpm/esproj/src/bad.js", line: 1, col: 11, sev: "error", msg: "Parsing error: Unexpected token ;", span: "L11"},
			}},
		{file: "eslint_color.stdout", argv: []string{"eslint", "--color"}, exit: 1, verdict: "fail", sev: sevCount{errors: 4, warnings: 2}, tool: "eslint",
			wants: []want{{file: "/tmp/diagnpm/esproj/src/app.js", line: 4, col: 9, sev: "warning", code: "eqeqeq"}}},
		// Warnings only: eslint says 0 errors and exits 0.
		{file: "eslint_warn.stdout", argv: []string{"eslint"}, exit: 0, verdict: "pass", sev: sevCount{warnings: 6}, tool: "eslint"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			g := parseTestdata(t, tt.file, tt.argv, tt.exit)
			if g.Profile != Name || g.Version != Version {
				t.Errorf("profile %q v%d", g.Profile, g.Version)
			}
			if g.Verdict != tt.verdict {
				t.Errorf("verdict %q, want %q (losses %v)", g.Verdict, tt.verdict, g.Losses)
			}
			if g.Tool != tt.tool {
				t.Errorf("tool %q, want %q", g.Tool, tt.tool)
			}
			if got := countSev(g); got != tt.sev {
				t.Errorf("severities %+v, want %+v", got, tt.sev)
			}
			if got := lossCodes(g); got != tt.losses {
				t.Errorf("losses %v, want %q", g.Losses, tt.losses)
			}
			for _, w := range tt.wants {
				findWant(t, g, w)
			}
			// Without argv (ctx ingest, make, sh -c) the same output must be
			// detected and give the same locations and severities of errors.
			var src *evidence.Source
			data := []byte(readTestdata(t, tt.file))
			if strings.HasSuffix(tt.file, ".stderr") {
				src = evidence.BytesSource(nil, tt.exit, nil, data)
			} else {
				src = evidence.BytesSource(nil, tt.exit, data, nil)
			}
			if !Content(src) {
				t.Errorf("Content does not claim %s", tt.file)
			}
			g2, err := Parse(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := errorLocs(g), errorLocs(g2); a != b {
				t.Errorf("errors differ without argv:\nargv:    %s\ncontent: %s", a, b)
			}
		})
	}
}

func errorLocs(g *evidence.Graph) string {
	var b strings.Builder
	for _, it := range diags(g) {
		if it.Severity == evidence.SeverityError {
			b.WriteString(it.File + ":" + itoa(it.Line) + ":" + itoa(it.Col) + " " + it.Code + "; ")
		}
	}
	return b.String()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestSummaries(t *testing.T) {
	g := parseTestdata(t, "eslint.stdout", []string{"eslint"}, 1)
	s := summaries(g)
	if len(s) != 1 || s[0].Tool != "eslint" || s[0].Counts["errors"] != 5 || s[0].Counts["warnings"] != 2 || s[0].Counts["problems"] != 7 {
		t.Errorf("eslint summary %+v", s)
	}
	g = parseTestdata(t, "cargo_check_borrow.stderr", []string{"cargo", "check"}, 101)
	s = summaries(g)
	if len(s) != 2 || s[1].Name != "rsborrow" || s[1].Counts["errors"] != 1 || s[1].Counts["warnings"] != 2 {
		t.Errorf("cargo summaries %+v", s)
	}
	g = parseTestdata(t, "mypy.stdout", []string{"mypy"}, 1)
	s = summaries(g)
	if len(s) != 1 || s[0].Counts["errors"] != 3 || s[0].Counts["files"] != 1 || s[0].Counts["checked"] != 1 {
		t.Errorf("mypy summary %+v", s)
	}
	g = parseTestdata(t, "clang_main.stderr", []string{"clang"}, 1)
	s = summaries(g)
	if len(s) != 1 || s[0].Tool != "clang" || s[0].Counts["errors"] != 2 || s[0].Counts["warnings"] != 2 {
		t.Errorf("clang summary %+v", s)
	}
}

// Shapes we could not run here, written from the tools' documented formats.
func TestSyntheticShapes(t *testing.T) {
	tests := []struct {
		name    string
		argv    []string
		exit    int
		out     string
		verdict string
		sev     sevCount
		wants   []want
	}{
		{name: "staticcheck", argv: []string{"staticcheck", "./..."}, exit: 1,
			out:   "main.go:3:5: should use time.Since instead of time.Now().Sub (S1012)\nmain.go:9:2: this value of err is never used (SA4006)\n",
			sev:   sevCount{warnings: 2},
			wants: []want{{file: "main.go", line: 9, col: 2, sev: "warning", code: "SA4006", msg: "this value of err is never used"}}},
		{name: "golangci-lint", argv: []string{"golangci-lint", "run"}, exit: 1,
			out:     "main.go:5:2: Error return value of `f` is not checked (errcheck)\n\tf()\n\t^\nmain.go:7:9: undefined: g (typecheck)\n\tx := g()\n\t     ^\n3 issues:\n* errcheck: 1\n* typecheck: 1\n",
			verdict: "fail", sev: sevCount{errors: 1, warnings: 1},
			wants: []want{
				{file: "main.go", line: 5, col: 2, sev: "warning", code: "errcheck", msg: "Error return value of `f` is not checked", span: "L1-3"},
				{file: "main.go", line: 7, col: 9, sev: "error", code: "typecheck", span: "L4-6"},
			}},
		{name: "ruff concise", argv: []string{"ruff", "check"}, exit: 1,
			out:     "a.py:1:8: F401 [*] `os` imported but unused\na.py:3:1: E999 SyntaxError: unexpected indent\nFound 2 errors.\n[*] 1 fixable with the `--fix` option.\n",
			verdict: "fail", sev: sevCount{errors: 1, warnings: 1},
			wants: []want{{file: "a.py", line: 1, col: 8, sev: "warning", code: "F401", msg: "`os` imported but unused"},
				{file: "a.py", line: 3, col: 1, sev: "error", code: "E999"}}},
		{name: "ruff full old", argv: []string{"ruff", "check", "--output-format", "full"}, exit: 1,
			out:     "a.py:1:8: F401 [*] `os` imported but unused\n  |\n1 | import os\n  |        ^^ F401\n  |\n  = help: Remove unused import: `os`\n\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n",
			verdict: "fail", sev: sevCount{warnings: 1}, // ruff counts every finding as an error
			wants: []want{{file: "a.py", line: 1, col: 8, sev: "warning", code: "F401", span: "L1-6"}}},
		{name: "ruff arrow", argv: []string{"ruff", "check"}, exit: 1,
			out:     "F401 [*] `os` imported but unused\n --> a.py:1:8\n  |\n1 | import os\n  |        ^^\n  |\nhelp: Remove unused import: `os`\n\nF821 Undefined name `x`\n --> a.py:3:7\n  |\n3 | print(x)\n  |       ^\n  |\n\nFound 2 errors.\n",
			verdict: "fail", sev: sevCount{errors: 1, warnings: 1},
			wants: []want{{file: "a.py", line: 1, col: 8, sev: "warning", code: "F401", msg: "`os` imported but unused (help: Remove unused import: `os`)", span: "L1-7"},
				{file: "a.py", line: 3, col: 7, sev: "error", code: "F821", span: "L9-14"}}},
		{name: "ruff clean", argv: []string{"ruff", "check"}, exit: 0, out: "All checks passed!\n", verdict: "pass"},
		{name: "pyright", argv: []string{"pyright"}, exit: 1,
			out:     "/w/a.py\n  /w/a.py:3:7 - error: \"x\" is not defined (reportUndefinedVariable)\n  /w/a.py:4:1 - warning: Import \"y\" could not be resolved (reportMissineImports)\n1 error, 1 warning, 0 informations \n",
			verdict: "fail", sev: sevCount{errors: 1, warnings: 1},
			wants: []want{{file: "/w/a.py", line: 3, col: 7, sev: "error", code: "reportUndefinedVariable", msg: "\"x\" is not defined"}}},
		{name: "mypy notes", argv: []string{"mypy", "."}, exit: 1,
			out:     "a.py:3: error: Missing return statement  [return]\na.py:3: note: See https://mypy.rtfd.io/en/stable/_refs.html#code-return\nFound 1 error in 1 file (checked 2 source files)\n",
			verdict: "fail", sev: sevCount{errors: 1, notes: 1},
			wants: []want{{file: "a.py", line: 3, sev: "error", code: "return", detail: "L1-2"}}},
		{name: "black check", argv: []string{"black", "--check", "."}, exit: 1,
			out:     "would reformat src/a.py\nOh no! 💥 💔 💥\n1 file would be reformatted, 3 files would be left unchanged.\n",
			verdict: "fail", sev: sevCount{warnings: 1},
			wants: []want{{file: "src/a.py", sev: "warning", msg: "would reformat", tool: "black"}}},
		{name: "black clean", argv: []string{"black", "--check", "."}, exit: 0,
			out: "All done! ✨ 🍰 ✨\n4 files would be left unchanged.\n", verdict: "pass"},
		{name: "javac", argv: []string{"javac", "App.java"}, exit: 1,
			out:     "App.java:3: error: cannot find symbol\n        Foo f;\n        ^\n  symbol:   class Foo\n  location: class App\n1 error\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "App.java", line: 3, sev: "error", msg: "cannot find symbol", span: "L1-5"}}},
		{name: "maven", argv: []string{"mvn", "compile"}, exit: 1,
			out:     "[INFO] Compiling 1 source file\n[ERROR] /w/src/App.java:[12,5] cannot find symbol\n[INFO] BUILD FAILURE\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "/w/src/App.java", line: 12, col: 5, sev: "error", msg: "cannot find symbol"}}},
		{name: "kotlinc", argv: []string{"kotlinc", "a.kt"}, exit: 1,
			out:     "e: file:///w/src/a.kt:3:5 Unresolved reference: foo\nw: /w/src/b.kt: (4, 9): Variable 'x' is never used\n",
			verdict: "fail", sev: sevCount{errors: 1, warnings: 1},
			wants: []want{{file: "/w/src/a.kt", line: 3, col: 5, sev: "error", msg: "Unresolved reference: foo"},
				{file: "/w/src/b.kt", line: 4, col: 9, sev: "warning"}}},
		{name: "dotnet recap", argv: []string{"dotnet", "build"}, exit: 1,
			out: "  Determining projects to restore...\n/w/Program.cs(3,5): error CS1002: ; expected [/w/App.csproj]\n\nBuild FAILED.\n\n" +
				"/w/Program.cs(3,5): error CS1002: ; expected [/w/App.csproj]\n    0 Warning(s)\n    1 Error(s)\n\nTime Elapsed 00:00:01.23\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "/w/Program.cs", line: 3, col: 5, sev: "error", code: "CS1002", msg: "; expected", span: "L2"}}},
		{name: "make wrapping gcc", argv: []string{"make"}, exit: 2,
			out:     "cc -c main.c\nmain.c:3:5: error: expected ';' before '}' token\n    3 |   x\n      |    ^\n      |    ;\nmake: *** [Makefile:2: main.o] Error 1\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "main.c", line: 3, col: 5, sev: "error", span: "L2-5"}}},
		{name: "make itself", argv: []string{"make"}, exit: 2,
			out:     "Makefile:4: *** missing separator.  Stop.\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "Makefile", line: 4, sev: "error", tool: "make", msg: "missing separator.  Stop."}}},
		{name: "cppcheck", argv: []string{"cppcheck", "a.c"}, exit: 0,
			out:     "Checking a.c ...\n[a.c:3]: (error) Array 'buf[10]' accessed at index 10, which is out of bounds.\na.c:7:3: style: Variable 'y' is assigned a value that is never used. [unreadVariable]\n",
			verdict: "fail", sev: sevCount{errors: 1, info: 1},
			wants: []want{{file: "a.c", line: 3, sev: "error"}, {file: "a.c", line: 7, col: 3, sev: "info", code: "unreadVariable"}}},
		{name: "tsc related information", argv: []string{"tsc", "--pretty"}, exit: 2,
			out:     "src/a.ts:5:3 - error TS2345: Argument of type 'string' is not assignable.\n\n5 f(\"x\");\n    ~~~\n\n  src/a.ts:2:12\n    2 function f(n: number) {\n                 ~\n    The expected type comes from here.\n\n\nFound 1 error in src/a.ts:5\n\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "src/a.ts", line: 5, col: 3, sev: "error", code: "TS2345", span: "L1-9"}}},
		{name: "rust error without location", argv: []string{"cargo", "build"}, exit: 101,
			out:     "   Compiling x v0.1.0 (/w)\nerror: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)\n\nerror: could not compile `x` (bin \"x\") due to 1 previous error\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "", line: 0, sev: "error", msg: "linker `cc` not found", span: "L2-4"}}},
		{name: "sbt", argv: []string{"sbt", "compile"}, exit: 1,
			out:     "[info] Compiling 1 Scala source\n[error] /w/A.scala:6: type mismatch;\n[error]  found   : String\n[error]  required: Int\n[error]   val x: Int = \"a\"\n[error]                ^\n[error] one error found\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "/w/A.scala", line: 6, col: 16, sev: "error", span: "L2-6"}}},
		{name: "gcc fatal driver", argv: []string{"gcc", "nope.c"}, exit: 1,
			out:     "gcc: error: nope.c: No such file or directory\ngcc: fatal error: no input files\ncompilation terminated.\n",
			verdict: "fail", sev: sevCount{errors: 2},
			wants: []want{{file: "", line: 0, tool: "gcc", sev: "error", msg: "nope.c: No such file or directory"}}},
		{name: "mypy file-level error", argv: []string{"mypy", "."}, exit: 2,
			out:     "pkg/a.py: error: Duplicate module named \"a\" (also at \"pkg/b/a.py\")\nFound 1 error in 1 file (errors prevented further checking)\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "pkg/a.py", line: 0, sev: "error", tool: "mypy"}}},
		{name: "windows paths", argv: []string{"golangci-lint", "run"}, exit: 1,
			out:   "C:\\src\\app\\main.go:12:3: ineffectual assignment to err (ineffassign)\n",
			sev:   sevCount{warnings: 1},
			wants: []want{{file: "C:\\src\\app\\main.go", line: 12, col: 3, code: "ineffassign"}}},
		{name: "eslint parse error and clean files", argv: []string{"eslint", "."}, exit: 1,
			out:     "\n/w/a.js\n  0:0  error  Parsing error: Cannot read file  \n\n✖ 1 problem (1 error, 0 warnings)\n",
			verdict: "fail", sev: sevCount{errors: 1},
			wants: []want{{file: "/w/a.js", line: 0, sev: "error", msg: "Parsing error: Cannot read file"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := parse(t, tt.argv, tt.exit, tt.out, "")
			if g.Verdict != tt.verdict {
				t.Errorf("verdict %q, want %q (losses %v)", g.Verdict, tt.verdict, g.Losses)
			}
			if got := countSev(g); got != tt.sev {
				t.Errorf("severities %+v, want %+v", got, tt.sev)
			}
			for _, w := range tt.wants {
				findWant(t, g, w)
			}
		})
	}
}

// Failure-looking text inside a passing or warning-only output must not
// become an error or a failing verdict.
func TestFailureTextInPassingOutput(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		out  string
		sev  sevCount
	}{
		{"rust excerpt prints error text", []string{"cargo", "check"},
			"    Checking x v0.1.0 (/w)\nwarning: unused variable: `msg`\n --> src/main.rs:2:9\n  |\n2 |     let msg = \"error: could not compile `x`\";\n  |         ^^^ help: prefix it with an underscore\n  |\n  = note: `#[warn(unused_variables)]` on by default\n\nwarning: `x` (bin \"x\") generated 1 warning\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.10s\n",
			sevCount{warnings: 1}},
		{"gcc excerpt prints error text", []string{"gcc", "-Wall"},
			"main.c:4:7: warning: unused variable 'e' [-Wunused-variable]\n    4 |   int e = puts(\"main.c:1:1: error: FAILED Traceback\");\n      |       ^\n",
			sevCount{warnings: 1}},
		{"mypy note quoting errors", []string{"mypy", "a.py"},
			"a.py:3: note: Revealed type is \"Literal['error: 3 failed']\"\nSuccess: no issues found in 1 source file\n",
			sevCount{notes: 1}},
		{"eslint warning about error strings", []string{"eslint", "."},
			"\n/w/a.js\n  3:3  warning  Unexpected console statement: console.error(\"FAILED\")  no-console\n\n✖ 1 problem (0 errors, 1 warning)\n",
			sevCount{warnings: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := parse(t, tt.argv, 0, tt.out, "")
			if got := countSev(g); got != tt.sev {
				t.Errorf("severities %+v, want %+v", got, tt.sev)
			}
			want := "pass"
			if tt.argv[0] == "gcc" {
				want = "" // gcc prints no verdict of its own when it only warns
			}
			if g.Verdict != want {
				t.Errorf("verdict %q, want %q (losses %v)", g.Verdict, want, g.Losses)
			}
			if len(g.Losses) != 0 {
				t.Errorf("losses %v", g.Losses)
			}
		})
	}
}

// The exit status and the text disagree: errors in the text win; a clean
// text never becomes a pass when the exit status says otherwise.
func TestExitDisagrees(t *testing.T) {
	g := parseTestdata(t, "tsc_plain.stdout", []string{"tsc"}, 0)
	if g.Verdict != "fail" {
		t.Errorf("errors with exit 0: verdict %q, want fail", g.Verdict)
	}
	g = parse(t, []string{"mypy", "."}, 2, "Success: no issues found in 3 source files\n", "")
	if g.Verdict != "" {
		t.Errorf("clean text with exit 2: verdict %q, want \"\"", g.Verdict)
	}
	g = parse(t, []string{"eslint", "."}, 1, "", "")
	if g.Verdict != "" {
		t.Errorf("silent eslint with exit 1: verdict %q, want \"\"", g.Verdict)
	}
	g = parse(t, []string{"eslint", "."}, 0, "", "")
	if g.Verdict != "pass" || len(g.Items) != 0 {
		t.Errorf("silent eslint with exit 0: verdict %q items %d, want pass and none", g.Verdict, len(g.Items))
	}
	// The summary counts more errors than the rows show: fail, and say so.
	out := "\n/w/a.js\n  1:1  error  Missing semicolon  semi\n\n✖ 3 problems (3 errors, 0 warnings)\n"
	g = parse(t, []string{"eslint", "."}, 1, out, "")
	if g.Verdict != "fail" || lossCodes(g) != "partial-parse" {
		t.Errorf("summary mismatch: verdict %q losses %v", g.Verdict, g.Losses)
	}
}

// Killed mid-run: no summary line. Never a pass, and the loss is labelled.
func TestTruncated(t *testing.T) {
	full := readTestdata(t, "cargo_check_warn.stderr")
	cut := full[:strings.Index(full, "warning: `rswarn`")]
	g := parse(t, []string{"cargo", "check"}, 137, "", cut)
	if g.Verdict != "" {
		t.Errorf("verdict %q, want \"\"", g.Verdict)
	}
	if !strings.Contains(lossCodes(g), "partial-parse") {
		t.Errorf("losses %v, want partial-parse", g.Losses)
	}
	// The same cut stored with exit 0 (an ingested log): the missing
	// "Finished" line still stops a pass.
	g = parse(t, []string{"cargo", "check"}, 0, "", cut)
	if g.Verdict != "" || lossCodes(g) != "partial-parse" {
		t.Errorf("exit 0 cut: verdict %q losses %v", g.Verdict, g.Losses)
	}
	// Cut in the middle of a block: the error already printed still fails the run.
	full = readTestdata(t, "cargo_check_types.stderr")
	g = parse(t, []string{"cargo", "check"}, 143, "", full[:strings.Index(full, "  |\n7 |")])
	if g.Verdict != "fail" || countSev(g).errors != 1 {
		t.Errorf("cut block: verdict %q sev %+v", g.Verdict, countSev(g))
	}
	// A cut with no newline at the end of the last line.
	g = parse(t, []string{"gcc"}, 124, "", "main.c:3:5: error: expected ';' bef")
	if g.Verdict != "fail" || len(diags(g)) != 1 || diags(g)[0].Message != "expected ';' bef" {
		t.Errorf("unterminated line: verdict %q items %+v", g.Verdict, g.Items)
	}
}

func TestANSIAndCRLF(t *testing.T) {
	same := func(t *testing.T, a, b *evidence.Graph) {
		t.Helper()
		ja, _ := json.Marshal(a.Items)
		jb, _ := json.Marshal(b.Items)
		if !bytes.Equal(ja, jb) {
			t.Errorf("items differ:\n%s\n%s", ja, jb)
		}
	}
	plain := parseTestdata(t, "gcc_main.stderr", []string{"gcc"}, 1)
	same(t, plain, parseTestdata(t, "gcc_main_color.stderr", []string{"gcc"}, 1))
	crlf := strings.ReplaceAll(readTestdata(t, "gcc_main.stderr"), "\n", "\r\n")
	same(t, plain, parse(t, []string{"gcc"}, 1, "", crlf))

	plain = parseTestdata(t, "cargo_check_borrow.stderr", []string{"cargo", "check"}, 101)
	same(t, plain, parseTestdata(t, "cargo_check_color.stderr", []string{"cargo", "check"}, 101))

	// eslint --color on one file equals the plain rows of that file.
	col := parseTestdata(t, "eslint_color.stdout", []string{"eslint"}, 1)
	pl := parseTestdata(t, "eslint.stdout", []string{"eslint"}, 1)
	for i, it := range diags(col) {
		p := diags(pl)[i]
		if it.File != p.File || it.Line != p.Line || it.Col != p.Col || it.Severity != p.Severity || it.Code != p.Code || it.Message != p.Message {
			t.Errorf("row %d: colour %+v, plain %+v", i, it, p)
		}
	}
	// tsc --pretty colours everything, including the location.
	pretty := parseTestdata(t, "tsc_pretty.stdout", []string{"tsc"}, 1)
	plainTSC := parseTestdata(t, "tsc_plain.stdout", []string{"tsc"}, 1)
	if errorLocs(pretty) != errorLocs(plainTSC) {
		t.Errorf("tsc pretty %s, plain %s", errorLocs(pretty), errorLocs(plainTSC))
	}
}

func TestStreamsSplit(t *testing.T) {
	// Diagnostics on stderr, the summary on stdout: stdout is read first, spans name their stream.
	g := parse(t, []string{"mypy", "."}, 1, "Found 1 error in 1 file (checked 1 source file)\n", "a.py:3: error: Bad  [misc]\n")
	if g.Verdict != "fail" || len(g.Items) != 2 {
		t.Fatalf("verdict %q items %+v", g.Verdict, g.Items)
	}
	if g.Items[0].Kind != evidence.KindSummary || g.Items[0].Span.Handle() != "run:test#stdout:L1" {
		t.Errorf("first item %+v", g.Items[0])
	}
	if g.Items[1].Span.Handle() != "run:test#stderr:L1" {
		t.Errorf("second item span %q", g.Items[1].Span.Handle())
	}
}

func TestNoDiagnostics(t *testing.T) {
	_, err := Parse(context.Background(), evidence.BytesSource([]string{"gcc"}, 1, []byte("something happened\nand then more\n"), nil))
	if !errors.Is(err, ErrNoDiagnostics) {
		t.Errorf("err %v, want ErrNoDiagnostics", err)
	}
	g := parse(t, []string{"go", "vet", "./..."}, 0, "", "")
	if g.Verdict != "pass" || len(g.Items) != 0 {
		t.Errorf("silent go vet: verdict %q items %d", g.Verdict, len(g.Items))
	}
	g = parse(t, []string{"make"}, 0, "", "")
	if g.Verdict != "" {
		t.Errorf("silent unknown tool: verdict %q, want \"\"", g.Verdict)
	}
}

func TestUnparsedErrorLines(t *testing.T) {
	out := "main.c:3:5: warning: unused variable 'x' [-Wunused-variable]\nERROR something odd happened in the build\n"
	g := parse(t, []string{"make"}, 0, out, "")
	if lossCodes(g) != "partial-parse" || g.Verdict != "" {
		t.Errorf("verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestHeaderLooksLikeError(t *testing.T) {
	// An eslint file header that mentions ERROR is a header, not an unparsed error line.
	out := "\n/w/src/ERROR/handler.js\n  1:1  warning  Unexpected console statement  no-console\n\n✖ 1 problem (0 errors, 1 warning)\n"
	g := parse(t, []string{"eslint", "."}, 0, out, "")
	if len(g.Losses) != 0 || g.Verdict != "pass" || diags(g)[0].File != "/w/src/ERROR/handler.js" {
		t.Errorf("verdict %q losses %v items %+v", g.Verdict, g.Losses, g.Items)
	}
	// ruff's header line before "-->" is not an unparsed line either.
	out = "E999 SyntaxError: Expected an expression\n --> a.py:1:5\n  |\n1 | x = \n  |     ^\n  |\n\nFound 1 error.\n"
	g = parse(t, []string{"ruff", "check"}, 1, out, "")
	if len(g.Losses) != 0 || g.Verdict != "fail" || countSev(g).errors != 1 {
		t.Errorf("ruff: verdict %q losses %v items %+v", g.Verdict, g.Losses, g.Items)
	}
}

func TestCaps(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxItems+7; i++ {
		b.WriteString("a.c:1:1: error: x\n")
	}
	g := parse(t, []string{"gcc"}, 1, b.String(), "")
	if len(g.Items) != MaxItems || lossCodes(g) != "item-cap" || !strings.Contains(g.Losses[0].Detail, "7 ") {
		t.Errorf("items %d losses %v", len(g.Items), g.Losses)
	}
	long := "a.c:1:1: error: " + strings.Repeat("é", 1000) + "\n"
	g = parse(t, []string{"gcc"}, 1, long, "")
	if m := g.Items[0].Message; len(m) > MaxMessage+len("…") || !strings.HasSuffix(m, "…") || !strings.HasPrefix(m, "é") {
		t.Errorf("message %d bytes %q…", len(m), m[:10])
	}
}

func TestIDsStable(t *testing.T) {
	a := parseTestdata(t, "gcc_main.stderr", []string{"gcc"}, 1)
	// The same diagnostics after unrelated output keep their ids.
	b := parse(t, []string{"gcc"}, 1, "", "cc -c other.c\n"+readTestdata(t, "gcc_main.stderr"))
	for i := range a.Items {
		if a.Items[i].ID != b.Items[i].ID {
			t.Errorf("item %d: id %s then %s", i, a.Items[i].ID, b.Items[i].ID)
		}
	}
	// Notes point at their parent by id after Seal.
	for _, it := range a.Items {
		for _, r := range it.Rel {
			if r.Type != "part-of" || len(r.To) != 10 {
				t.Errorf("relation %+v", r)
			}
		}
	}
}

func TestTally(t *testing.T) {
	g := parseTestdata(t, "gcc_main.stderr", []string{"gcc"}, 1)
	tl := TallyOf(g)
	if len(tl.Files) != 2 || tl.Files[0].Key != "a.h" || tl.Files[0].Errors != 1 || tl.Files[0].Total != 4 ||
		tl.Files[1].Key != "main.c" || tl.Files[1].Total != 6 {
		t.Errorf("files %+v", tl.Files)
	}
	if tl.Codes[0].Key != "" || tl.Codes[len(tl.Codes)-1].Key != "-Wunused-variable" || tl.Codes[len(tl.Codes)-1].Total != 2 {
		t.Errorf("codes %+v", tl.Codes)
	}
	ByWeight(tl.Files)
	if tl.Files[0].Key != "a.h" && tl.Files[0].Key != "main.c" {
		t.Errorf("by weight %+v", tl.Files)
	}
	// Deterministic whatever the item order.
	rev := *g
	rev.Items = append([]evidence.Item(nil), g.Items...)
	for i, j := 0, len(rev.Items)-1; i < j; i, j = i+1, j-1 {
		rev.Items[i], rev.Items[j] = rev.Items[j], rev.Items[i]
	}
	ja, _ := json.Marshal(tl)
	tr := TallyOf(&rev)
	ByWeight(tr.Files)
	jb, _ := json.Marshal(tr)
	if !bytes.Equal(ja, jb) {
		t.Errorf("tally depends on order:\n%s\n%s", ja, jb)
	}
}

func TestToolOf(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"gcc", "-c", "a.c"}, "gcc"},
		{[]string{"x86_64-linux-gnu-gcc-12", "a.c"}, "gcc"},
		{[]string{"cc"}, "gcc"},
		{[]string{"g++"}, "gcc"},
		{[]string{"clang-17", "a.c"}, "clang"},
		{[]string{"clang++"}, "clang"},
		{[]string{"go", "build", "./..."}, "go"},
		{[]string{"go", "vet", "./..."}, "go vet"},
		{[]string{"go", "test", "./..."}, ""},
		{[]string{"go", "run", "."}, ""},
		{[]string{"cargo", "check"}, "cargo"},
		{[]string{"cargo", "+nightly", "build"}, "cargo"},
		{[]string{"cargo", "clippy", "--", "-D", "warnings"}, "clippy"},
		{[]string{"cargo", "test"}, ""},
		{[]string{"rustc", "main.rs"}, "rustc"},
		{[]string{"tsc", "--noEmit"}, "tsc"},
		{[]string{"eslint", "."}, "eslint"},
		{[]string{"ruff", "check", "."}, "ruff"},
		{[]string{"ruff"}, "ruff"},
		{[]string{"flake8"}, "flake8"},
		{[]string{"pycodestyle"}, "pycodestyle"},
		{[]string{"mypy", "."}, "mypy"},
		{[]string{"pylint", "pkg"}, "pylint"},
		{[]string{"staticcheck", "./..."}, "staticcheck"},
		{[]string{"golangci-lint", "run"}, "golangci-lint"},
		{[]string{"golangci-lint", "version"}, ""},
		{[]string{"/usr/bin/gcc"}, "gcc"},
		{[]string{"make", "lint"}, ""},
		{[]string{"pytest", "-q"}, ""},
		{[]string{"npm", "test"}, ""},
		{[]string{"cpp"}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := ToolOf(tt.argv); got != tt.want {
			t.Errorf("ToolOf(%q) = %q, want %q", tt.argv, got, tt.want)
		}
		if Argv(tt.argv) != (tt.want != "") {
			t.Errorf("Argv(%q) = %v", tt.argv, !(tt.want != ""))
		}
	}
}

func TestContentRejects(t *testing.T) {
	tests := map[string]string{
		"go test":               "=== RUN   TestX\n    x_test.go:12: got 1, want 2\n--- FAIL: TestX (0.00s)\nFAIL\nFAIL\texample.com/x\t0.01s\n",
		"go test build failure": "# example.com/x\n./x.go:3:5: undefined: y\nFAIL\texample.com/x [build failed]\n",
		"pytest":                "============================= test session starts ==============================\ncollected 3 items\n\ntests/test_a.py F..\n",
		"cargo test":            "running 2 tests\ntest a ... ok\ntest b ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed\n",
		"log":                   "2024-01-01 10:00:00 INFO starting\n2024-01-01 10:00:01 INFO listening on :8080\n2024-01-01 10:00:02 WARN slow request\n",
		"json":                  "{\"a\": 1, \"b\": \"x:1:2: error: y\"}\n",
		"git status":            "On branch main\nChanges not staged for commit:\n\tmodified:   a.go\n",
	}
	for name, out := range tests {
		if Content(evidence.BytesSource([]string{"sh", "-c", "x"}, 1, []byte(out), nil)) {
			t.Errorf("Content claims %s", name)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, name := range []string{"gcc_main.stderr", "cargo_check_borrow.stderr", "tsc_pretty.stdout", "eslint.stdout", "pylint.stdout"} {
		a, _ := json.Marshal(parseTestdata(t, name, nil, 1))
		b, _ := json.Marshal(parseTestdata(t, name, nil, 1))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two parses differ", name)
		}
	}
}

func TestJSONShape(t *testing.T) {
	g := parse(t, []string{"flake8"}, 1, "a.py:3:5: E501 line too long (90 > 79 characters)\n", "")
	b, _ := json.Marshal(g.Items[0])
	want := `{"kind":"diagnostic","id":"` + g.Items[0].ID + `","tool":"flake8","file":"a.py","line":3,"col":5,"severity":"warning","code":"E501","message":"line too long (90 \u003e 79 characters)","span":"run:test#stdout:L1"}`
	if string(b) != want {
		t.Errorf("json\n got %s\nwant %s", b, want)
	}
}

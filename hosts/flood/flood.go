// Package flood knows which shell commands flood an agent's transcript: given
// a simple command's words, it says whether the program prints a lot (test
// runners, builds, linters, installs, history, recursive search, logs),
// whether its own arguments already bound the output, or whether it waits on
// a terminal and must never be captured. It is a pure table: no I/O, no
// dependencies, deterministic. Package hosts uses it to decide which commands
// to rewrite to `ctx run`; the positional rules (pipes, redirections, lists)
// are hosts' business, not this package's.
package flood

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
)

// Verdict is what the table thinks of one simple command in isolation.
type Verdict uint8

const (
	None        Verdict = iota // not known to flood
	Flood                      // floods: worth capturing
	Bounded                    // flood-prone, but its arguments bound the output
	Interactive                // waits on a terminal, watches, follows or never ends
	Privileged                 // may prompt for a password (sudo and friends)
	Dynamic                    // a deciding word is only known at run time
)

// Family is the kind of flood a command produces.
type Family string

const (
	FamilyTest    Family = "test"    // test runners
	FamilyBuild   Family = "build"   // compilers and build tools
	FamilyLint    Family = "lint"    // linters and type checkers
	FamilyInstall Family = "install" // package managers
	FamilyVCS     Family = "vcs"     // git history and diffs
	FamilySearch  Family = "search"  // recursive grep, rg, find
	FamilyLogs    Family = "logs"    // docker/kubectl logs, journalctl, dmesg
	FamilyRead    Family = "read"    // cat/tail/head of log-like files
)

// Arg is one word of a simple command as far as it is known before run time.
type Arg struct {
	Value  string // the word after quote removal; for a non-static word, its literal prefix
	Static bool   // no expansions: Value is exactly what the program receives
	Glob   bool   // static, but contains unquoted glob characters
}

// Class is the table's answer for one command.
type Class struct {
	Verdict Verdict
	Tool    string // the program the verdict is about, after looking through wrappers
	Family  Family // set when Verdict is Flood
}

var none = Class{}

func flood(tool string, f Family) Class { return Class{Verdict: Flood, Tool: tool, Family: f} }
func bounded(tool string) Class         { return Class{Verdict: Bounded, Tool: tool} }
func interactive(tool string) Class     { return Class{Verdict: Interactive, Tool: tool} }

// boundLines is the largest line count a tail/head/logs invocation may ask
// for and still count as bounded.
const boundLines = 200

// Classify looks at a simple command's words (args[0] is the command word,
// static) and says whether it floods. It looks through wrappers (timeout,
// env, nice, npx, uv run, bundle exec...); the wrapper is what gets wrapped,
// since ctx executes exactly the same argv.
func Classify(args []Arg) Class {
	if len(args) == 0 || !args[0].Static {
		return none
	}
	name := cmdline.Program(args[0].Value)
	rest := args[1:]
	if has(rest, "--help") || has(rest, "--version") {
		return none
	}
	switch name {
	case "sudo", "doas", "su", "pkexec", "run0", "sudoedit":
		return Class{Verdict: Privileged, Tool: name}
	case "vi", "vim", "nvim", "nano", "emacs", "less", "more", "most", "man", "top", "htop", "btop",
		"watch", "ssh", "mosh", "tmux", "screen", "ipython", "irb", "iex", "psql", "mysql", "sqlite3",
		"redis-cli", "mongosh", "ghci", "fzf", "tig", "lazygit", "nohup", "entr", "nodemon":
		return interactive(name)
	}
	if w, ok := cmdline.LookupWrapper(name); ok && !w.Builtin {
		return unwrap(w, rest)
	}
	if c, ok := classifyTool(name, rest); ok {
		return c
	}
	return none
}

// unwrap classifies the command a wrapper (cmdline's table says how it
// takes its options) runs.
func unwrap(w cmdline.Wrapper, a []Arg) Class {
	i, known := w.Inner(words(a))
	if !known {
		return Class{Verdict: Dynamic} // env -S 'cmd args'
	}
	return classifyWrapped(a[i:])
}

// words gives a command's words to cmdline.
func words(a []Arg) []cmdline.Word {
	out := make([]cmdline.Word, len(a))
	for i, x := range a {
		out[i] = cmdline.Word{Value: x.Value, Static: x.Static}
	}
	return out
}

// unwrapSub classifies the command a tool's wrapping subcommand (uv run,
// pnpm exec) runs; a is what follows the subcommand.
func unwrapSub(tool, sub string, a []Arg) Class {
	w, _ := cmdline.SubWrapper(tool, sub)
	return unwrap(w, a)
}

// classifyWrapped classifies the command a wrapper runs.
func classifyWrapped(inner []Arg) Class {
	if len(inner) == 0 {
		return none
	}
	if !inner[0].Static {
		return Class{Verdict: Dynamic}
	}
	return Classify(inner)
}

// ClassifyName classifies a bare program name, without arguments: enough to
// tell whether a command word computed at run time would have mattered.
func ClassifyName(name string) Class {
	if name == "" {
		return none
	}
	c, _ := classifyTool(name, nil)
	if c.Verdict == None && cmdline.IsPython(name) {
		return Class{Verdict: Flood}
	}
	return c
}

// ---- argument helpers ----

func has(a []Arg, w string) bool {
	for _, x := range a {
		if x.Static && x.Value == w {
			return true
		}
	}
	return false
}

func hasAny(a []Arg, ws ...string) bool {
	for _, w := range ws {
		if has(a, w) {
			return true
		}
	}
	return false
}

func hasPrefix(a []Arg, p string) bool {
	for _, x := range a {
		if x.Static && strings.HasPrefix(x.Value, p) {
			return true
		}
	}
	return false
}

// hasWatch reports a long watch/follow/continuous flag. Short -w is
// per-tool (it means --workspace for npm and --write for prettier).
func hasWatch(a []Arg) bool {
	for _, x := range a {
		if !x.Static {
			continue
		}
		v := x.Value
		if v == "--watch" || v == "--watchAll" || v == "--watch-all" || v == "--follow" || v == "--continuous" ||
			strings.HasPrefix(v, "--watch=") && !isFalse(v[len("--watch="):]) ||
			strings.HasPrefix(v, "--watchAll=") && !isFalse(v[len("--watchAll="):]) {
			return true
		}
	}
	return false
}

// watching reports whether any of flags is present and not explicitly false.
func watching(a []Arg, flags ...string) bool {
	for _, x := range a {
		for _, f := range flags {
			if x.Value == f {
				return true
			}
			if strings.HasPrefix(x.Value, f+"=") && !isFalse(x.Value[len(f)+1:]) {
				return true
			}
		}
	}
	return false
}

func isFalse(v string) bool { return v == "false" || v == "0" || v == "no" }

// firstPositional returns the first word that does not start with "-".
// Options taking a separate argument are not known generically, so this can
// pick an option's value; callers use it only where that errs on the side of
// not wrapping.
func firstPositional(a []Arg) string {
	for _, x := range a {
		if !strings.HasPrefix(x.Value, "-") {
			if !x.Static {
				return "$"
			}
			return x.Value
		}
	}
	return ""
}

// afterPositional returns the words after the first occurrence of word.
func afterPositional(a []Arg, word string) []Arg {
	for i, x := range a {
		if x.Value == word {
			return a[i+1:]
		}
	}
	return nil
}

// skipOptions skips leading options; those listed take a separate value
// unless written as --opt=value or -oVALUE. "--" ends the options.
func skipOptions(a []Arg, withValue ...string) []Arg {
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		if !a[i].Static {
			return a[i:]
		}
		if v == "--" {
			return a[i+1:]
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			return a[i:]
		}
		for _, o := range withValue {
			if v == o {
				i++
				break
			}
		}
	}
	return nil
}

// count is a parsed line-count argument.
type count struct {
	n       int
	all     bool // "+N" (from line N), "-N" with head (all but N), "all", "-1"
	unknown bool // not static or not a number
}

func parseCount(v string, static bool) count {
	if !static {
		return count{unknown: true}
	}
	if v == "all" || v == "-1" {
		return count{all: true}
	}
	if strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
		c := parseCount(v[1:], true)
		c.all = true
		return c
	}
	n, ok := parseSize(v)
	if !ok {
		return count{unknown: true}
	}
	return count{n: n}
}

// parseSize parses a coreutils-style number with an optional multiplier
// suffix: b (512), K M G T (powers of 1024, also KiB...), KB MB GB TB
// (powers of 1000). Results saturate rather than overflow.
func parseSize(v string) (int, bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 || i > 12 {
		return 0, false
	}
	n, err := strconv.Atoi(v[:i])
	if err != nil {
		return 0, false
	}
	mult := 1
	switch strings.TrimSuffix(v[i:], "iB") {
	case "":
	case "b":
		mult = 512
	case "K", "k":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G", "T", "P", "E":
		mult = 1 << 30
	case "KB", "kB":
		mult = 1000
	case "MB":
		mult = 1000 * 1000
	case "GB", "TB", "PB":
		mult = 1000 * 1000 * 1000
	default:
		return 0, false
	}
	return n * mult, true
}

// countOption finds a count given as `short N`, `shortN`, `long=N` or `long N`.
func countOption(a []Arg, short, long string) (count, bool) {
	for i, x := range a {
		v := x.Value
		switch {
		case short != "" && v == short || long != "" && v == long:
			if i+1 < len(a) {
				return parseCount(a[i+1].Value, a[i+1].Static), true
			}
			return count{n: 10}, true
		case long != "" && strings.HasPrefix(v, long+"="):
			return parseCount(v[len(long)+1:], x.Static), true
		case short != "" && len(short) == 2 && strings.HasPrefix(v, short) && len(v) > 2:
			return parseCount(v[2:], x.Static), true
		}
	}
	return count{}, false
}

// operands returns the words that are not options, honouring "--", and
// skipping the value of options listed in withValue.
func operands(a []Arg, withValue ...string) []Arg {
	var out []Arg
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		if v == "--" && a[i].Static {
			return append(out, a[i+1:]...)
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			for _, o := range withValue {
				if v == o {
					i++
					break
				}
			}
			continue
		}
		out = append(out, a[i])
	}
	return out
}

// ---- Python ----

func python(name string, a []Arg) Class {
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		if !a[i].Static {
			return none
		}
		switch {
		case v == "-m" && i+1 < len(a):
			return pythonModule(a[i+1].Value, a[i+2:])
		case strings.HasPrefix(v, "-m") && len(v) > 2:
			return pythonModule(v[2:], a[i+1:])
		case v == "-c":
			return none
		case v == "-W" || v == "-X" || v == "-Q":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			script := cmdline.Program(v)
			rest := a[i+1:]
			if script == "manage.py" && firstPositional(rest) == "test" {
				return flood("django", FamilyTest)
			}
			if script == "setup.py" {
				switch firstPositional(rest) {
				case "test":
					return flood("setup.py", FamilyTest)
				case "build", "build_ext", "install", "develop", "bdist_wheel", "sdist":
					return flood("setup.py", FamilyBuild)
				}
			}
			return none
		}
	}
	return interactive(name) // a bare interpreter is a REPL
}

func pythonModule(mod string, rest []Arg) Class {
	switch mod {
	case "pip":
		return pip("pip", rest)
	case "unittest":
		return flood("unittest", FamilyTest)
	case "http.server", "pdb", "code", "idlelib", "asyncio", "IPython", "ptpython":
		return interactive(mod)
	case "venv", "json.Tool", "site", "this", "timeit", "cProfile", "build", "twine":
		return none
	}
	c, ok := classifyTool(mod, rest)
	if !ok {
		return none
	}
	return c
}

func pip(name string, a []Arg) Class {
	switch firstPositional(a) {
	case "install", "download", "wheel":
		return flood(name, FamilyInstall)
	}
	return none
}

func uv(a []Arg) Class {
	r := skipOptions(a, cmdline.GlobalOptions("uv")...)
	if len(r) == 0 {
		return none
	}
	switch r[0].Value {
	case "run":
		return unwrapSub("uv", "run", r[1:])
	case "tool":
		if len(r) > 1 && r[1].Value == "run" {
			return unwrapSub("uv", "tool run", r[2:])
		}
	case "pip":
		if len(r) > 1 && (r[1].Value == "install" || r[1].Value == "sync" || r[1].Value == "compile") {
			return flood("uv", FamilyInstall)
		}
	case "sync", "add", "lock":
		return flood("uv", FamilyInstall)
	case "build":
		return flood("uv", FamilyBuild)
	}
	return none
}

func pyProject(name string, a []Arg) Class {
	switch sub := firstPositional(a); sub {
	case "install", "update", "sync", "add", "lock":
		return flood(name, FamilyInstall)
	case "build":
		return flood(name, FamilyBuild)
	case "test":
		return flood(name, FamilyTest)
	case "run":
		inner := afterPositional(a, "run")
		if name == "hatch" && len(inner) > 0 && inner[0].Static {
			// hatch run [env:]script
			script := inner[0].Value
			if i := strings.IndexByte(script, ':'); i >= 0 {
				script = script[i+1:]
			}
			if c := scriptClass(name, script, inner[1:]); c.Verdict != None {
				return c
			}
		}
		return unwrapSub(name, "run", inner)
	case "shell":
		return interactive(name)
	}
	return none
}

// ---- JavaScript ----

// scriptClass classifies a package.json (or task runner) script by its
// conventional name. Unknown names are not classified: a script can do
// anything, and a dev server must not be wrapped.
func scriptClass(tool, script string, rest []Arg) Class {
	if hasWatch(rest) {
		return interactive(tool)
	}
	s := strings.ToLower(script)
	for _, w := range []string{"watch", "dev", "serve", "start", "preview", "storybook", "debug", "open"} {
		if strings.Contains(s, w) {
			return interactive(tool)
		}
	}
	head := s
	if i := strings.IndexAny(head, ":-_."); i >= 0 {
		head = head[:i]
	}
	switch head {
	case "test", "tests", "spec", "e2e", "coverage", "cover", "ci", "unit", "integration", "cypress", "playwright":
		return flood(tool, FamilyTest)
	case "build", "compile", "bundle", "dist", "package":
		return flood(tool, FamilyBuild)
	case "lint", "typecheck", "tsc", "check", "format", "fmt", "prettier", "eslint", "types", "verify", "validate":
		return flood(tool, FamilyLint)
	}
	if s == "type-check" || s == "check-types" {
		return flood(tool, FamilyLint)
	}
	return none
}

// scriptByName classifies `<runner> run NAME args...` style invocations.
func scriptByName(tool string, a []Arg) Class {
	r := skipOptions(a)
	if len(r) == 0 {
		return none
	}
	if !r[0].Static {
		return Class{Verdict: Dynamic}
	}
	return scriptClass(tool, r[0].Value, r[1:])
}

func npm(a []Arg) Class {
	r := skipOptions(a, cmdline.GlobalOptions("npm")...)
	if len(r) == 0 {
		return none
	}
	sub, rest := r[0].Value, r[1:]
	switch sub {
	case "test", "t", "tst":
		return scriptClass("npm", "test", rest)
	case "run", "run-script", "rum", "urn":
		return scriptByName("npm", rest)
	case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "add", "ci", "clean-install", "update", "up", "upgrade", "rebuild":
		return flood("npm", FamilyInstall)
	case "start", "restart":
		return interactive("npm")
	case "exec", "x":
		return unwrapSub("npm", sub, rest)
	}
	return none
}

func yarn(a []Arg) Class {
	r := skipOptions(a, cmdline.GlobalOptions("npm")...)
	if len(r) == 0 {
		return flood("yarn", FamilyInstall) // bare yarn installs
	}
	sub, rest := r[0].Value, r[1:]
	switch sub {
	case "install", "add", "upgrade", "up":
		return flood("yarn", FamilyInstall)
	case "run":
		return scriptByName("yarn", rest)
	case "dlx", "exec":
		return unwrapSub("yarn", sub, rest)
	case "workspace":
		if len(rest) > 1 {
			return yarn(rest[1:])
		}
		return none
	case "workspaces":
		if len(rest) > 1 && rest[0].Value == "foreach" {
			return scriptByName("yarn", skipOptions(rest[1:], "--include", "--exclude", "-j", "--jobs", "--from"))
		}
		return none
	}
	if c := scriptClass("yarn", sub, rest); c.Verdict != None {
		return c
	}
	// `yarn jest` runs a binary from node_modules.
	c, _ := classifyTool(sub, rest)
	return c
}

func pnpm(a []Arg) Class {
	r := skipOptions(a, cmdline.GlobalOptions("npm")...)
	if len(r) == 0 {
		return none
	}
	sub, rest := r[0].Value, r[1:]
	switch sub {
	case "install", "i", "add", "update", "up", "upgrade", "rebuild":
		return flood("pnpm", FamilyInstall)
	case "run", "run-script":
		return scriptByName("pnpm", rest)
	case "test", "t", "tst":
		return scriptClass("pnpm", "test", rest)
	case "start":
		return interactive("pnpm")
	case "exec", "dlx", "x":
		return unwrapSub("pnpm", sub, rest)
	case "recursive", "-r":
		return pnpm(rest)
	}
	if c := scriptClass("pnpm", sub, rest); c.Verdict != None {
		return c
	}
	c, _ := classifyTool(sub, rest)
	return c
}

func bun(a []Arg) Class {
	r := skipOptions(a, cmdline.GlobalOptions("bun")...)
	if len(r) == 0 {
		return interactive("bun") // bare bun prints help; treat as not ours
	}
	sub, rest := r[0].Value, r[1:]
	switch sub {
	case "test":
		if hasWatch(rest) {
			return interactive("bun")
		}
		return flood("bun", FamilyTest)
	case "install", "i", "add", "update":
		return flood("bun", FamilyInstall)
	case "run":
		return scriptByName("bun", rest)
	case "x":
		return unwrapSub("bun", "x", rest)
	case "build":
		if hasWatch(rest) {
			return interactive("bun")
		}
		return flood("bun", FamilyBuild)
	}
	return scriptClass("bun", sub, rest)
}

func vitest(a []Arg) Class {
	if hasWatch(a) {
		return interactive("vitest")
	}
	sub := firstPositional(a)
	switch {
	case sub == "run" || has(a, "--run") || watching(a, "--watch=false") || has(a, "--no-watch"):
		return flood("vitest", FamilyTest)
	case sub == "bench" && has(a, "--run"):
		return flood("vitest", FamilyTest)
	}
	// Bare vitest, `vitest watch`, `vitest dev`: watch mode by default
	// outside CI.
	return interactive("vitest")
}

func jsFramework(name string, a []Arg) Class {
	sub := firstPositional(a)
	switch name {
	case "ng":
		switch sub {
		case "test", "t":
			if watching(a, "--watch=false") || has(a, "--no-watch") {
				return flood(name, FamilyTest)
			}
			return interactive(name) // karma watches by default
		case "build", "b":
			if hasWatch(a) {
				return interactive(name)
			}
			return flood(name, FamilyBuild)
		case "lint":
			return flood(name, FamilyLint)
		case "serve", "s", "e2e":
			return interactive(name)
		}
		return none
	case "turbo", "nx", "lerna":
		switch sub {
		case "run", "run-many", "affected":
			r := afterPositional(a, sub)
			r = skipOptions(r, "--filter", "-F", "-t", "--target", "--projects", "-p", "--scope", "--concurrency")
			if sub != "run" {
				// nx run-many -t test: the target is an option value.
				for i, x := range a {
					if (x.Value == "-t" || x.Value == "--target" || x.Value == "--targets") && i+1 < len(a) {
						return scriptClass(name, a[i+1].Value, nil)
					}
					if strings.HasPrefix(x.Value, "--target=") || strings.HasPrefix(x.Value, "--targets=") {
						return scriptClass(name, x.Value[strings.IndexByte(x.Value, '=')+1:], nil)
					}
				}
				return none
			}
			if len(r) == 0 || !r[0].Static {
				return none
			}
			task := r[0].Value
			if i := strings.LastIndexByte(task, ':'); i >= 0 && name == "nx" {
				task = task[i+1:] // nx run project:target
			}
			return scriptClass(name, task, r[1:])
		}
		if sub == "" {
			return none
		}
		// turbo test, nx build my-app, lerna run-less forms.
		return scriptClass(name, sub, a)
	}
	// vite, next, nuxt, astro, remix, svelte-kit
	switch sub {
	case "build":
		if hasWatch(a) || has(a, "-w") {
			return interactive(name)
		}
		return flood(name, FamilyBuild)
	case "lint", "check", "sync":
		return flood(name, FamilyLint)
	case "", "dev", "serve", "start", "preview":
		return interactive(name)
	}
	return none
}

// ---- Go, Rust, JVM, C ----

func goTool(a []Arg) Class {
	switch firstPositional(a) {
	case "test":
		return flood("go", FamilyTest)
	case "build", "install":
		return flood("go", FamilyBuild)
	case "vet":
		return flood("go", FamilyLint)
	}
	return none
}

func cargo(a []Arg) Class {
	var r []Arg
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		if strings.HasPrefix(v, "+") || v == "--manifest-path" || v == "-Z" || v == "--config" || v == "--color" {
			if !strings.HasPrefix(v, "+") {
				i++
			}
			continue
		}
		if strings.HasPrefix(v, "-") {
			continue
		}
		r = a[i:]
		break
	}
	if len(r) == 0 {
		return none
	}
	rest := r[1:]
	switch r[0].Value {
	case "test", "t", "nextest", "bench", "miri":
		if hasWatch(rest) {
			return interactive("cargo")
		}
		return flood("cargo", FamilyTest)
	case "build", "b", "check", "c", "doc", "d", "rustc", "publish", "package":
		return flood("cargo", FamilyBuild)
	case "clippy", "deny", "audit":
		return flood("cargo", FamilyLint)
	case "fmt":
		if has(rest, "--check") {
			return flood("cargo", FamilyLint)
		}
		return none
	case "install", "fetch", "update", "add", "vendor":
		return flood("cargo", FamilyInstall)
	case "watch":
		return interactive("cargo")
	case "llvm-cov", "tarpaulin", "mutants":
		return flood("cargo", FamilyTest)
	}
	return none
}

func jvm(name string, a []Arg) Class {
	if hasAny(a, "--continuous", "-t") && name != "mvn" && name != "mvnw" {
		return interactive(name)
	}
	var tasks []string
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		if strings.HasPrefix(v, "-") {
			// Options with separate values.
			switch v {
			case "-f", "--file", "-pl", "--projects", "-P", "--activate-profiles", "-s", "--settings",
				"-x", "--exclude-task", "-p", "--project-dir", "-b", "--build-file", "-D", "-T", "--threads", "-rf", "--resume-from":
				i++
			}
			continue
		}
		tasks = append(tasks, v)
	}
	for _, t := range tasks {
		lt := strings.ToLower(t)
		if strings.HasSuffix(lt, ":run") || lt == "run" || lt == "bootrun" || strings.HasSuffix(lt, ":bootrun") ||
			strings.HasSuffix(lt, ":dev") || lt == "quarkusdev" || strings.HasPrefix(lt, "~") || lt == "console" || lt == "repl" {
			return interactive(name)
		}
	}
	if name == "sbt" && len(tasks) == 0 {
		return interactive(name) // the sbt shell
	}
	for _, t := range tasks {
		if strings.Contains(strings.ToLower(t), "test") || t == "check" || t == "verify" {
			return flood(name, FamilyTest)
		}
	}
	return flood(name, FamilyBuild)
}

func makeTool(name string, a []Arg) Class {
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		if !a[i].Static && !strings.HasPrefix(v, "-") {
			return Class{Verdict: Dynamic}
		}
		if strings.HasPrefix(v, "-") {
			switch v {
			case "-C", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "-W", "--directory", "-j", "-l":
				if v == "-j" || v == "-l" {
					// -j takes an optional number.
					if i+1 < len(a) && isNumber(a[i+1].Value) {
						i++
					}
					continue
				}
				i++
			}
			continue
		}
		if strings.IndexByte(v, '=') > 0 {
			continue // VAR=value
		}
		switch strings.ToLower(v) {
		case "run", "serve", "server", "dev", "watch", "start", "shell", "up", "console", "repl", "debug", "attach", "logs", "tail":
			return interactive(name)
		}
	}
	return flood(name, FamilyBuild)
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func buildSystem(name string, a []Arg) Class {
	sub := firstPositional(a)
	switch name {
	case "meson":
		switch sub {
		case "test":
			return flood(name, FamilyTest)
		case "compile", "setup", "install", "dist":
			return flood(name, FamilyBuild)
		}
		return none
	case "bazel", "bazelisk", "buck", "buck2", "pants", "please":
		switch sub {
		case "test", "coverage":
			return flood(name, FamilyTest)
		case "build", "query", "cquery", "aquery", "fetch", "sync":
			return flood(name, FamilyBuild)
		case "lint", "check", "fmt":
			return flood(name, FamilyLint)
		}
		return none
	case "ctest":
		return flood(name, FamilyTest)
	}
	return flood(name, FamilyBuild) // ninja, scons, xcodebuild
}

// manyFiles treats a compiler invocation as flood-prone when it compiles at
// least three sources or a glob of them.
func manyFiles(name string, a []Arg, exts ...string) Class {
	n := 0
	for _, x := range operands(a, "-o", "-I", "-L", "-l", "-D", "-U", "-include", "-isystem", "-x", "-MF", "-MT", "-d", "-cp", "-classpath", "--Class-path", "-sourcepath") {
		for _, e := range exts {
			if strings.HasSuffix(x.Value, e) {
				if x.Glob {
					n += 3
				}
				n++
				break
			}
		}
	}
	if n >= 3 {
		return flood(name, FamilyBuild)
	}
	return none
}

// ---- git ----

func git(a []Arg) Class {
	// Global options before the subcommand (cmdline knows git's).
	i := cmdline.SkipOptions(words(a), cmdline.GlobalOptions("git")...)
	if i >= len(a) {
		return none
	}
	if !a[i].Static {
		return Class{Verdict: Dynamic}
	}
	sub, rest := a[i].Value, a[i+1:]
	switch sub {
	case "log", "reflog", "whatchanged":
		return gitLog(rest)
	case "diff":
		if gitSummaryOnly(rest) {
			return bounded("git")
		}
		return flood("git", FamilyVCS)
	case "show":
		for _, x := range operands(rest) {
			if strings.Contains(x.Value, ":") {
				return none // git show REV:path reads a file
			}
		}
		if gitSummaryOnly(rest) || hasAny(rest, "-s", "--no-patch") {
			return bounded("git")
		}
		return flood("git", FamilyVCS)
	case "grep":
		if hasAny(rest, "-q", "--quiet") {
			return none
		}
		return flood("git", FamilySearch)
	case "blame", "annotate":
		if has(rest, "-L") || hasPrefix(rest, "-L") {
			return bounded("git")
		}
		return flood("git", FamilyVCS)
	case "ls-files", "ls-tree":
		return none
	case "bisect":
		if firstPositional(rest) == "run" {
			return flood("git", FamilyTest)
		}
		return none
	case "rebase", "add", "commit", "checkout", "merge":
		if hasAny(rest, "-i", "--interactive", "-p", "--patch", "-e", "--edit") && sub != "checkout" {
			return interactive("git")
		}
		return none
	}
	return none
}

// gitSummaryOnly reports diff options that replace the patch with a summary.
func gitSummaryOnly(a []Arg) bool {
	if hasAny(a, "-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw") {
		return false
	}
	return hasAny(a, "--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "--dirstat", "--quiet", "--compact-summary", "--raw") ||
		hasPrefix(a, "--stat=") || hasPrefix(a, "--dirstat=")
}

func gitLog(a []Arg) Class {
	c, ok := gitCount(a)
	if ok && c.unknown {
		return Class{Verdict: Dynamic}
	}
	patch := hasAny(a, "-p", "-u", "--patch", "--full-diff", "--word-diff", "-U") || hasPrefix(a, "-U") || hasPrefix(a, "--word-diff=")
	switch {
	case !ok:
		return flood("git", FamilyVCS)
	case patch && c.n <= 2:
		return bounded("git")
	case !patch && c.n <= 50:
		return bounded("git")
	}
	return flood("git", FamilyVCS)
}

// gitCount finds git log's commit limit: -N, -n N, -nN, --max-count=N.
func gitCount(a []Arg) (count, bool) {
	for i, x := range a {
		v := x.Value
		switch {
		case v == "-n" || v == "--max-count":
			if i+1 < len(a) {
				return parseCount(a[i+1].Value, a[i+1].Static), true
			}
		case strings.HasPrefix(v, "--max-count="):
			return parseCount(v[len("--max-count="):], x.Static), true
		case strings.HasPrefix(v, "-n") && len(v) > 2 && isNumber(v[2:]):
			return parseCount(v[2:], x.Static), true
		case len(v) > 1 && v[0] == '-' && isNumber(v[1:]):
			return parseCount(v[1:], x.Static), true
		}
	}
	return count{}, false
}

// ---- search ----

// grepShortWithValue are grep short options whose value follows.
const grepShortWithValue = "efmABCdD"

func grep(name string, a []Arg) Class {
	recursive, quiet := false, false
	for i := 0; i < len(a); i++ {
		v := a[i].Value
		switch {
		case !a[i].Static || !strings.HasPrefix(v, "-") || v == "-":
		case v == "--":
			i = len(a)
		case v == "--recursive" || v == "--dereference-recursive" || v == "--directories=recurse":
			recursive = true
		case v == "--quiet" || v == "--silent":
			quiet = true
		case strings.HasPrefix(v, "--"):
			switch v {
			case "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
				"--directories", "--devices", "--include", "--exclude", "--exclude-dir", "--label":
				if v == "--directories" && i+1 < len(a) && a[i+1].Value == "recurse" {
					recursive = true
				}
				i++
			}
		default:
			for j := 1; j < len(v); j++ {
				c := v[j]
				if c == 'r' || c == 'R' {
					recursive = true
				}
				if c == 'q' {
					quiet = true
				}
				if strings.IndexByte(grepShortWithValue, c) >= 0 {
					val := v[j+1:]
					if val == "" && i+1 < len(a) {
						i++
						val = a[i].Value
					}
					if c == 'd' && val == "recurse" {
						recursive = true
					}
					break
				}
			}
		}
	}
	if quiet {
		return none
	}
	if recursive {
		return flood(name, FamilySearch)
	}
	return none
}

func find(name string, a []Arg) Class {
	if hasAny(a, "-ok", "-okdir") {
		return interactive(name)
	}
	if name == "find" {
		if has(a, "-quit") {
			return bounded(name)
		}
		if c, ok := countOption(a, "-maxdepth", ""); ok {
			if c.unknown {
				return Class{Verdict: Dynamic}
			}
			if c.n <= 1 {
				return bounded(name)
			}
		}
		if has(a, "-delete") && !hasAny(a, "-print", "-ls", "-printf", "-exec") {
			return none
		}
		return flood(name, FamilySearch)
	}
	if c, ok := countOption(a, "-d", "--max-depth"); ok && !c.unknown && c.n <= 1 {
		return bounded(name)
	}
	if c, ok := countOption(a, "", "--max-results"); ok && !c.unknown && c.n <= boundLines {
		return bounded(name)
	}
	return flood(name, FamilySearch)
}

// ---- reading files ----

// logLike reports whether a path names a log or other generated output file.
func logLike(p string) bool {
	b := strings.ToLower(cmdline.Program(p))
	for _, ext := range []string{".log", ".out", ".err", ".jsonl", ".ndjson", ".trace", ".log.gz", ".stderr", ".stdout"} {
		if strings.HasSuffix(b, ext) {
			return true
		}
	}
	if i := strings.Index(b, ".log."); i > 0 && isNumber(strings.TrimSuffix(b[i+5:], ".gz")) {
		return true // app.log.1
	}
	lp := "/" + strings.ToLower(p)
	return strings.Contains(lp, "/log/") || strings.Contains(lp, "/logs/") || b == "syslog" || b == "messages"
}

func catTool(name string, a []Arg) Class {
	ops := operands(a)
	if len(ops) == 0 {
		return none // reads stdin
	}
	for _, x := range ops {
		if x.Value == "-" {
			return none
		}
	}
	for _, x := range ops {
		if logLike(x.Value) {
			return flood(name, FamilyRead)
		}
	}
	return none
}

func tailHead(name string, a []Arg, tail bool) Class {
	if tail && (hasAny(a, "--follow", "--retry") || hasPrefix(a, "--follow=") || hasShortFlag(a, 'f') || hasShortFlag(a, 'F')) {
		return interactive(name)
	}
	ops := operands(a, "-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid")
	if len(ops) == 0 {
		return none // reads stdin
	}
	c, ok := countOption(a, "-n", "--lines")
	if !ok {
		// tail -20 / head -20 (obsolete forms).
		for _, x := range a {
			if len(x.Value) > 1 && x.Value[0] == '-' && isNumber(x.Value[1:]) {
				c, ok = count{n: atoi(x.Value[1:])}, true
			}
			if tail && len(x.Value) > 1 && x.Value[0] == '+' && isNumber(x.Value[1:]) {
				c, ok = count{all: true}, true
			}
		}
	}
	if b, okb := countOption(a, "-c", "--bytes"); okb {
		if b.unknown {
			return Class{Verdict: Dynamic}
		}
		if !b.all && b.n <= 32<<10 {
			return bounded(name)
		}
		return flood(name, FamilyRead)
	}
	if !ok {
		return bounded(name) // 10 lines by default
	}
	if c.unknown {
		return Class{Verdict: Dynamic}
	}
	if c.all || c.n > boundLines {
		return flood(name, FamilyRead)
	}
	return bounded(name)
}

// hasShortFlag reports a short-option cluster (-xyz) containing f.
func hasShortFlag(a []Arg, f byte) bool {
	for _, x := range a {
		v := x.Value
		if len(v) > 1 && v[0] == '-' && v[1] != '-' && !isNumber(v[1:]) {
			if strings.IndexByte(v[1:], f) >= 0 {
				return true
			}
		}
	}
	return false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// ---- logs ----

func docker(name string, a []Arg) Class {
	r := skipOptions(a, "-H", "--host", "--context", "-c", "--config", "-l", "--log-level")
	if len(r) == 0 {
		return none
	}
	sub, rest := r[0].Value, r[1:]
	switch sub {
	case "logs":
		return logsCommand(name, rest, "--tail", "-n")
	case "compose":
		return compose(name, rest)
	case "build":
		return flood(name, FamilyBuild)
	case "buildx", "image":
		if firstPositional(rest) == "build" {
			return flood(name, FamilyBuild)
		}
		return none
	case "container", "service":
		if firstPositional(rest) == "logs" {
			return logsCommand(name, afterPositional(rest, "logs"), "--tail", "-n")
		}
		return none
	case "run", "exec", "attach":
		if sub == "attach" || hasAny(rest, "-i", "-t", "-it", "-ti", "--interactive", "--tty") || hasShortFlag(rest[:min(len(rest), optionEnd(rest))], 'i') {
			return interactive(name)
		}
		return none
	}
	return none
}

// optionEnd returns the index of the first non-option word.
func optionEnd(a []Arg) int {
	for i, x := range a {
		if !strings.HasPrefix(x.Value, "-") {
			return i
		}
	}
	return len(a)
}

func compose(name string, a []Arg) Class {
	r := skipOptions(a, "-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory")
	if len(r) == 0 {
		return none
	}
	sub, rest := r[0].Value, r[1:]
	switch sub {
	case "logs":
		return logsCommand(name, rest, "--tail", "-n")
	case "build":
		return flood(name, FamilyBuild)
	case "up":
		if hasAny(rest, "-d", "--detach") || hasShortFlag(rest, 'd') {
			return none
		}
		return interactive(name)
	case "run", "exec", "attach":
		return interactive(name)
	}
	return none
}

func kubectl(name string, a []Arg) Class {
	r := skipOptions(a, "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server")
	if len(r) == 0 {
		return none
	}
	switch r[0].Value {
	case "logs", "log":
		return logsCommand(name, r[1:], "--tail", "")
	case "exec", "attach", "port-forward", "proxy", "edit", "debug":
		return interactive(name)
	case "get":
		if hasAny(r, "-w", "--watch", "--watch-only") {
			return interactive(name)
		}
	}
	return none
}

// logsCommand applies the follow/tail rules shared by docker, compose and
// kubectl logs.
func logsCommand(name string, a []Arg, long, short string) Class {
	if hasAny(a, "-f", "--follow") || hasPrefix(a, "--follow=") && !hasAny(a, "--follow=false") {
		return interactive(name)
	}
	if c, ok := countOption(a, short, long); ok {
		if c.unknown {
			return Class{Verdict: Dynamic}
		}
		if !c.all && c.n <= boundLines {
			return bounded(name)
		}
	}
	return flood(name, FamilyLogs)
}

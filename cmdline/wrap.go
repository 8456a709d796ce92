package cmdline

import "strings"

// Wrapper describes a program that runs the command given after its own
// options on its command line (`timeout 60 pytest`, `npx jest`), or a
// subcommand that does (`uv run pytest`, `pnpm exec jest`).
type Wrapper struct {
	// WithValue lists the options that take a separate value (`-n 10`);
	// `--opt=value` and `-oVALUE` need no listing.
	WithValue []string
	// Operands is how many words come between the options and the wrapped
	// command (timeout's duration).
	Operands int
	// Env marks env(1): NAME=value words are skipped too, and -S hides the
	// command in a string.
	Env bool
	// Builtin marks a shell builtin (command, exec): the shell runs it, so
	// only the shell can look through it; it is no program ctx can run.
	Builtin bool
}

// wrappers are the programs that always run the command after their options.
var wrappers = map[string]Wrapper{
	"env":      {Env: true, WithValue: []string{"-u", "--unset", "-C", "--chdir"}},
	"nice":     {WithValue: []string{"-n", "--adjustment"}},
	"ionice":   {WithValue: []string{"-c", "-n", "-p", "-P", "-u", "--Class", "--classdata"}},
	"stdbuf":   {WithValue: []string{"-i", "-o", "-e", "--input", "--output", "--error"}},
	"time":     {WithValue: []string{"-f", "-o", "--format", "--output"}},
	"timeout":  {WithValue: []string{"-s", "-k", "--signal", "--kill-after"}, Operands: 1},
	"nohup":    {},
	"sudo":     {WithValue: []string{"-u", "--user", "-g", "--group", "-C", "-D", "--chdir", "-h", "--host", "-p", "--prompt", "-r", "--role", "-t", "--type", "-T", "--command-timeout"}},
	"xvfb-run": {WithValue: []string{"-n", "--server-num", "-e", "--error-file", "-f", "--auth-file", "-p", "--xauth-protocol", "-s", "--server-args", "-w", "--wait"}},
	"command":  {Builtin: true},
	"exec":     {Builtin: true, WithValue: []string{"-a"}},
	"npx":      {WithValue: []string{"-p", "--package", "-c", "--call"}},
	"pnpx":     {WithValue: []string{"-p", "--package", "-c", "--call"}},
	"bunx":     {WithValue: []string{"-p", "--package", "-c", "--call"}},
	"uvx":      {WithValue: []string{"--from", "--with", "-p", "--python"}},
}

// npmGlobal are npm/pnpm/yarn global options taking a separate value.
var npmGlobal = []string{"--prefix", "-C", "--dir", "--cwd", "--filter", "-F", "--workspace", "-w", "--loglevel", "--registry", "--cache"}

// runner is a tool with subcommands of which some run a command.
type runner struct {
	global []string           // global options with a value, before the subcommand
	subs   map[string]Wrapper // subcommand ("run", or "tool run") → how it wraps
}

var pyRun = map[string]Wrapper{"run": {WithValue: []string{"-e", "--env"}}}

var runners = map[string]runner{
	"uv": {global: []string{"--directory", "--project", "--cache-dir", "--config-file", "-p", "--python"},
		subs: map[string]Wrapper{
			"run": {WithValue: []string{"--with", "--with-requirements", "--python", "-p", "--project",
				"--directory", "--extra", "--group", "--package", "--env-file", "--index", "--only-group", "--no-group"}},
			"tool run": wrappers["uvx"],
		}},
	"poetry": {subs: pyRun},
	"pipenv": {subs: pyRun},
	"pdm":    {subs: pyRun},
	"rye":    {subs: pyRun},
	"hatch":  {subs: pyRun},
	"npm":    {global: npmGlobal, subs: map[string]Wrapper{"exec": wrappers["npx"], "x": wrappers["npx"]}},
	"pnpm": {global: npmGlobal, subs: map[string]Wrapper{
		"exec": {WithValue: []string{"-c", "--package"}}, "dlx": {WithValue: []string{"-c", "--package"}}, "x": {WithValue: []string{"-c", "--package"}}}},
	"yarn": {global: npmGlobal, subs: map[string]Wrapper{
		"exec": {WithValue: []string{"-p", "--package"}}, "dlx": {WithValue: []string{"-p", "--package"}}}},
	"bun":    {global: []string{"--cwd", "-C", "--filter", "-F"}, subs: map[string]Wrapper{"x": {}}},
	"bundle": {subs: map[string]Wrapper{"exec": {}}},
	"git": {global: []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
		"--config-env", "--exec-path"}},
}

// LookupWrapper returns how program name wraps a command, if it does.
func LookupWrapper(name string) (Wrapper, bool) {
	w, ok := wrappers[name]
	return w, ok
}

// SubWrapper returns how a tool's subcommand (`run` of uv, `tool run` of uv,
// `exec` of pnpm) wraps a command, if it does.
func SubWrapper(tool, sub string) (Wrapper, bool) {
	w, ok := runners[tool].subs[sub]
	return w, ok
}

// GlobalOptions lists a tool's options, before its subcommand, that take a
// separate value (npm's --prefix DIR, git's -C DIR).
func GlobalOptions(tool string) []string { return runners[tool].global }

// ToolSubcommand returns a tool's subcommand and the words after it, past the
// global options before it (`git -C dir -c k=v log -3` is "log", ["-3"]);
// "" when there is none.
func ToolSubcommand(tool string, args []string) (string, []string) {
	i := SkipOptions(Words(args), GlobalOptions(tool)...)
	if i >= len(args) {
		return "", nil
	}
	return args[i], args[i+1:]
}

// Word is one word of a command line as far as it is known before it runs.
type Word struct {
	Value  string
	Static bool // the value is exactly what the program receives
}

// Words returns a command line's words, all static.
func Words(argv []string) []Word {
	out := make([]Word, len(argv))
	for i, a := range argv {
		out[i] = Word{Value: a, Static: true}
	}
	return out
}

// Inner returns the index in args (the words after the wrapper's name) of
// the command the wrapper runs: past its options, their values and its
// operands. A word not known before run time ends the options. known is
// false when the command is hidden in a word (env -S 'cmd args'); an index
// of len(args) means there is no command.
func (w Wrapper) Inner(args []Word) (i int, known bool) {
	for i = 0; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Static {
			break
		}
		if v == "--" {
			i++
			break
		}
		if w.Env {
			if v == "-S" || strings.HasPrefix(v, "--split-string") || strings.HasPrefix(v, "-S") {
				return i, false
			}
			if strings.HasPrefix(v, "-") || strings.IndexByte(v, '=') > 0 {
				if takesValue(w.WithValue, v) {
					i++
				}
				continue
			}
			break
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		if takesValue(w.WithValue, v) {
			i++
		}
	}
	return min(i+w.Operands, len(args)), true
}

// SkipOptions returns the index of the first word after leading options,
// skipping the values of those listed in withValue; "--" ends the options,
// and so does a word not known before run time.
func SkipOptions(args []Word, withValue ...string) int {
	i, _ := Wrapper{WithValue: withValue}.Inner(args)
	return i
}

func takesValue(withValue []string, v string) bool {
	for _, o := range withValue {
		if v == o {
			return true
		}
	}
	return false
}

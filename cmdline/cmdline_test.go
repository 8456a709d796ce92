package cmdline

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		argv, want []string
	}{
		{[]string{"pytest", "-q"}, []string{"pytest", "-q"}},
		{[]string{"/usr/bin/python3", "-m", "pytest", "-x"}, []string{"pytest", "-x"}},
		{[]string{`C:\bin\pytest.exe`, "-q"}, []string{"pytest", "-q"}},
		{[]string{"uv", "run", "--with", "x", "pytest"}, []string{"pytest"}},
		{[]string{"uv", "--directory", "d", "run", "pytest"}, []string{"pytest"}},
		{[]string{"uv", "tool", "run", "--from", "ruff", "ruff", "check"}, []string{"ruff", "check"}},
		{[]string{"uv", "pip", "install", "x"}, []string{"uv", "pip", "install", "x"}},
		{[]string{"env", "-u", "HOME", "FOO=1", "go", "test", "./..."}, []string{"go", "test", "./..."}},
		{[]string{"env", "-S", "pytest -x", "tests"}, []string{"pytest", "-x", "tests"}},
		{[]string{"timeout", "-s", "KILL", "60", "cargo", "test"}, []string{"cargo", "test"}},
		{[]string{"timeout", "--", "60", "cargo", "test"}, []string{"cargo", "test"}},
		{[]string{"timeout", "60"}, []string{}},
		{[]string{"nice", "-n", "5", "make"}, []string{"make"}},
		{[]string{"time", "-f", "%e", "go", "build"}, []string{"go", "build"}},
		{[]string{"npx", "-p", "typescript", "tsc"}, []string{"tsc"}},
		{[]string{"npm", "--prefix", "web", "exec", "jest"}, []string{"jest"}},
		{[]string{"npm", "test"}, []string{"npm", "test"}},
		{[]string{"pnpm", "exec", "vitest"}, []string{"vitest"}},
		{[]string{"poetry", "run", "pytest"}, []string{"pytest"}},
		{[]string{"bundle", "exec", "rspec"}, []string{"rspec"}},
		{[]string{"sudo", "-u", "app", "apt-get", "install", "x"}, []string{"apt-get", "install", "x"}},
		{[]string{"FOO=1", "pytest"}, []string{"pytest"}},
		{[]string{"timeout", "60", "env", "CI=1", "uv", "run", "pytest", "-q"}, []string{"pytest", "-q"}},
		{[]string{"sh", "-c", "cd x && pytest -q 2>&1 | tail"}, []string{"pytest", "-q"}},
		{[]string{"bash", "-c", "FOO=1 go test ./... > out.txt"}, []string{"go", "test", "./..."}},
		{[]string{"sh", "-c", "pytest -k 'a b' tests"}, []string{"pytest", "-k", "a b", "tests"}},
		{[]string{"sh", "-c", "pytest $ARGS tests"}, []string{"pytest"}},
		{[]string{"bash", "-c", "time go test"}, []string{"go", "test"}},
		{[]string{"sh", "-c", "(cd x; pytest)"}, nil},
		{[]string{"sh", "-c", "pytest 'unterminated"}, nil},
	} {
		got := Normalize(tc.argv)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Normalize(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

func TestCompoundShell(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"sh", "-c", "rg foo | head"}, true},
		{[]string{"sh", "-c", "make; echo done"}, true},
		{[]string{"bash", "-c", "make &"}, true},
		{[]string{"bash", "-c", "! make"}, true},
		{[]string{"bash", "-c", "for f in *; do wc $f; done"}, true},
		{[]string{"sh", "-c", "rg 'a|b' src"}, false}, // a quoted | is no pipe
		{[]string{"sh", "-c", "time make\n"}, false},
		{[]string{"sh", "-c", "rg foo"}, false},
		{[]string{"rg", "-c", "foo|bar"}, false}, // not a shell
		{[]string{"sh", "-c"}, false},
	} {
		if got := CompoundShell(tc.argv); got != tc.want {
			t.Errorf("CompoundShell(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"go", "test", "./...", "-run=TestX/a,b", "user@host:1%"}, "go test ./... -run=TestX/a,b user@host:1%"},
		{[]string{"grep", "-e", "a b", ""}, "grep -e 'a b' ''"},
		{[]string{"echo", "it's"}, `echo 'it'\''s'`},
		{[]string{"echo", "~", "#x", "!", "é", "a\tb"}, "echo '~' '#x' '!' 'é' 'a\tb'"},
		{[]string{"echo", "$HOME", "*.go", "a;b"}, "echo '$HOME' '*.go' 'a;b'"},
	} {
		if got := Quote(tc.argv); got != tc.want {
			t.Errorf("Quote(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

// TestQuoteRoundTrip pastes quoted argvs into a real sh and reads back the
// words it received: the quoting must survive any byte a word can hold.
func TestQuoteRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	words := []string{"plain", "", "a b", "it's", `back\slash`, "$HOME", "`id`", "*", "#c", "~", "!", "é", "a\nb", `"q"`, "--", "-n", "x=y", "'"}
	line := Quote(words)
	out, err := exec.Command(sh, "-c", "set -- "+line+`; for w in "$@"; do printf '%s\0' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, words) {
		t.Fatalf("sh received %q from %s, want %q", got, line, words)
	}
	back, err := Split(line)
	if err != nil || !slices.Equal(back, words) {
		t.Fatalf("Split(%s) = %q, %v; want %q", line, back, err, words)
	}
}

func TestSplit(t *testing.T) {
	got, err := Split(`pytest -k "a b" 'c d' e\ f $UNSET`)
	if want := []string{"pytest", "-k", "a b", "c d", "e f"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Split = %q, %v; want %q", got, err, want)
	}
	if _, err := Split(`pytest "unterminated`); err == nil {
		t.Error("Split accepted an unterminated quote")
	}
}

func TestFamily(t *testing.T) {
	for argv, want := range map[string]string{
		"go test ./...":            "go test",
		"timeout 60 go -C x build": "go x", // an option's value is not known generically
		"uv run pytest -q":         "pytest",
		"git -p log":               "git log",
		"ls -la":                   "ls",
		"make":                     "make",
		"":                         "",
	} {
		if got := Family(strings.Fields(argv)); got != want {
			t.Errorf("Family(%q) = %q, want %q", argv, got, want)
		}
	}
}

func TestInner(t *testing.T) {
	w, _ := LookupWrapper("env")
	if i, known := w.Inner([]Word{{Value: "A=1", Static: true}, {Value: "$CMD"}, {Value: "x", Static: true}}); i != 1 || !known {
		t.Errorf("env A=1 $CMD: Inner = %d, %v; want 1, true", i, known)
	}
	if _, known := w.Inner(Words([]string{"-S", "pytest -x"})); known {
		t.Error("env -S: the command is hidden in a string, Inner says it is known")
	}
	if w, ok := LookupWrapper("command"); !ok || !w.Builtin {
		t.Error("command is a shell builtin")
	}
	if _, ok := SubWrapper("uv", "sync"); ok {
		t.Error("uv sync wraps no command")
	}
}

func TestToolSubcommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		sub  string
		rest []string
	}{
		{[]string{"-C", "dir", "-c", "core.pager=cat", "--no-pager", "log", "-3"}, "log", []string{"-3"}},
		{[]string{"--git-dir", "x/.git", "grep", "-n", "foo"}, "grep", []string{"-n", "foo"}},
		{[]string{"--no-pager"}, "", nil},
		{[]string{"-C"}, "", nil},
	} {
		sub, rest := ToolSubcommand("git", tc.args)
		if sub != tc.sub || !slices.Equal(rest, tc.rest) {
			t.Errorf("ToolSubcommand(git, %q) = %q %q, want %q %q", tc.args, sub, rest, tc.sub, tc.rest)
		}
	}
}

// TestDisplayControlCharacters: argv with a newline, ESC or BEL is shown on
// one line with the characters escaped, no raw control byte left; argv
// without them is shown as Quote shows it.
func TestDisplayControlCharacters(t *testing.T) {
	argv := []string{"sh", "-c", "seq 1 40; printf \"\x1b]0;pwned\x07x\n\"; echo \x01\tend"}
	d := Display(argv)
	if hasControl(d) {
		t.Fatalf("Display left control bytes in %q", d)
	}
	if want := `sh -c 'seq 1 40; printf "\e]0;pwned\ax\n"; echo \x01\tend'`; d != want {
		t.Errorf("Display = %s, want %s", d, want)
	}
	plain := []string{"go", "test", "./a b"}
	if Display(plain) != Quote(plain) {
		t.Errorf("Display(%q) = %s, want Quote's %s", plain, Display(plain), Quote(plain))
	}
}

// TestDisplayC1AndInvalidBytes: the C1 controls (U+009B is a one-character
// CSI to some terminals) and bytes that are not UTF-8 are escaped too;
// other non-ASCII text is shown as it is.
func TestDisplayC1AndInvalidBytes(t *testing.T) {
	d := Display([]string{"echo", "a\u009b31mb", "\xffz", "héllo"})
	if want := `echo 'a\u009b31mb' '\xffz' 'héllo'`; d != want {
		t.Errorf("Display = %s, want %s", d, want)
	}
	if hasControl(d) {
		t.Errorf("Display left a control in %q", d)
	}
}

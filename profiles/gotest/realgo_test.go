package gotest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
)

// scratch is a module with one package of each kind of failure. Line numbers
// matter: the test asserts the locations.
var scratch = map[string]string{
	"go.mod": "module example.com/scratch\n\ngo 1.21\n",
	"broken/broken_test.go": `package broken

import "testing"

func TestBroken(t *testing.T) {
	_ = undefinedName
}
`,
	"panics/panics_test.go": `package panics

import "testing"

func TestFine(t *testing.T) {}

func TestPanic(t *testing.T) {
	var m map[string]int
	m["boom"] = 1
}
`,
	"subtests/sub_test.go": `package subtests

import "testing"

func TestTable(t *testing.T) {
	t.Run("good", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) {
		t.Errorf("got %d, want %d", 1, 2)
	})
}
`,
	"racy/racy_test.go": `package racy

import (
	"sync"
	"testing"
)

func TestRace(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { x++; wg.Done() }()
	go func() { x++; wg.Done() }()
	wg.Wait()
}
`,
	"fine/fine_test.go": `package fine

import (
	"fmt"
	"testing"
)

func TestPrints(t *testing.T) {
	fmt.Println("--- FAIL: TestNothing (0.00s)")
	fmt.Println("panic: not a panic")
	t.Log("FAIL")
}
`,
}

// TestRealGoTest runs the real go test over the scratch module, as text and
// as -json, and checks that every failure is found with its location.
func TestRealGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	goBin := testenv.Tool(t, "install Go", "go")
	dir := t.TempDir()
	for name, body := range scratch {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-count=1", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local", "GO111MODULE=on")
	race := raceWorks(t, goBin, dir, env)
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			argv := []string{goBin, "test"}
			if race {
				argv = append(argv, "-race")
			}
			if format == "json" {
				argv = append(argv, "-json")
			}
			argv = append(argv, "./...")
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			exit := 0
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatal(err)
				}
				exit = ee.ExitCode()
			}
			g := parse(t, append([]string{"go"}, argv[1:]...), exit, stdout.String(), stderr.String())
			if t.Failed() {
				return
			}
			dump := func() {
				t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", exit, stdout.String(), stderr.String())
			}
			if g.Verdict != "fail" {
				t.Errorf("verdict %q, want fail", g.Verdict)
			}
			const pfx = "example.com/scratch/"
			fails := failing(g)
			check := func(name, class, file string, lines ...int) {
				t.Helper()
				it := fails[pfx+name]
				if it == nil {
					t.Errorf("%s: not failing", name)
					dump()
					return
				}
				ok := false
				for _, l := range lines {
					ok = ok || it.Line == l
				}
				if it.Class != class || !strings.HasSuffix(it.File, file) || !ok {
					t.Errorf("%s: %s at %s:%d, want %s at …%s:%v", name, it.Class, it.File, it.Line, class, file, lines)
				}
			}
			check("panics TestPanic", "panic", "panics/panics_test.go", 9)
			check("subtests TestTable/bad", "fail", "sub_test.go", 8)
			if it := fails[pfx+"subtests TestTable"]; it == nil || it.Attrs["failed_subtests"] != "1" {
				t.Errorf("parent TestTable: %+v", it)
			}
			if race {
				check("racy TestRace", "race", "racy/racy_test.go", 12, 13)
			}
			s := summaries(g)[pfx+"broken"]
			if s == nil || s.Outcome != evidence.OutcomeFail || s.Class != "build" || s.File != "broken/broken_test.go" || s.Line != 6 {
				t.Errorf("broken summary %+v", s)
			}
			diag := false
			for _, it := range g.Items {
				if it.Kind == evidence.KindDiagnostic && it.File == "broken/broken_test.go" && it.Line == 6 &&
					strings.Contains(it.Message, "undefinedName") && len(it.Rel) == 1 && it.Rel[0].To == s.ID {
					diag = true
				}
			}
			if !diag {
				t.Error("compiler error of package broken not found as a diagnostic related to its summary")
			}
			if s := summaries(g)[pfx+"fine"]; s == nil || s.Outcome != evidence.OutcomePass {
				t.Errorf("fine summary %+v", s)
			}
			for k := range fails {
				if strings.HasPrefix(k, pfx+"fine ") {
					t.Errorf("%s failing in a passing package", k)
				}
			}
		})
	}
}

// raceWorks reports whether go test -race can build here (it needs cgo).
func raceWorks(t *testing.T, goBin, dir string, env []string) bool {
	t.Helper()
	cmd := exec.Command(goBin, "env", "CGO_ENABLED")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Log("cgo disabled: running without -race")
		return false
	}
	cmd = exec.Command(goBin, "test", "-race", "-run", "XXX", "./fine/")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("go test -race unavailable (%v): %s", err, out)
		return false
	}
	return true
}

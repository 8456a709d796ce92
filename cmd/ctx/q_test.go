package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/qcmd"
	"github.com/ctxhq/ctx/query"
	"github.com/ctxhq/ctx/source"
)

// TestQueryEndToEnd runs real go test and real pytest through ctx in
// scratch projects, breaks a function, and asks ctx q which failures sit
// inside the changed code (testdata/q/*.txtar).
func TestQueryEndToEnd(t *testing.T) {
	for _, tool := range []string{"go", "git", "pytest"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing in CI: %v", tool, err)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/q",
		// [grammars]: this build outlines languages other than Go (cgo).
		Condition: func(cond string) (bool, error) {
			if cond != "grammars" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return source.GrammarsAvailable(), nil
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("CTX_SESSION", "")
			env.Setenv("CTX_PRESSURE", "")
			env.Setenv("CTX_NO_COMPACT", "1")
			// The real build cache: the scratch module needs only the
			// standard library, compiled once.
			env.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOPROXY", "off")
			env.Setenv("GIT_AUTHOR_NAME", "t")
			env.Setenv("GIT_AUTHOR_EMAIL", "t@t")
			env.Setenv("GIT_COMMITTER_NAME", "t")
			env.Setenv("GIT_COMMITTER_EMAIL", "t@t")
			return nil
		},
	})
}

// TestQExamplesCompile keeps every example in ctx q's help valid and under
// the cost bound.
func TestQExamplesCompile(t *testing.T) {
	ex := qcmd.NewQCmd(cli.SystemIO()).Example
	n := 0
	for _, line := range strings.Split(ex, "\n") {
		_, q, ok := strings.Cut(line, "ctx q ")
		if !ok {
			continue
		}
		q = strings.TrimPrefix(q, "--explain ")
		q = strings.TrimSuffix(strings.TrimPrefix(q, "'"), "'")
		if _, err := query.Compile(q); err != nil {
			t.Errorf("help example %q: %v", q, err)
		}
		n++
	}
	if n < 5 {
		t.Errorf("only %d examples found in %q", n, ex)
	}
}

package profiles

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"pytest -q":                                "pytest -q",
		"/usr/bin/python3 -m pytest -x":            "pytest -x",
		"python3.11 -m pytest":                     "pytest",
		"env FOO=1 BAR=2 go test ./...":            "go test ./...",
		"FOO=1 go test":                            "go test",
		"time -p make test":                        "make test",
		"timeout -s KILL 60 cargo test":            "cargo test",
		"nice -n 10 npm test":                      "npm test",
		"npx --yes jest --ci":                      "jest --ci",
		"pnpm exec vitest run":                     "vitest run",
		"uv run --frozen pytest tests/":            "pytest tests/",
		"sh -c cd sub && go test ./... 2>&1 | tee": "go test ./...",
		"bash -c pytest -q":                        "pytest -q",
	} {
		var argv []string
		if rest, ok := strings.CutPrefix(in, "sh -c "); ok {
			argv = []string{"sh", "-c", rest}
		} else if rest, ok := strings.CutPrefix(in, "bash -c "); ok {
			argv = []string{"bash", "-c", rest}
		} else {
			argv = strings.Fields(in)
		}
		if got := strings.Join(Normalize(argv), " "); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		argv   []string
		stdout string
		first  string
		by     string
	}{
		{[]string{"python3", "-m", "pytest"}, "", "pytest", "argv"},
		{[]string{"go", "test", "./..."}, "", "gotest", "argv"},
		{[]string{"make", "test"}, "=== RUN   TestA\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\texample.com/a\t0.01s\n", "gotest", "content"},
		{[]string{"npm", "test"}, "============================= test session starts ==============================\nplatform linux -- Python 3.11.2, pytest-7.2.1\n", "pytest", "content"},
		{nil, "just some words\n", "text", "fallback"},
	} {
		chain := Detect(evidence.BytesSource(tc.argv, 0, []byte(tc.stdout), nil), "")
		if chain[0].Profile.Name != tc.first || chain[0].By != tc.by {
			t.Errorf("%v: first %s by %s, want %s by %s", tc.argv, chain[0].Profile.Name, chain[0].By, tc.first, tc.by)
		}
		if last := chain[len(chain)-1]; last.Profile.Name != "text" {
			t.Errorf("%v: the chain ends with %s, not text", tc.argv, last.Profile.Name)
		}
	}
}

// TestFallbackIsLabelled: a specialised profile that fails, panics or finds
// nothing hands over to text, and the graph says so.
func TestFallbackIsLabelled(t *testing.T) {
	broken := evidence.Profile{Name: "broken", Version: 3,
		Argv: func(argv []string) bool { return len(argv) > 0 && argv[0] == "broken" },
		Parse: func(context.Context, *evidence.Source) (*evidence.Graph, error) {
			return nil, errors.New("unexpected token")
		}}
	panicky := evidence.Profile{Name: "panicky", Version: 1,
		Argv:  func(argv []string) bool { return len(argv) > 0 && argv[0] == "panicky" },
		Parse: func(context.Context, *evidence.Source) (*evidence.Graph, error) { panic("index out of range") }}
	empty := evidence.Profile{Name: "empty", Version: 1,
		Argv:  func(argv []string) bool { return len(argv) > 0 && argv[0] == "empty" },
		Parse: func(context.Context, *evidence.Source) (*evidence.Graph, error) { return &evidence.Graph{}, nil }}
	saved := registry
	registry = append([]evidence.Profile{broken, panicky, empty}, registry...)
	defer func() { registry = saved }()
	for _, name := range []string{"broken", "panicky", "empty"} {
		g, err := Extract(context.Background(), evidence.BytesSource([]string{name}, 1, []byte("error: something\n"), nil), "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if g.Profile != "text" {
			t.Errorf("%s: fell back to %s", name, g.Profile)
		}
		if len(g.Losses) == 0 || g.Losses[0].Code != "fallback" || !strings.Contains(g.Losses[0].Detail, name+"/") {
			t.Errorf("%s: losses %+v", name, g.Losses)
		}
	}
}

// Every profile is shown lines cut at lines.Max; the graph says so with a
// long-line loss naming the stream and the first such line, as the text
// profile's does, and the text profile's own loss is not doubled.
func TestLongLinesAreLosses(t *testing.T) {
	long := strings.Repeat("x", 100<<10) + " AssertionError: the end"
	for _, tc := range []struct {
		argv    []string
		out     string
		profile string
		line    int
	}{
		{[]string{"pytest", "-q"}, "F.\n" + long + "\nFAILED t.py::test_a - AssertionError\n1 failed, 1 passed in 0.01s\n", "pytest", 2},
		{[]string{"go", "test", "./..."}, "--- FAIL: TestA (0.00s)\n    a_test.go:3: " + long + "\nFAIL\nFAIL\tx\t0.01s\nFAIL\n", "gotest", 2},
		{[]string{"npx", "jest"}, "FAIL src/a.test.js\n  ● a › b\n\n    " + long + "\n\nTests:       1 failed, 1 total\n", "jest", 4},
		{[]string{"cat", "x"}, "one\n" + long + "\n" + long + "\n", "text", 2},
	} {
		g, err := Extract(context.Background(), evidence.BytesSource(tc.argv, 1, []byte(tc.out), nil), "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range g.Losses {
			if l.Code == "long-line" {
				got = append(got, l.Detail)
			}
		}
		want := fmt.Sprintf("the first is line %d;", tc.line)
		if g.Profile != tc.profile || len(got) != 1 || !strings.HasPrefix(got[0], "stdout: ") || !strings.Contains(got[0], want) {
			t.Errorf("%s: profile %s, long-line losses %q; want one naming stdout and %q", tc.profile, g.Profile, got, want)
		}
	}
}

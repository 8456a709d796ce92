package script

import (
	"context"
	"strings"
	"testing"
)

// TestHeadlineNamesTheFailure: a script stopped by a Starlark error is
// headed by the error ("Error: function f called recursively"), not by the
// traceback's first line, which says nothing.
func TestHeadlineNamesTheFailure(t *testing.T) {
	for in, want := range map[string]string{
		"Traceback (most recent call last):\n  -c:2:2: in <toplevel>\n  -c:1:17: in f\nError: function f called recursively": "Error: function f called recursively",
		"Traceback (most recent call last):\n  x.star:3:5: in <toplevel>\nError in fail: tests failed":                       "Error in fail: tests failed",
		"step limit reached: more than 10 Starlark execution steps (an endless loop?)":                                       "step limit reached: more than 10 Starlark execution steps (an endless loop?)",
		"Traceback (most recent call last):": "Traceback (most recent call last):",
	} {
		if got := Headline(in); got != want {
			t.Errorf("Headline(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRecursionHeadline: the digest of a script that recursed says so in its
// header.
func TestRecursionHeadline(t *testing.T) {
	env, dir := newEnv(t)
	x, err := Run(context.Background(), env, []byte("def f():\n    return f()\nf()\n"), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(x.Digest, "\n")
	if !strings.HasSuffix(head, " · Error: function f called recursively") {
		t.Errorf("header %q", head)
	}
}

// TestLoadSaysWhy: load() is refused with the reason, not "load not
// implemented by this application".
func TestLoadSaysWhy(t *testing.T) {
	env, dir := newEnv(t)
	x, err := Run(context.Background(), env, []byte("load(\"lib.star\", \"helper\")\n"), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(x.Error, `load("lib.star"): a ctx py script is one file and reads no others`) {
		t.Errorf("error %q", x.Error)
	}
}

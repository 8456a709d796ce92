package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/app"
	"github.com/ctxhq/ctx/internal/cmd/infocmd"
	"github.com/ctxhq/ctx/internal/ctxmcp"
	"github.com/ctxhq/ctx/internal/ctxremote"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/spf13/cobra"
)

// TestEveryCommandHasExamples: --help of every visible command shows examples,
// and every command that prints data has a --json form.
func TestEveryCommandHasExamples(t *testing.T) {
	noJSON := map[string]bool{
		"ctx hook": true, "ctx mcp": true, "ctx unpin": true,
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			// help and completion are cobra's own (completion is in the tree
			// so that an unknown shell is refused); help topics run nothing.
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" || !sub.Runnable() && !sub.HasSubCommands() {
				continue
			}
			path := sub.CommandPath()
			if sub.Example == "" && !sub.HasSubCommands() {
				t.Errorf("%s has no examples in its help", path)
			}
			if !sub.HasSubCommands() && !noJSON[path] && sub.Flags().Lookup("json") == nil && sub.InheritedFlags().Lookup("json") == nil {
				t.Errorf("%s prints data but has no --json", path)
			}
			walk(sub)
		}
	}
	var out bytes.Buffer
	ios := &IO{In: strings.NewReader(""), Out: &out, Err: &out, Getenv: func(string) string { return "" }}
	walk(app.NewRoot(ios, nil, ctxmcp.Commands()))
}

// TestGlossaryMatchesDocs: ctx help glossary and docs/glossary.md say the
// same, and every word of the coverage line is explained.
func TestGlossaryMatchesDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(doc), "```\n")
	block, _, _ = strings.Cut(block, "```\n")
	if block != infocmd.GlossaryText[1:] {
		t.Errorf("docs/glossary.md and ctx help glossary differ")
	}
	var out bytes.Buffer
	ios := &IO{In: strings.NewReader(""), Out: &out, Err: &out, Getenv: func(string) string { return "" }}
	if code := run(ios, []string{"help", "glossary"}); code != 0 || !strings.Contains(out.String(), "unrepresented required") {
		t.Fatalf("ctx help glossary: exit %d\n%s", code, out.String())
	}
	for _, term := range []string{"identities", "inline", "retrievable", "unrepresented required", "shown B of C",
		"REQUIRED", "ELASTIC", "RETRIEVABLE", "census blob", "failure-census", "flood", "dense", "zoom view", "reflex",
		"pressure", "policy epoch", "! LOSS", "! CONFLICT", "┆", "next:"} {
		if !strings.Contains(out.String(), "\n  "+term) {
			t.Errorf("the glossary does not explain %q", term)
		}
	}
}

// TestHelperCommandsAreWhereCtxSends: every command ctx hands to a helper is
// in that helper's table, is no core command, and ctx's stub for it says in
// help what the command itself says.
func TestHelperCommandsAreWhereCtxSends(t *testing.T) {
	ios := &IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	tables := map[string]*app.Commands{helper.MCP: ctxmcp.Commands(), helper.Remote: ctxremote.Commands()}
	core := app.NewRoot(ios, nil, app.Core())
	full := app.NewRoot(ios, nil, ctxmcp.Commands())
	for name, h := range helper.Of {
		if _, ok := app.Core().New[name]; ok {
			t.Errorf("%s is a core command and also handed to %s", name, h)
		}
		if _, ok := tables[h].New[name]; !ok {
			t.Errorf("ctx hands %s to %s, which does not hold it", name, h)
		}
		stub, _, err := core.Find([]string{name})
		real, _, err2 := full.Find([]string{name})
		if err != nil || err2 != nil || stub.Name() != name || real.Name() != name {
			t.Errorf("%s: not in the trees (%v, %v)", name, err, err2)
			continue
		}
		if stub.Short != real.Short {
			t.Errorf("ctx help says of %s %q, the command says %q", name, stub.Short, real.Short)
		}
	}
	for _, c := range full.Commands() {
		if _, core := app.Core().New[c.Name()]; !core && helper.Of[c.Name()] == "" && c.Name() != "help" && c.Name() != "completion" {
			t.Errorf("%s is in the helpers but ctx does not know which holds it", c.Name())
		}
	}
}

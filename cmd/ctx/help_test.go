package main

import (
	"bytes"
	"strings"
	"testing"

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
			if sub.Hidden || sub.Name() == "help" {
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
	walk(newRoot(ios, nil))
}

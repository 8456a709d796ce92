// Package infocmd holds the commands that describe ctx itself rather than a
// run: ctx version, ctx templates (the log template of every line of a file)
// and the help topic ctx help glossary.
package infocmd

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/plan"
)

// NewVersionCmd is ctx version.
func NewVersionCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "version",
		Short:   "Print the version of ctx",
		Example: "  ctx version\n  ctx version --json",
		Args:    cli.ExactArgs(0, "ctx version"),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]string{"version": cli.Version, "go": runtime.Version(), "policy_epoch": plan.Epoch,
				"platform": runtime.GOOS + "/" + runtime.GOARCH}
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						v["revision"] = s.Value
					}
				}
			}
			if asJSON {
				return cli.WriteJSON(ios.Out, v)
			}
			return WriteVersion(ios.Out)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// WriteVersion writes ctx version's answer, VersionLine, to w.
func WriteVersion(w io.Writer) error {
	if _, err := fmt.Fprintln(w, VersionLine()); err != nil {
		return fmt.Errorf("write version: %w", err)
	}
	return nil
}

// VersionLine is the one-line answer of ctx version and ctx --version.
func VersionLine() string {
	return fmt.Sprintf("ctx %s (%s, %s, policy epoch %s)", cli.Version, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH, plan.Epoch)
}

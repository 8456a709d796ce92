package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/plan"
)

func newVersionCmd(ios *IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "version",
		Short:   "Print the version of ctx",
		Example: "  ctx version\n  ctx version --json",
		Args:    exactArgs(0, "ctx version"),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]string{"version": Version, "go": runtime.Version(), "policy_epoch": plan.Epoch,
				"platform": runtime.GOOS + "/" + runtime.GOARCH}
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						v["revision"] = s.Value
					}
				}
			}
			if asJSON {
				return writeJSON(ios.Out, v)
			}
			fmt.Fprintln(ios.Out, versionLine())
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// versionLine is the one-line answer of ctx version and ctx --version.
func versionLine() string {
	return fmt.Sprintf("ctx %s (%s, %s, policy epoch %s)", Version, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH, plan.Epoch)
}

// Package hostscmd is ctx's face to agent hosts: ctx init (installing the
// hook, guide and MCP entry for Claude Code or Codex), ctx hook (the
// pre-tool-use rewrite) and ctx doctor. The behaviour is package hosts's.
package hostscmd

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
)

// NewInitCmd is ctx init.
func NewInitCmd(ios *cli.IO) *cobra.Command { return newInitCmd(ios) }

// NewHookCmd is ctx hook.
func NewHookCmd(ios *cli.IO) *cobra.Command { return newHookCmd(ios) }

// NewDoctorCmd is ctx doctor.
func NewDoctorCmd(ios *cli.IO) *cobra.Command { return newDoctorCmd(ios) }

// RunHook answers a host's pre-tool-use hook (host "claude" or "codex") and
// returns the exit status; Main calls it before building any command tree.
func RunHook(ios *cli.IO, host string) int { return runHook(ios, host) }

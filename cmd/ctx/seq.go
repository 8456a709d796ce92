package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
)

// ctx seq lives in internal/cmd/seqcmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "seq")
	commands["seq"] = func(ios *IO) *cobra.Command { return seqcmd.NewCmd(ios, runEnv) }
}

// getStepped handles ctx get seq:… and py:…: ID#N reads step N's run, the
// record's own handle prints it.
func getStepped(ios *IO, o *getOptions, k seqcmd.Kind) (done bool, err error) {
	run, done, err := k.Get(ios, o.handle)
	if !done {
		o.handle = run
	}
	return done, err
}

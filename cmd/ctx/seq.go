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

// getSeq handles ctx get seq:…: a step's handle reads that step's run, the
// sequence's own handle prints its record.
func getSeq(ios *IO, o *getOptions) (done bool, err error) {
	h, rec, err := seqcmd.StepHandle(ios, o.handle)
	if err != nil {
		return true, err
	}
	if h == "" {
		return true, writeJSON(ios.Out, map[string]any{"seq": rec.Handle(), "id": rec.ID().String(), "record": rec})
	}
	o.handle = h
	return false, nil
}

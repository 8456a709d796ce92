package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/pycmd"
)

// ctx py lives in internal/cmd/pycmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "py")
	commands["py"] = func(ios *IO) *cobra.Command { return pycmd.NewCmd(ios, runEnv) }
}

// getPy handles ctx get py:…: py:ID#N reads the Nth command's run, py:ID
// prints the execution's record.
func getPy(ios *IO, o *getOptions) (done bool, err error) {
	h, rec, err := pycmd.RunHandle(ios, o.handle)
	if err != nil {
		return true, err
	}
	if h == "" {
		return true, writeJSON(ios.Out, rec)
	}
	o.handle = h
	return false, nil
}

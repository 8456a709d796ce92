package main

import "github.com/ctxhq/ctx/internal/cmd/storecmd"

// The store's own commands live in internal/cmd/storecmd.
var (
	newGCCmd       = storecmd.NewGCCmd
	newPinCmd      = storecmd.NewPinCmd
	newUnpinCmd    = storecmd.NewUnpinCmd
	newRmCmd       = storecmd.NewRmCmd
	newReceiptsCmd = storecmd.NewReceiptsCmd
	newContractCmd = storecmd.NewContractCmd
	newCompactCmd  = storecmd.NewCompactCmd
	newCheckCmd    = storecmd.NewCheckCmd
)

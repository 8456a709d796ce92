// Package storecmd holds the commands that look after the store itself:
// ctx gc, pin, unpin, rm, receipts, contract, compact and check. The behaviour
// is package store's (and contract's); this is its command-line face.
package storecmd

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
)

// NewGCCmd is ctx gc.
func NewGCCmd(ios *cli.IO) *cobra.Command { return newGCCmd(ios) }

// NewPinCmd is ctx pin.
func NewPinCmd(ios *cli.IO) *cobra.Command { return newPinCmd(ios) }

// NewUnpinCmd is ctx unpin.
func NewUnpinCmd(ios *cli.IO) *cobra.Command { return newUnpinCmd(ios) }

// NewRmCmd is ctx rm.
func NewRmCmd(ios *cli.IO) *cobra.Command { return newRmCmd(ios) }

// NewReceiptsCmd is ctx receipts.
func NewReceiptsCmd(ios *cli.IO) *cobra.Command { return newReceiptsCmd(ios) }

// NewContractCmd is ctx contract.
func NewContractCmd(ios *cli.IO) *cobra.Command { return newContractCmd(ios) }

// NewCompactCmd is ctx compact (the background job after a flood).
func NewCompactCmd(ios *cli.IO) *cobra.Command { return newCompactCmd(ios) }

// NewCheckCmd is ctx check.
func NewCheckCmd(ios *cli.IO) *cobra.Command { return newCheckCmd(ios) }

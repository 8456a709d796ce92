package main

import "github.com/ctxhq/ctx/internal/cmd/hostscmd"

// ctx init, hook and doctor live in internal/cmd/hostscmd.
var (
	newInitCmd   = hostscmd.NewInitCmd
	newHookCmd   = hostscmd.NewHookCmd
	newDoctorCmd = hostscmd.NewDoctorCmd
	runHook      = hostscmd.RunHook
)

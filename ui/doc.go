// Package ui serves the human view of runs (ctx ui): a web page on the
// loopback interface listing recent runs, and for each its digest and its
// full output with terminal colour rendered, line numbers that are handles
// (click to copy), search, and a jump from failure to failure. Output is
// paged (PageLines a page), so a huge run never reaches the browser whole.
//
// It reads nothing itself: a Source — in ctx, the same retrieval code as
// ctx get, ctx show and ctx ls — supplies every byte. It must never listen on
// anything but loopback, and it refuses requests whose Host is not loopback
// (DNS rebinding).
package ui

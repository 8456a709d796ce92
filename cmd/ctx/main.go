// Command ctx runs commands for coding agents: it keeps every byte of their
// output in a local content-addressed store and prints a small, deterministic
// digest with a coverage receipt and handles that return any omitted span.
package main

import "os"

func main() { os.Exit(Main()) }

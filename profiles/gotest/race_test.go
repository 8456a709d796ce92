//go:build race

package gotest

// raceEnabled: under the race detector the graph guard parses only the
// smaller inputs (the cases, real runs and the 3,000-test generated runs);
// the 32 MiB benchmark inputs and the 160,000-test run would take minutes
// there and test the same code, which the run without -race covers.
const raceEnabled = true

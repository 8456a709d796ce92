//go:build race

package retrieve

// raceEnabled: under the race detector the redactor is slower still, so the
// parallel-grep equivalence test runs one case (the parallel path with its
// goroutines is what -race is for), as under -short.
const raceEnabled = true

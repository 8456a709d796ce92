//go:build race

package logs

// raceEnabled: the race detector slows the miner tenfold, so the largest
// tests feed fewer lines.
const raceEnabled = true

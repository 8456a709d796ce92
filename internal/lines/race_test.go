//go:build race

package lines

// raceStride: the race detector slows the regexps these tests hold the
// matchers to twentyfold, and they use no goroutines, so under -race the
// equivalence tests check every raceStride-th line (the full set runs
// without it, and FuzzMatchers covers the rest).
const raceStride = 10

//go:build !race

package lines

const raceStride = 1

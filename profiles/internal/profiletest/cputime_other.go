//go:build !unix

package profiletest

import "time"

// cpuTime is not measured here: BenchParse then reports no cpu-MB/s.
func cpuTime() time.Duration { return 0 }

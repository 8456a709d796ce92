package seq

import (
	"context"
	"testing"
)

// BenchmarkTrivialSteps is ctx seq's own cost per step: three steps that
// print nothing, through ptys, in one process (go test -cpuprofile shows
// where it goes).
func BenchmarkTrivialSteps(b *testing.B) {
	env, dir := newEnv(b)
	steps, err := FromArgs([]string{"true", "x", "--", "true", "y", "--", "true", "z"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(context.Background(), env, steps, Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

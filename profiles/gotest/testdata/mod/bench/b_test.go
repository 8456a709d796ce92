package bench

import "testing"

func BenchmarkSum(b *testing.B) {
	s := 0
	for i := 0; i < b.N; i++ {
		s += i
	}
	b.Log("n", b.N)
}

func BenchmarkSub(b *testing.B) {
	b.Run("size-10", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
		}
	})
}

func BenchmarkFails(b *testing.B) { b.Fatal("bench broke") }

func TestInBench(t *testing.T) {}

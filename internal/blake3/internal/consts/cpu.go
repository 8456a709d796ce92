//go:build !purego

package consts

import (
	"os"

	"golang.org/x/sys/cpu"
)

// The CPU's vector extensions, from golang.org/x/sys/cpu (which checks that
// the OS saves the AVX registers too). Upstream asked klauspost/cpuid, whose
// init runs dozens of CPUID instructions — each a trap to the hypervisor on
// a virtual machine, 0.4 ms of every ctx start-up — to answer these two.
var (
	HasAVX2 = cpu.X86.HasAVX2 &&
		os.Getenv("BLAKE3_DISABLE_AVX2") == "" &&
		os.Getenv("BLAKE3_PUREGO") == ""

	HasSSE41 = cpu.X86.HasSSE41 &&
		os.Getenv("BLAKE3_DISABLE_SSE41") == "" &&
		os.Getenv("BLAKE3_PUREGO") == ""
)

package diag

import (
	"reflect"
	"testing"
)

// TestCCNameIsTheRegexp: the substring check before the regexp changes no
// answer.
func TestCCNameIsTheRegexp(t *testing.T) {
	for _, s := range []string{"", "gcc", "g++", "cc", "c++", "clang", "clang++", "clang-cl", "clang-tidy", "cpp", "gcc-13",
		"x86_64-linux-gnu-gcc-12", "arm-none-eabi-g++", "clang-17", "true", "go", "cargo", "tcc", "ccache", "icc", "c", "g+",
		"clan", "cp", "my.tool-cc", "cc-", "clang-tidy-18.1"} {
		if got, want := ccName(s), reCC.FindStringSubmatch(s); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: ccName %q, the regexp %q", s, got, want)
		}
	}
}

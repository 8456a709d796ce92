package fuzzpkg

import "testing"

func FuzzRev(f *testing.F) {
	f.Add("abc")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		if s == "abc" {
			t.Errorf("bad input %q", s)
		}
	})
}

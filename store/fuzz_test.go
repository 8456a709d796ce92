package store

import "testing"

// FuzzParseHandle: whatever parses prints back to a handle that parses to the
// same thing (the round trip agents rely on when they edit a range).
func FuzzParseHandle(f *testing.F) {
	for _, s := range []string{"run:ba3d1020ee8f", "run:ba3d10#stderr:L40-52", "blob:4f1c0a9e2b77:B0-100", "span:abcdef", "ABCDEF:L7-", "run:ba3d10:L3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHandle(s)
		if err != nil {
			return
		}
		h2, err := ParseHandle(h.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, h, err)
		}
		if h2 != h {
			t.Fatalf("%q -> %q -> %+v, want %+v", s, h, h2, h)
		}
	})
}

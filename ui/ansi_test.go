package ui

import "testing"

func TestANSI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain <b>&", "plain &lt;b&gt;&amp;"},
		{"\x1b[31mred\x1b[0m ok", `<span class="fg1">red</span> ok`},
		{"\x1b[1;32mbold green\x1b[0m", `<span class="fg2 b">bold green</span>`},
		{"\x1b[91mbright\x1b[39m back", `<span class="fg9">bright</span> back`},
		{"\x1b[31munclosed", `<span class="fg1">unclosed</span>`},
		{"10%\r50%\r100%", "100%"},
		{"crlf\r", "crlf"},
		{"\x1b]0;title\x07after \x1b[2Kcleared", "after cleared"},
		{"bell\x07 nul\x00", "bell nul"},
	}
	for _, tt := range tests {
		if got := ANSI(tt.in); got != tt.want {
			t.Errorf("ANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzANSI(f *testing.F) {
	f.Add("\x1b[31mred\x1b[0m <x>")
	f.Add("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\")
	f.Fuzz(func(t *testing.T, s string) {
		out := ANSI(s)
		opens, closes := 0, 0
		for i := 0; i+6 <= len(out); i++ {
			if out[i:i+6] == "<span " {
				opens++
			}
			if i+7 <= len(out) && out[i:i+7] == "</span>" {
				closes++
			}
		}
		if opens != closes {
			t.Fatalf("unbalanced spans for %q: %q", s, out)
		}
	})
}

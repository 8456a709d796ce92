package progress

import (
	"strings"
	"testing"
)

func TestProgressStatusText(t *testing.T) {
	p := &Line{}
	p.observe([]byte("first line\nsecond \x1b[31mred\x1b[0m line\n"))
	p.observe([]byte("partial\rprogress 50%"))
	if got := p.status(80); !strings.HasSuffix(got, "│ progress 50%") || !strings.Contains(got, "2 lines") {
		t.Errorf("status = %q", got)
	}
	p.observe([]byte("\n"))
	p.observe([]byte("\t\x00 "))
	if got := p.status(80); !strings.HasSuffix(got, "│ progress 50%") {
		t.Errorf("a blank partial line hides the last line: %q", got)
	}
	if got := p.status(12); len([]rune(got)) != 11 || !strings.HasSuffix(got, "…") {
		t.Errorf("cut to 12 columns: %q", got)
	}
}

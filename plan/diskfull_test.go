package plan

import (
	"strings"
	"testing"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
)

// TestDiskFullIsNotCalledTheCap: bytes a full disk kept out of the spool are
// reported as a full disk and a missing tail, never as the --max-output cap
// (whose head and tail are kept); a run that lost bytes to both says both,
// each with its own size.
func TestDiskFullIsNotCalledTheCap(t *testing.T) {
	for _, tt := range []struct {
		name            string
		dropped, lost   int64
		want, wantNot   []string
		reason, without Reason
	}{
		{name: "disk only", dropped: 3 << 20, lost: 3 << 20,
			want:    []string{"the disk filled during the capture", "the tail is missing"},
			wantNot: []string{"--max-output cap", "head and tail kept"},
			reason:  ReasonDiskFull, without: ReasonCapped},
		{name: "cap only", dropped: 3 << 20,
			want:    []string{"passed the --max-output cap", "head and tail kept"},
			wantNot: []string{"disk filled"},
			reason:  ReasonCapped, without: ReasonDiskFull},
		{name: "both", dropped: 5 << 20, lost: 2 << 20,
			want:   []string{"passed the --max-output cap: 3.0 MiB dropped", "the last 2.0 MiB the command wrote were not stored"},
			reason: ReasonDiskFull},
	} {
		g := &evidence.Graph{Profile: "text", Version: 1}
		g.Seal("run:0123456789ab")
		ls := lineSource{"stdout": {"line 1", "line 2"}}
		streams := []StreamInfo{{Name: "stdout", Size: 14, Lines: 2, Dropped: tt.dropped, Lost: tt.lost}}
		c, err := contract.Load("text", "pass", "")
		if err != nil {
			t.Fatal(err)
		}
		p := Decide(g, c, Inputs{Status: "exited", Streams: streams})
		d, err := Render(Input{Run: RunInfo{Handle: "run:0123456789ab", Argv: []string{"gen"}, Dir: ".", Status: "exited"},
			Streams: streams, Graph: g, Contract: c, Plan: p, Lines: ls})
		if err != nil {
			t.Fatal(err)
		}
		text := string(d.Text)
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the digest does not say %q:\n%s", tt.name, w, text)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(text, w) {
				t.Errorf("%s: the digest says %q:\n%s", tt.name, w, text)
			}
		}
		if !hasReason(p.Reasons, tt.reason) || (tt.without != "" && hasReason(p.Reasons, tt.without)) {
			t.Errorf("%s: reasons %v, want %s without %q", tt.name, p.Reasons, tt.reason, tt.without)
		}
	}
}

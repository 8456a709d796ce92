package hosts

import (
	"strings"
	"testing"
)

// The guide teaches a sub-agent the ledger's exit: a typed handback, and a
// verdict from a run rather than a claim of done.
func TestGuideTeachesHandback(t *testing.T) {
	for _, h := range []Host{HostClaude, HostCodex} {
		g := Guide(h)
		for _, must := range []string{"ctx task claim task:ID --by NAME", "ctx task handback task:ID --kind done|failed|blocked|over_budget|over_turns|low_confidence",
			"--checkpoint REF", "ctx task verdict task:ID --pass|--fail --run run:ID", "ctx task resume task:ID", "done is not proof"} {
			if !strings.Contains(g, must) {
				t.Errorf("%s guide lacks %q", h, must)
			}
		}
	}
}

// The guide teaches leaving a capsule at the end of a session and reading
// one at the start (issue 17), with commands that exist.
func TestGuideTeachesCapsules(t *testing.T) {
	for _, h := range []Host{HostClaude, HostCodex} {
		g := Guide(h)
		for _, must := range []string{"ctx capsule capture FILE", "ctx capsule render capsule:ID", "ctx capsule inspect capsule:ID"} {
			if !strings.Contains(g, must) {
				t.Errorf("%s guide lacks %q", h, must)
			}
		}
	}
}

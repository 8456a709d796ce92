package plan

import (
	"os"
	"regexp"
	"testing"
)

// TestReasonsDocumented holds docs/reasons.md and the code's closed list equal.
func TestReasonsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/reasons.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| (.+) \\|$").FindAllStringSubmatch(string(doc), -1)
	documented := map[string]string{}
	for _, r := range rows {
		documented[r[1]] = r[2]
	}
	if len(documented) != len(Reasons) {
		t.Errorf("docs/reasons.md lists %d reasons, the code %d", len(documented), len(Reasons))
	}
	for _, r := range Reasons {
		if got, ok := documented[string(r.Code)]; !ok {
			t.Errorf("reason %s is not in docs/reasons.md", r.Code)
		} else if got != r.Meaning {
			t.Errorf("reason %s: docs say %q, code says %q", r.Code, got, r.Meaning)
		}
	}
}

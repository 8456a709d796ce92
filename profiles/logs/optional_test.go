package logs

import (
	"fmt"
	"testing"
)

// TestOptionalWord checks that a lower-case word beside a variable that
// one event's lines print only sometimes ("from (helo) [addr]" beside
// "from [addr]") joins the lines without it, in either order, and with
// clustering off; and that an upper-case word there (a protocol's verb)
// and a word in a message with too few other words stay apart.
func TestOptionalWord(t *testing.T) {
	var with, without, verbs, short []string
	for i := 0; i < 30; i++ {
		without = append(without, fmt.Sprintf("SMTP connection from [10.0.0.%d] closed by QUIT", i))
		with = append(with, fmt.Sprintf("SMTP connection from (%s) [10.0.0.%d] closed by QUIT", []string{"vm", "mx", "relay"}[i%3], i))
		verbs = append(verbs, fmt.Sprintf("Proxy request to 10.0.0.%d:443 via HTTPS for client 10.1.0.%d", i, i),
			fmt.Sprintf("Proxy request to 10.0.0.%d:443 via 10.1.0.%d for client 10.2.0.%d", i, i, i))
		short = append(short, fmt.Sprintf("FTP response: Client 10.0.0.%d, \"221 Goodbye.\"", i),
			fmt.Sprintf("FTP response: Client 10.0.0.%d, \"213 %d\"", i, 1000+i))
	}
	for name, lines := range map[string][]string{
		"first without": append(append([]string(nil), without...), with...),
		"first with":    append(append([]string(nil), with...), without...),
	} {
		for _, opts := range []Options{{}, {Off: RuleCluster}} {
			if _, n := groupsOf(lines, opts); n != 1 {
				t.Errorf("%s, off %v: %d groups, want 1", name, opts.Off, n)
			}
		}
		if _, n := groupsOf(lines, Options{Off: RuleOptional}); n == 1 {
			t.Errorf("%s with optional off: 1 group; the test shows nothing", name)
		}
	}
	if _, n := groupsOf(verbs, Options{}); n != 2 {
		t.Errorf("upper-case word: %d groups, want 2", n)
	}
	if _, n := groupsOf(short, Options{}); n != 2 {
		t.Errorf("few context words: %d groups, want 2", n)
	}
}

// TestElemCount checks that elemCount counts the elements splitKey makes,
// and gives up on keys with a '|'.
func TestElemCount(t *testing.T) {
	for _, k := range []string{"", "a", "a b", " a  b ", "from <*> closed by QUIT", "x  <*>"} {
		if got, want := elemCount([]byte(k)), len(splitKey(k, nil)); got != want {
			t.Errorf("elemCount(%q) = %d, splitKey gives %d", k, got, want)
		}
	}
	if n := elemCount([]byte("a|b c")); n != 0 {
		t.Errorf("elemCount with a '|' = %d, want 0", n)
	}
}

package logs

import (
	"fmt"
	"testing"
)

// TestTemplateQuotedValue: the quoted value of key="…" is one variable,
// whatever it holds (pairs, spaces, brackets, nothing); a quote that does
// not close, or a quote not right after the key, leaves the tokens as the
// other rules make them.
func TestTemplateQuotedValue(t *testing.T) {
	tests := []ruleTemplate{
		{`ADD dn="uid=ann,ou=people,dc=example"`, `ADD dn=<*>`, `ADD dn="uid=ann,ou=people,dc=example"`},
		{`BIND dn="" method=128`, `BIND dn=<*> method=<*>`, `BIND dn="" method=<*>`},
		{`RESULT err=0 text="no such object" done`, `RESULT err=<*> text=<*> done`, `RESULT err=<*> text="no such object" done`},
		{`SRCH filter="(cn=x*)" attrs`, `SRCH filter=<*> attrs`, `SRCH filter="(cn=x*)" attrs`},
		{`lock tag='View Lock', uid=1000`, `lock tag=<*>, uid=<*>`, `lock tag='View Lock', uid=<*>`},
		{`open name="never closed here`, `open name="never closed here`, `open name="never closed here`},
		{`say msg=x"y" now`, `say msg=x"y" now`, `say msg=x"y" now`},
	}
	checkRuleTemplates(t, RuleQuotedValue, tests)
}

// TestFrameNextKeys: after a connection's two counters, a column of
// operation names each followed by the same key is the message's first
// word, not a level: the operations stay apart, while the counters are
// the header. With the rule off the column, which takes few values across
// many rests, is masked, and two operations with the same rest merge.
func TestFrameNextKeys(t *testing.T) {
	ops := []struct{ op, rest string }{
		{"BIND", `dn="cn=u%d,dc=ex1" method=128 as admin`},
		{"SRCH", `base="ou=g%d,dc=ex1" scope=2 in tree`},
		{"RESULT", `tag=97 err=%d text=`},
		{"DEL", `dn="uid=d%d,dc=ex1" now`},
		{"ADD", `dn="uid=d%d,dc=ex1" now`},
		{"MOD", `attr=mail size=%d`},
		{"CMP", `attr=cn value=%d exact`},
		{"EXT", `oid=1.3.6.%d extended`},
	}
	lines := make([]string, 0, 400)
	for i := 0; i < 400; i++ {
		o := ops[i*7%len(ops)]
		via := []string{"alpha", "bravo", "charlie", "delta"}[i/8%4]
		lines = append(lines, fmt.Sprintf("conn=%d op=%d %s %s via %s", 1000+i/5, i%5, o.op, fmt.Sprintf(o.rest, i), via))
	}
	for _, tc := range []struct {
		off    Rules
		merged bool
	}{{0, false}, {RuleFrameNextKeys, true}} {
		m := NewMiner(Options{Off: tc.off})
		ids := make([]int, len(lines))
		for i, l := range lines {
			ids[i] = m.Add([]byte(l))
		}
		opOf := map[int]string{} // group → the operation of its first line
		merged := false
		for i, id := range ids {
			g, op := m.Resolve(id), ops[i*7%len(ops)].op
			if first, ok := opOf[g]; ok && first != op {
				merged = true
			}
			opOf[g] = op
		}
		if merged != tc.merged {
			t.Errorf("off=%v: operations merged = %v, want %v", tc.off, merged, tc.merged)
		}
	}
}

package logs

import "testing"

// TestTemplateBracketed: a word wholly in square brackets is a value the
// program printed (a section, a worker's name), unless it is an upper-case
// status word; a bracket that is not the whole token stays as it was.
func TestTemplateBracketed(t *testing.T) {
	tests := []ruleTemplate{
		{`[web] Ban 10.0.0.1`, `[<*>] Ban <*>`, `[web] Ban <*>`},
		{`worker [mail-queue], restarted`, `worker [<*>], restarted`, `worker [mail-queue], restarted`},
		{`check [OK] done`, `check [OK] done`, `check [OK] done`},
		{`[web, mail] loaded`, `[<*>] loaded`, `[web, mail] loaded`}, // a group of several tokens: RuleBracketGroups
		{`(web) loaded`, `(web) loaded`, `(web) loaded`},
	}
	checkRuleTemplates(t, RuleBracketed, tests)
}

// ruleTemplate is a line, its template, and its template with one rule
// off.
type ruleTemplate struct{ line, want, wantOff string }

// checkRuleTemplates checks each line's template with every rule on and
// with rule off.
func checkRuleTemplates(t *testing.T, rule Rules, tests []ruleTemplate) {
	t.Helper()
	for _, tt := range tests {
		if got := templateOf(tt.line); got != tt.want {
			t.Errorf("template(%q) = %q, want %q", tt.line, got, tt.want)
		}
		tok := tokenizer{off: rule}
		if got := string(tok.template([]byte(tt.line))); got != tt.wantOff {
			t.Errorf("with rule %v off, template(%q) = %q, want %q", rule, tt.line, got, tt.wantOff)
		}
	}
}

// TestMinerBracketedNames: lines that differ only in a bracketed name, as
// a service's per-section messages do, are one group.
func TestMinerBracketedNames(t *testing.T) {
	m := NewMiner(Options{})
	a := m.Add([]byte("[web] Found 10.0.0.1 - 2026-01-01 10:00:00"))
	b := m.Add([]byte("[mail] Found 10.0.0.2 - 2026-01-01 10:00:01"))
	if m.Resolve(a) != m.Resolve(b) {
		t.Errorf("bracketed names split one event: groups %d and %d", m.Resolve(a), m.Resolve(b))
	}
}

// TestTemplateBracketGroups: a bracketed group of several tokens is one
// variable, nested brackets and all; an upper-case group and an unclosed
// bracket stay as the other rules make them.
func TestTemplateBracketGroups(t *testing.T) {
	tests := []ruleTemplate{
		{`Login OK: [ivan/<via Auth-Type = PAP>] (from x)`, `Login OK: [<*>] (from x)`, `Login OK: [ivan/<via Auth-Type = PAP>] (from x)`},
		{`spawn [a b [c d]], done`, `spawn [<*>], done`, `spawn [a b [c d]], done`},
		{`[instance: a b] done`, `[instance: a b] done`, `[instance: a b] done`},
		{`state [NOT FOUND] here`, `state [NOT FOUND] here`, `state [NOT FOUND] here`},
		{`open [never closed here`, `open [never closed here`, `open [never closed here`},
	}
	checkRuleTemplates(t, RuleBracketGroups, tests)
}

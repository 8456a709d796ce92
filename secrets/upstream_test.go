package secrets

import (
	"bytes"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
)

// The embedded rules are gitleaks' own, byte for byte: upgrading the module
// without refreshing the copy (go generate ./secrets) fails here.
func TestEmbeddedRulesAreUpstream(t *testing.T) {
	if !bytes.Equal(GitleaksRules, []byte(config.DefaultConfig)) {
		t.Fatal("secrets/gitleaks.toml differs from the gitleaks module's config/gitleaks.toml: run go generate ./secrets and bump Version")
	}
}

// Every rule loads and compiles, and none is silently dropped.
func TestRulesCompile(t *testing.T) {
	s := rules()
	if len(s.rules) < 200 {
		t.Fatalf("only %d rules loaded; gitleaks alone has over 200", len(s.rules))
	}
	for _, r := range s.rules {
		r.regexp()
	}
}

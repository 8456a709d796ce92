package contract

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctxhq/ctx/evidence"
)

func load(t *testing.T, profile, outcome, dir string) *Contract {
	t.Helper()
	c, err := Load(profile, outcome, dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoadLayers(t *testing.T) {
	base := load(t, "pytest", "pass", "")
	if base.Ceiling != 120 || !strings.Contains(base.Sources["ceiling"], "defaults/pytest.toml [outcome.pass]") {
		t.Errorf("pytest pass ceiling %d from %q, want 120 from the profile's outcome.pass", base.Ceiling, base.Sources["ceiling"])
	}
	if fail := load(t, "pytest", "fail", ""); fail.Ceiling == base.Ceiling {
		t.Errorf("the outcome did not change the ceiling (%d)", fail.Ceiling)
	}
	if other := load(t, "no-such-profile", "pass", ""); other.Ceiling != 250 {
		t.Errorf("a profile without a file gets the defaults' pass ceiling: %d", other.Ceiling)
	}

	dir := t.TempDir()
	write(t, dir, "pytest.toml", "[default]\nrequired = [\"test:fail\"]\n[loss]\n\"test:fail\" = \"critical\"\n")
	c := load(t, "pytest", "pass", dir)
	if len(c.Required) != 1 || c.Required[0] != "test:fail" {
		t.Errorf("project override: required %v", c.Required)
	}
	if src := c.Sources["required"]; !strings.HasPrefix(src, filepath.Join(dir, "pytest.toml")) {
		t.Errorf("required comes from %q, want the project file", src)
	}
	if c.Ceiling != 120 {
		t.Errorf("a field the project did not set changed: ceiling %d", c.Ceiling)
	}
	if c.Hash() == base.Hash() {
		t.Error("two different contracts hash the same")
	}
	if again := load(t, "pytest", "pass", ""); again.Hash() != base.Hash() {
		t.Error("the same contract hashes differently")
	}
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadRefusesBadFiles(t *testing.T) {
	for name, body := range map[string]string{
		"unknown field":     "[default]\nrequird = [\"test\"]\n",
		"bad severity":      "[loss]\ntest = \"fatal\"\n",
		"unknown kind":      "[default]\nrequired = [\"tset:fail\"]\n",
		"floor>ceiling":     "[default]\nfloor = 900\nceiling = 100\n",
		"not toml at all":   "[default\n",
		"outcome typo":      "[outcome.failed]\nceiling = 50\n",
		"negative floor":    "[default]\nfloor = -5\nceiling = -1\n",
		"negative ceiling":  "[outcome.fail]\nceiling = -1\n",
		"loss unknown kind": "[loss]\ntset = \"minor\"\n",
	} {
		dir := t.TempDir()
		write(t, dir, "default.toml", body)
		_, err := Load("pytest", "fail", dir)
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "contract ") {
			t.Errorf("%s: err = %v, want a *contract.Error naming the file", name, err)
		}
	}
}

// TestLoadRefusesSpecialFiles: a project contract that is a FIFO, a link
// to a device or a huge file is refused at once with an error naming it,
// instead of blocking every run in the workspace or reading until memory
// runs out.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	for name, setup := range map[string]func(p string) error{
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"dev zero":  func(p string) error { return os.Symlink("/dev/zero", p) },
		"directory": func(p string) error { return os.Mkdir(p, 0o755) },
		"huge":      func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte("# x\n"), 1<<20), 0o644) },
	} {
		dir := t.TempDir()
		if err := setup(filepath.Join(dir, "default.toml")); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := Load("pytest", "fail", dir); done <- err }()
		select {
		case err := <-done:
			var ce *Error
			if !errors.As(err, &ce) || FixHint(err) == "" {
				t.Errorf("%s: err = %v, want a *contract.Error with a hint", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load blocked", name)
		}
	}
}

// TestLoadErrorsSayWhere: a bad contract file's error names the line, and an
// unknown key by name with the keys a contract has, so the user can fix the
// file without reading ctx's source.
func TestLoadErrorsSayWhere(t *testing.T) {
	for body, want := range map[string]string{
		"[default]\nfloor = 10\n[unknown]\nx = 1\n": `line 3 column 2: unknown key "unknown"`,
		"[default]\nrequird = [\"test\"]\n":         `line 2 column 1: unknown key "default.requird" (a contract has`,
		"[default]\nfloor 10\n":                     "line 2 column",
	} {
		dir := t.TempDir()
		write(t, dir, "default.toml", body)
		_, err := Load("pytest", "fail", dir)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want it to contain %q", body, err, want)
		}
	}
}

func TestClassOf(t *testing.T) {
	c := load(t, "no-such-profile", "fail", "")
	for _, tc := range []struct {
		it   evidence.Item
		want Class
	}{
		{evidence.Item{Kind: evidence.KindTest, Outcome: evidence.OutcomeFail}, Required},
		{evidence.Item{Kind: evidence.KindTest, Outcome: evidence.OutcomePass}, Retrievable},
		{evidence.Item{Kind: evidence.KindSummary, Outcome: evidence.OutcomeFail}, Required},
		{evidence.Item{Kind: evidence.KindSummary, Outcome: evidence.OutcomePass}, Elastic}, // summary:pass beats bare summary
		{evidence.Item{Kind: evidence.KindDiagnostic, Severity: evidence.SeverityWarning}, Elastic},
		{evidence.Item{Kind: evidence.KindDiagnostic, Severity: evidence.SeverityError}, Required},
		{evidence.Item{Kind: evidence.KindTest, Outcome: "flaky"}, Retrievable}, // nothing matches
	} {
		if got := c.ClassOf(&tc.it); got != tc.want {
			t.Errorf("ClassOf(%s %s%s) = %s, want %s", tc.it.Kind, tc.it.Outcome, tc.it.Severity, got, tc.want)
		}
	}
	// At equal specificity REQUIRED beats ELASTIC beats RETRIEVABLE.
	c2 := &Contract{Required: []string{"hit"}, Elastic: []string{"hit"}, Retrievable: []string{"hit"}}
	if got := c2.ClassOf(&evidence.Item{Kind: evidence.KindHit}); got != Required {
		t.Errorf("a tie went to %s", got)
	}
	c3 := &Contract{Required: []string{"hit"}, Retrievable: []string{"hit:vendored"}}
	if got := c3.ClassOf(&evidence.Item{Kind: evidence.KindHit, Name: "vendored"}); got != Retrievable {
		t.Errorf("a qualified selector lost to a bare one: %s", got)
	}
	c4 := &Contract{Loss: map[string]string{"test": "major", "test:fail": "critical"}}
	if got := c4.LossOf(&evidence.Item{Kind: evidence.KindTest, Outcome: evidence.OutcomeFail}); got != "critical" {
		t.Errorf("LossOf = %s, want the specific selector's critical", got)
	}
	if got := c4.LossOf(&evidence.Item{Kind: evidence.KindDiagnostic}); got != "minor" {
		t.Errorf("LossOf with no match = %s, want minor", got)
	}
}

// TestMeasure holds the coverage receipt to its definition: identities split
// into inline, retrievable (a span or a census entry) and unrepresented; a
// REQUIRED item counts as represented only when shown or in the census, a
// span alone is not enough.
func TestMeasure(t *testing.T) {
	c := load(t, "no-such-profile", "fail", "")
	span := evidence.Span{Base: "run:x", Stream: evidence.Stdout, From: 1, To: 2}
	fail := func(name string, sp evidence.Span) evidence.Item {
		return evidence.Item{Kind: evidence.KindTest, Name: name, Outcome: evidence.OutcomeFail, Span: sp}
	}
	g := &evidence.Graph{Items: []evidence.Item{
		0: fail("shown", span),
		1: fail("in-census", evidence.Span{}),
		2: fail("only-a-span", span), // reachable, but REQUIRED and not shown: unrepresented
		3: {Kind: evidence.KindTest, Name: "pass-with-span", Outcome: evidence.OutcomePass, Span: span},
		4: {Kind: evidence.KindTest, Name: "pass-no-span", Outcome: evidence.OutcomePass},
		5: {Kind: evidence.KindSummary, Outcome: evidence.OutcomeFail}, // required, not an identity
		6: {Kind: evidence.KindDiagnostic, Severity: evidence.SeverityWarning, Span: span},
	}, Losses: []evidence.Loss{{Code: "fallback", Detail: "x"}}}
	cov := c.Measure(g, map[int]bool{0: true, 5: true}, map[int]bool{1: true})
	want := Coverage{Identities: 6, Inline: 1, Retrievable: 4, Unrepresented: 1,
		RequiredTotal: 4, RequiredInline: 2, RequiredCensus: 1, RequiredUnrepresented: 1, ElasticOmitted: 1}
	cov.Losses = nil
	if !reflect.DeepEqual(cov, want) {
		t.Errorf("Measure =\n %+v\nwant\n %+v", cov, want)
	}
	if got := c.Measure(g, nil, nil); len(got.Losses) != 1 || got.RequiredUnrepresented != 4 {
		t.Errorf("nothing shown: %+v", got)
	}
}

func TestCoverageString(t *testing.T) {
	cov := Coverage{Identities: 1234, Inline: 5, Retrievable: 1229, BytesShown: 2048, BytesCaptured: 3 << 20}
	if got, want := cov.String(), "identities 1,234 · inline 5 · retrievable 1,229 · unrepresented required 0 · shown 2.0 KiB of 3.0 MiB"; got != want {
		t.Errorf("String =\n %q\nwant\n %q", got, want)
	}
	cov = Coverage{RequiredInline: 2, RequiredCensus: 40, RequiredUnrepresented: 1, LinesShown: 12, LinesTotal: 1000, BytesShown: 10, BytesCaptured: 10}
	if got, want := cov.String(), "lines 12/1,000 · required 2 inline + 40 in census · unrepresented required 1 · shown 10 B of 10 B"; got != want {
		t.Errorf("String =\n %q\nwant\n %q", got, want)
	}
}

func TestNumAndSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4321: "-4,321"} {
		if got := Num(n); got != want {
			t.Errorf("Num(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{1023: "1023 B", 1024: "1.0 KiB", 1<<20 - 1: "1024.0 KiB", 1 << 20: "1.0 MiB", 5 << 30: "5.0 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// An empty list is a value: `required = []` means nothing is REQUIRED, in
// a [default] or an [outcome.NAME] table, whatever an earlier layer said.
func TestEmptyRequiredClears(t *testing.T) {
	fail := &evidence.Item{Kind: evidence.KindTest, Outcome: evidence.OutcomeFail, Name: "TestA"}
	for _, body := range []string{"[default]\nrequired = []\n", "[outcome.fail]\nrequired = []\n"} {
		for _, name := range []string{"default.toml", "gotest.toml"} {
			dir := t.TempDir()
			write(t, dir, name, body)
			c := load(t, "gotest", "fail", dir)
			if c.Required == nil || len(c.Required) != 0 || !strings.HasPrefix(c.Sources["required"], filepath.Join(dir, name)) {
				t.Errorf("%s %q: required %#v from %q, want [] from the project file", name, body, c.Required, c.Sources["required"])
			}
			if cl := c.ClassOf(fail); cl == Required {
				t.Errorf("%s %q: a failing test is still %s", name, body, cl)
			}
		}
	}
}

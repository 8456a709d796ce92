package diag

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// TestRealRunFatal holds issue 10's diagnostics with no location to their
// program and to "fatal error", on real gcc runs (testdata/realrun/gen.sh).
func TestRealRunFatal(t *testing.T) {
	for _, c := range []struct {
		name, tool, class, msg string
	}{
		{"gcc-fatal", "cc1", "fatal error", "nosuch.c: No such file or directory"},
		{"gcc-noinput", "gcc", "fatal error", "no input files"},
		{"gcc-link", "collect2", "", "ld returned 1 exit status"},
	} {
		dir := filepath.Join("testdata", "realrun", c.name)
		cmd, err := os.ReadFile(filepath.Join(dir, "cmd"))
		if err != nil {
			t.Fatal(err)
		}
		stderr, err := os.ReadFile(filepath.Join(dir, "stderr"))
		if err != nil {
			t.Fatal(err)
		}
		g := parse(t, strings.Fields(string(cmd)), 1, "", string(stderr))
		found := false
		for _, it := range g.Items {
			if it.Kind == evidence.KindDiagnostic && it.Message == c.msg {
				found = true
				if it.Tool != c.tool || it.Class != c.class || it.Severity != evidence.SeverityError || it.File != "" {
					t.Errorf("%s: tool %q class %q severity %q file %q, want %q %q error and no file", c.name, it.Tool, it.Class, it.Severity, it.File, c.tool, c.class)
				}
			}
		}
		if !found {
			t.Errorf("%s: no diagnostic %q", c.name, c.msg)
		}
	}
}

// TestRealRunClippy keeps clippy's suggested fix in the finding and one
// summary per target, on a real run (../cargotest/testdata/realrun/gen.sh).
func TestRealRunClippy(t *testing.T) {
	stderr, err := os.ReadFile(filepath.Join("..", "cargotest", "testdata", "realrun", "clippy-all-targets", "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	g := parse(t, []string{"cargo", "clippy"}, 0, "", string(stderr))
	var helped, names []string
	for _, it := range g.Items {
		switch it.Kind {
		case evidence.KindDiagnostic:
			if strings.Contains(it.Message, "(help: ") {
				helped = append(helped, it.Message)
			}
		case evidence.KindSummary:
			if it.Name != "" {
				names = append(names, it.Name)
			}
		}
	}
	if !containsString(helped, "unneeded `return` statement (help: remove `return`)") {
		t.Errorf("the help line is not in the finding: %q", helped)
	}
	if strings.Join(names, "|") != "calc (lib)|calc (lib test)" {
		t.Errorf("summaries %q, want one per target", names)
	}
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

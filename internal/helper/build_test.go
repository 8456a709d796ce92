package helper

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestCompareBuilds: a helper built from other code than the ctx that ran
// it refuses, naming both commits and how to reinstall; the same build, or
// a build without a commit stamp, runs.
func TestCompareBuilds(t *testing.T) {
	a := "(devel) 0123456789abcdef0123456789abcdef01234567 2026-12-02T06:00:00Z"
	b := "(devel) fedcba9876543210fedcba9876543210fedcba98 2026-12-01T03:00:00Z"
	if err := compareBuilds("/bin/ctx-mcp", a, a); err != nil {
		t.Errorf("same build refused: %v", err)
	}
	if err := compareBuilds("/bin/ctx-mcp", a, ""); err != nil {
		t.Errorf("unstamped helper refused: %v", err)
	}
	err := compareBuilds("/bin/ctx-mcp", a, b+" modified")
	if err == nil {
		t.Fatal("a helper from another commit ran")
	}
	for _, w := range []string{"the helper /bin/ctx-mcp was built from other code than this ctx", "ctx: commit 0123456789ab ((devel))", "ctx-mcp: commit fedcba987654 modified", "go install"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q:\n%s", w, err)
		}
	}
}

// TestBuildOfReleases: without a commit stamp, a released module version
// names the build; a (devel) build names none.
func TestBuildOfReleases(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}
	if got := buildOf(bi); got != "v0.2.0" {
		t.Errorf("release build %q, want v0.2.0", got)
	}
	bi.Main.Version = "(devel)"
	if got := buildOf(bi); got != "" {
		t.Errorf("devel build without a commit %q, want none", got)
	}
	bi.Settings = []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.time", Value: "T"}, {Key: "vcs.modified", Value: "true"}}
	if got := buildOf(bi); got != "(devel) abc T modified" {
		t.Errorf("stamped build %q", got)
	}
}

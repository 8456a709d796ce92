package helper

import (
	"debug/buildinfo"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
)

// Build names the code this binary was built from: the main module's
// version and the commit, its time and whether the tree was modified, as go
// build stamps them, or the module version alone (go install …@v1.2.3). It
// is "" for a (devel) build that carries no commit (built with
// -buildvcs=false, or outside a checkout): then nothing is compared, so
// a helper left by an older development build is not caught.
var Build = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return buildOf(bi)
})

func buildOf(bi *debug.BuildInfo) string {
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		// No commit stamped (-buildvcs=false, or built outside a checkout):
		// a released module version still names the code; a (devel) build
		// names nothing that could be compared.
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		return ""
	}
	b := bi.Main.Version + " " + rev + " " + at
	if modified == "true" {
		b += " modified"
	}
	return b
}

// checkBuild refuses a helper built from other code than this ctx: a
// helper left on PATH or beside ctx by an older install would otherwise run
// old code under the new ctx's name, silently (a benchmark scored with an
// old miner, a script run by an old interpreter). The helper's build is
// read from its file (debug/buildinfo: a fraction of a millisecond, and only
// when a helper is run).
func checkBuild(path string) error {
	own := Build()
	if own == "" {
		return nil
	}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return fmt.Errorf("helper %s is not a Go binary ctx can read the build of (%v)\n  hint: %s", path, err, InstallHint)
	}
	return compareBuilds(path, own, buildOf(bi))
}

func compareBuilds(path, caller, helper string) error {
	if helper == "" || caller == helper {
		return nil
	}
	return fmt.Errorf("the helper %s was built from other code than this ctx (ctx: %s; %s: %s), so it would run old or different code under ctx's name\n  hint: %s",
		path, describeBuild(caller), filepath.Base(path), describeBuild(helper), InstallHint)
}

// describeBuild shortens a Build for a message: the version, the first 12
// hex digits of the commit, and "modified" when it was.
func describeBuild(b string) string {
	f := strings.Fields(b)
	if len(f) >= 2 && len(f[1]) > 12 {
		f[1] = f[1][:12]
	}
	if len(f) >= 3 {
		f = append(f[:2], f[3:]...) // the commit's time says nothing the commit does not
	}
	return "commit " + strings.Join(f[1:], " ") + " (" + f[0] + ")"
}

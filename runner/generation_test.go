package runner

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// TestLateGenerationHandedOff: with the wait forced to 0, git status is
// always late; the capture hands it to Env.Defer with the key the
// execution record is committed under, the work tree's top and the end of
// the command, records no generation itself, and when Defer declines, the
// execution's note says why (the capture's own note, shown to the agent,
// stays empty).
func TestLateGenerationHandedOff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	env, dir := newEnv(t)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=0")
	for _, decline := range []bool{false, true} {
		var got []Deferral
		env.Defer = func(d Deferral) error {
			got = append(got, d)
			if decline {
				return errors.New("busy")
			}
			return nil
		}
		res, err := Capture(context.Background(), env, &Request{Argv: []string{"true"}, Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		execs, err := env.Store.Execs(1, func(x *store.Exec) bool { return x.Run == res.Run.ID })
		if err != nil || len(execs) != 1 {
			t.Fatalf("execs %v %v", execs, err)
		}
		ex := execs[0]
		if len(got) != 1 {
			t.Fatalf("decline %v: Defer called %d times", decline, len(got))
		}
		d := got[0]
		top, _ := filepath.EvalSymlinks(dir)
		root, _ := filepath.EvalSymlinks(d.Root)
		if d.Exec != ex.Key || root != top || !d.Ended.Equal(ex.Start.Add(ex.Duration)) {
			t.Errorf("deferral %+v for execution %s started %v took %v in %s", d, ex.Key, ex.Start, ex.Duration, top)
		}
		if ex.Generation != nil {
			t.Errorf("a late generation recorded on the execution itself: %+v", ex.Generation)
		}
		if want := "no generation: busy"; decline != strings.Contains(ex.Note, want) || res.Note != "" {
			t.Errorf("decline %v: execution note %q, capture note %q", decline, ex.Note, res.Note)
		}
	}
}

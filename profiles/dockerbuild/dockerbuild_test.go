package dockerbuild

import (
	"flag"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

var update = flag.Bool("update", false, "rewrite the golden graphs and digests in testdata/realrun")

// TestRealRuns: every real build's digest states the outcome, and a failed
// build names the failing step and its error.
func TestRealRuns(t *testing.T) {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		t.Run(r.Name, func(t *testing.T) {
			if !matchArgv(cmdline.Normalize(r.Argv)) {
				t.Errorf("argv %q not claimed", r.Argv)
			}
			g, d := r.Check(t, Profile, *update)
			text := string(d.Text)
			whole := strings.Contains(text, "· whole output")
			if r.Exit != 0 {
				wants := []string{"build failed", "[4/5] RUN echo building; ls /missing-dir", "ls: /missing-dir: No such file or directory"}
				if whole {
					wants = []string{"RUN echo building; ls /missing-dir", "ls: /missing-dir: No such file or directory", "returned a non-zero code: 1"}
				}
				for _, want := range wants {
					if !strings.Contains(text, want) {
						t.Errorf("failed build's digest lacks %q:\n%s", want, text)
					}
				}
				if g.Verdict != "fail" {
					t.Errorf("verdict %q", g.Verdict)
				}
			} else if !strings.Contains(text, "build succeeded") && !whole {
				t.Errorf("passing build's digest does not say so:\n%s", text)
			}
			if strings.Contains(text, "ERROR: ") && g.Verdict == "pass" {
				t.Error("an error read as a pass")
			}
		})
	}
}

// TestSteps: step outcomes from the three formats.
func TestSteps(t *testing.T) {
	for _, c := range []struct{ run, want string }{
		{"buildkit-fail", "[1/5] FROM docker.io/local/busybox:1 done|[2/5] COPY greeting.txt /greeting.txt cached|[3/5] RUN cat /greeting.txt cached|[4/5] RUN echo building; ls /missing-dir error"},
		{"buildkit-fail-pty", "[1/5] FROM docker.io/local/busybox:1 done|[2/5] COPY greeting.txt /greeting.txt done|[3/5] RUN cat /greeting.txt done|[4/5] RUN echo building; ls /missing-dir error"},
		{"legacy-fail", "[1/5] FROM local/busybox:1 done|[2/5] COPY greeting.txt /greeting.txt done|[3/5] RUN cat /greeting.txt done|[4/5] RUN echo building; ls /missing-dir error"},
	} {
		var r profiletest.RealRun
		for _, x := range profiletest.RealRuns(t, "testdata/realrun") {
			if x.Name == c.run {
				r = x
			}
		}
		g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
		var got []string
		for _, it := range g.Items {
			if it.Why == "step" {
				got = append(got, strings.Replace(it.Name, " — ", " ", 1))
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s steps:\n%s\nwant:\n%s", c.run, strings.Join(got, "|"), c.want)
		}
	}
}

// FuzzParse: any output parses or fails cleanly, deterministically, and a
// failed exit is never read as a pass.
func FuzzParse(f *testing.F) {
	for _, r := range profiletest.RealRuns(f, "testdata/realrun") {
		f.Add(r.Stdout, r.Stderr, r.Exit)
	}
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		g, err := profiletest.ParseTwice(Profile, []string{"docker", "build", "."}, exit, stdout, stderr)
		if err != nil {
			return
		}
		if exit != 0 && g.Verdict == "pass" {
			t.Fatalf("exit %d read as a pass", exit)
		}
	})
}

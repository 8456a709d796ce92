package table

import (
	"flag"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

var update = flag.Bool("update", false, "rewrite the golden graphs and digests in testdata/realrun")

func TestRealRuns(t *testing.T) {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		t.Run(r.Name, func(t *testing.T) {
			if !matchArgv(cmdline.Normalize(r.Argv)) && !matchContent(r.Source()) {
				t.Errorf("neither argv %q nor content is claimed", r.Argv)
			}
			g, d := r.Check(t, Profile, *update)
			for _, it := range g.Items {
				if it.Kind == evidence.KindRecord && !strings.Contains(string(d.Text), it.Text) {
					t.Errorf("unusual row L%d not inline:\n%s", it.Line, d.Text)
				}
			}
		})
	}
}

// TestColumns: columns come from the data — multi-word headers ("CONTAINER
// ID", "Mounted on"), right-aligned numbers, an empty column (PORTS) — and
// the rare status rows are found.
func TestColumns(t *testing.T) {
	for _, c := range []struct{ run, cols string }{
		{"docker-ps", "CONTAINER ID | IMAGE | COMMAND | CREATED | STATUS | PORTS | NAMES"},
		{"df-h", "Filesystem | Size | Used | Avail | Use% | Mounted on"},
		{"lsblk", "NAME | MAJ:MIN | RM | SIZE | RO | TYPE | MOUNTPOINTS"},
		{"pip-list", "Package | Version"},
		{"ps-many", "STAT | TT | COMMAND | COMMAND"},
		{"kubectl-pods", "NAME | READY | STATUS | RESTARTS | AGE"},
	} {
		r := find(t, c.run)
		g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
		got := ""
		for _, it := range g.Items {
			if it.Kind == evidence.KindSummary {
				got = it.Attrs["columns"]
			}
		}
		if got != c.cols {
			t.Errorf("%s: columns %q, want %q", c.run, got, c.cols)
		}
	}
	for _, c := range []struct{ run, want string }{
		{"ps-many", "STAT=T"},
		{"kubectl-pods", "STATUS=CrashLoopBackOff,STATUS=Pending,STATUS=Completed"},
		{"pip-list", ""},
		{"df-h", ""},
	} {
		r := find(t, c.run)
		g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
		var rows []string
		for _, it := range g.Items {
			if it.Kind == evidence.KindRecord {
				rows = append(rows, it.Attrs["column"]+"="+it.Attrs["value"])
			}
		}
		if strings.Join(rows, ",") != c.want {
			t.Errorf("%s: unusual rows %v, want %s", c.run, rows, c.want)
		}
	}
}

func find(t *testing.T, name string) profiletest.RealRun {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no real run %s", name)
	return profiletest.RealRun{}
}

// FuzzParse: any output parses or fails cleanly, the same bytes give the same
// graph, and every unusual row's text is a line of the input.
func FuzzParse(f *testing.F) {
	for _, r := range profiletest.RealRuns(f, "testdata/realrun") {
		f.Add(r.Stdout)
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		g, err := profiletest.ParseTwice(Profile, []string{"ps"}, 0, out, nil)
		if err != nil {
			return
		}
		for _, it := range g.Items {
			if it.Kind == evidence.KindRecord && !strings.Contains(string(out), strings.TrimSpace(it.Text)) {
				t.Fatalf("row %q is not in the input", it.Text)
			}
		}
	})
}

package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
	"github.com/ctxhq/ctx/profiles/logs"
)

// loghubDir is the shared loghub corpus, relative to this package, and
// loghubOrigDir the two systems with original labels.
var (
	loghubDir     = filepath.Join("..", "..", "shared", "corpus", "loghub2k")
	loghubOrigDir = filepath.Join("..", "..", "shared", "corpus", "loghub2k-orig")
)

var (
	loghubDebug     = flag.Bool("loghub.debug", false, "print the ground-truth groups the miner gets wrong")
	loghubDebugData = flag.String("loghub.data", "", "with -loghub.debug, comma-separated folders to debug instead of the dev systems")
)

func TestScore(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []string
		ga, fga     float64
		templates   int
		correct     int
	}{
		{"exact", []string{"A", "A", "B", "B", "C"}, []string{"1", "1", "2", "2", "3"}, 1, 1, 3, 3},
		{"labels are opaque", []string{"A", "B", "A"}, []string{"B", "A", "B"}, 1, 1, 2, 2},
		// Merging A and B makes both wrong, although each is whole.
		{"merged", []string{"A", "A", "B", "B"}, []string{"1", "1", "1", "1"}, 0, 0, 1, 0},
		// A is split; B is right. P = 1/3, R = 1/2, F1 = 0.4.
		{"split", []string{"A", "A", "B", "B"}, []string{"1", "2", "3", "3"}, 0.5, 0.4, 3, 1},
		// B shares a label with one line of A: only C is right; P = R = 1/3.
		{"stolen line", []string{"A", "A", "A", "B", "C", "C"}, []string{"1", "1", "2", "2", "3", "3"}, 2.0 / 6, 1.0 / 3, 3, 1},
		{"empty", nil, nil, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := Score(tt.truth, tt.pred)
			if math.Abs(sc.GA-tt.ga) > 1e-12 || math.Abs(sc.FGA-tt.fga) > 1e-12 ||
				sc.Templates != tt.templates || sc.Correct != tt.correct {
				t.Errorf("Score = %+v; want GA %v FGA %v templates %d correct %d", sc, tt.ga, tt.fga, tt.templates, tt.correct)
			}
			if ga := GroupingAccuracy(tt.truth, tt.pred); ga != sc.GA {
				t.Errorf("GroupingAccuracy = %v, Score.GA = %v", ga, sc.GA)
			}
		})
	}
}

func TestLoadLoghubSystemErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "X")
	if _, err := LoadLoghubSystem(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing folder: err = %v", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("X_2k.log", "a 1\r\nb 2\r\n")
	if _, err := LoadLoghubSystem(dir); !errors.Is(err, ErrLoghubData) {
		t.Errorf("no csv: err = %v, want ErrLoghubData", err)
	}
	if _, err := FindLoghubSystems(filepath.Dir(dir)); !errors.Is(err, ErrLoghubData) {
		t.Errorf("find with no system: err = %v, want ErrLoghubData", err)
	}
	for _, csv := range []string{
		"LineId,Content\n1,a 1\n2,b 2\n",                           // no EventTemplate
		"LineId,Content,EventTemplate\n1,a 1,a <*>\n",              // too few rows
		"LineId,Content,EventTemplate\n2,a 1,a <*>\n1,b 2,b <*>\n", // out of order
	} {
		write("X_2k.log_structured_corrected.csv", csv)
		if _, err := LoadLoghubSystem(dir); !errors.Is(err, ErrLoghubData) {
			t.Errorf("csv %q: err = %v, want ErrLoghubData", csv, err)
		}
	}
	write("X_2k.log_structured_corrected.csv", "LineId,Content,EventTemplate\n1,a 1,a <*>\n2,\"b 2\",b <*>\n")
	// An original structured file beside the corrected one is ignored.
	write("X_2k.log_structured.csv", "LineId,Content,EventTemplate\n1,a 1,x\n2,b 2,x\n")
	sys, err := LoadLoghubSystem(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sys.Name != "X" || len(sys.Raw) != 2 || string(sys.Raw[1]) != "b 2\r" || string(sys.Content[1]) != "b 2" || sys.Truth[0] != "a <*>" {
		t.Errorf("loaded %+v", sys)
	}
	// Any name will do, and a second log is ambiguous.
	found, err := FindLoghubSystems(filepath.Dir(dir))
	if err != nil || len(found) != 1 || found[0] != dir {
		t.Errorf("FindLoghubSystems = %v, %v; want [%s]", found, err, dir)
	}
	if found, err := FindLoghubSystems(dir); err != nil || len(found) != 1 {
		t.Errorf("FindLoghubSystems(system folder) = %v, %v", found, err)
	}
	write("other.log", "c 3\n")
	if _, err := LoadLoghubSystem(dir); !errors.Is(err, ErrLoghubData) {
		t.Errorf("two logs: err = %v, want ErrLoghubData", err)
	}
}

// TestChooseOnOthers checks that leave-out never looks at the held-out
// system: its own scores cannot change the choice made for it.
func TestChooseOnOthers(t *testing.T) {
	n := len(LeaveOutGrid)
	mk := func(best int) []Scores {
		s := make([]Scores, n)
		s[best].GA = 1
		return s
	}
	// Systems 0 and 1 are best at point 2; system 2 is best at point 5.
	gc := [][]Scores{mk(2), mk(2), mk(5)}
	gr := [][]Scores{mk(2), mk(2), mk(5)}
	if g := chooseOnOthers(gc, gr, 2); g != 2 {
		t.Errorf("held out 2: chose %d, want 2 (what the others prefer)", g)
	}
	gc[2], gr[2] = mk(2), mk(2)
	if g := chooseOnOthers(gc, gr, 2); g != 2 {
		t.Errorf("held out 2 changed: chose %d, want 2 still", g)
	}
}

// TestLoghub is the accuracy gate: the mean grouping accuracy over the seven
// loghub systems must reach 0.95 on the Content column and 0.90 on raw lines.
func TestLoghub(t *testing.T) {
	testenv.Corpus(t, "loghub2k")
	rep, err := RunLoghub(context.Background(), LoghubConfig{Dirs: []string{loghubDir}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("loghub 2k, corrected labels:\n%s", b.String())
	if len(rep.Systems) != 7 {
		t.Fatalf("%d systems scored, want 7", len(rep.Systems))
	}
	if rep.MeanContent.GA < 0.95 {
		t.Errorf("mean GA on Content = %.4f, want ≥ 0.95", rep.MeanContent.GA)
	}
	if rep.MeanRaw.GA < 0.90 {
		t.Errorf("mean GA on raw lines = %.4f, want ≥ 0.90", rep.MeanRaw.GA)
	}
}

// TestLoghubTerminalNoise checks that CRLF endings and ANSI colour codes
// around raw lines change nothing: the miner groups the noisy lines exactly
// as the clean ones.
func TestLoghubTerminalNoise(t *testing.T) {
	testenv.Corpus(t, "loghub2k")
	paths, err := FindLoghubSystems(loghubDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		sys, err := LoadLoghubSystem(p)
		if err != nil {
			t.Fatal(err)
		}
		name := sys.Name
		clean, noisy := logs.NewMiner(logs.Options{}), logs.NewMiner(logs.Options{})
		for i, l := range sys.Raw {
			l = []byte(strings.TrimSuffix(string(l), "\r"))
			n := append([]byte("\x1b[2m"), l...)
			n = append(n, "\x1b[0m\r"...)
			if a, b := clean.Add(l), noisy.Add(n); a != b {
				t.Fatalf("%s line %d: group %d clean, %d with CR and colour", name, i+1, a, b)
			}
		}
		if a, b := clean.Templates(), noisy.Templates(); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: templates differ with CR and colour", name)
		}
	}
}

func TestRunLoghubCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunLoghub(ctx, LoghubConfig{Dirs: []string{loghubDir}}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// BenchmarkLoghub runs the whole loghub benchmark; see the lines/s metrics
// (mining time only, one core).
func BenchmarkLoghub(b *testing.B) {
	if _, err := os.Stat(loghubDir); err != nil {
		b.Skipf("loghub corpus not available: %v", err)
	}
	var rep *LoghubReport
	for i := 0; i < b.N; i++ {
		var err error
		if rep, err = RunLoghub(context.Background(), LoghubConfig{Dirs: []string{loghubDir, loghubOrigDir}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(rep.RawLinesPerSec, "raw-lines/s")
	b.ReportMetric(rep.ContentLinesPerSec, "content-lines/s")
	b.ReportMetric(rep.MeanRaw.GA, "GA-raw")
	b.ReportMetric(rep.MeanContent.GA, "GA-content")
}

// TestLoghubDebug prints, for each system and input, the ground-truth groups
// the miner got wrong and the templates it gave their lines. It is a tool
// for working on the miner: go test ./bench -run LoghubDebug -loghub.debug -v
func TestLoghubDebug(t *testing.T) {
	if !*loghubDebug {
		t.Skip("run with -loghub.debug")
	}
	dirs := []string{loghubDir, loghubOrigDir}
	if *loghubDebugData != "" {
		dirs = strings.Split(*loghubDebugData, ",")
	}
	paths, err := FindLoghubSystems(dirs...)
	if err != nil {
		t.Skip(err)
	}
	for _, p := range paths {
		sys, err := LoadLoghubSystem(p)
		if err != nil {
			t.Fatal(err)
		}
		name := sys.Name
		for _, in := range []struct {
			label string
			lines [][]byte
		}{{"content", sys.Content}, {"raw", sys.Raw}} {
			m := logs.NewMiner(logs.Options{})
			pred := make([]string, len(in.lines))
			for i, l := range in.lines {
				pred[i] = strconv.Itoa(m.Add(l))
			}
			for i := range pred {
				id, _ := strconv.Atoi(pred[i])
				pred[i] = strconv.Itoa(m.Resolve(id))
			}
			sc := Score(sys.Truth, pred)
			fmt.Printf("=== %s %s GA=%.4f FGA=%.4f templates=%d expected=%d\n", name, in.label, sc.GA, sc.FGA, sc.Templates, sc.Expected)
			groups := map[string]map[string]int{}
			predSize := map[string]int{}
			for i, tr := range sys.Truth {
				if groups[tr] == nil {
					groups[tr] = map[string]int{}
				}
				groups[tr][pred[i]]++
				predSize[pred[i]]++
			}
			var keys []string
			for k := range groups {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				g, n := groups[k], 0
				for _, c := range g {
					n += c
				}
				right := false
				for p := range g {
					right = len(g) == 1 && predSize[p] == n
				}
				if right {
					continue
				}
				fmt.Printf("  TRUTH (%d) %s\n", n, k)
				var ps []string
				for p := range g {
					ps = append(ps, p)
				}
				sort.Strings(ps)
				for _, p := range ps {
					id, _ := strconv.Atoi(p)
					tm, _ := m.Template(id)
					fmt.Printf("      %d/%d  %s\n", g[p], predSize[p], tm.Text)
				}
			}
		}
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	cleanup := testenv.IsolateState() // no test store in the developer's index
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// TestLoadLoghubSystemGzip checks that a system whose files are gzipped
// loads as the plain one does.
func TestLoadLoghubSystemGzip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Z")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Z.log.gz", "t1 x 1\nt2 y 2\n")
	write("Z_structured.csv.gz", "LineId,Content,EventTemplate\n1,x 1,x <*>\n2,y 2,y <*>\n")
	sys, err := LoadLoghubSystem(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.Raw) != 2 || string(sys.Content[1]) != "y 2" || sys.Truth[0] != "x <*>" {
		t.Errorf("loaded %q %q %q", sys.Raw, sys.Content, sys.Truth)
	}
	if err := os.WriteFile(filepath.Join(dir, "Z.log.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLoghubSystem(dir); err == nil {
		t.Error("a corrupt .gz loaded")
	}
}

// TestHeldOutLoads checks that the held-out logs in testdata load and that
// every one of their lines is labelled.
func TestHeldOutLoads(t *testing.T) {
	paths, err := FindLoghubSystems(filepath.Join("testdata", "heldout"), filepath.Join("testdata", "heldout2"), filepath.Join("testdata", "heldout3"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 8 {
		t.Errorf("%d held-out systems, want 8: %v", len(paths), paths)
	}
	for _, p := range paths {
		sys, err := LoadLoghubSystem(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, tmpl := range sys.Truth {
			if tmpl == "" {
				t.Errorf("%s line %d has no template", sys.Name, i+1)
			}
		}
	}
}

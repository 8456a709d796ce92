package digest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

var update = flag.Bool("update", false, "rewrite the golden digests in testdata/golden")

// goldenCase is a real output (captured by a profile's tests) with the command
// line that produced it.
type goldenCase struct {
	name   string
	argv   []string
	exit   int
	stdout string // path under ../profiles, "" for none
	stderr string
	gen    func() []byte // or generated output
}

var goldenCases = []goldenCase{
	{name: "pytest-failing", argv: []string{"pytest", "-p", "no:cacheprovider"}, exit: 1, stdout: "pytest/testdata/out/failing-plain.out"},
	{name: "pytest-failing-q", argv: []string{"pytest", "-q"}, exit: 1, stdout: "pytest/testdata/out/failing-q.out"},
	{name: "gotest-race", argv: []string{"go", "test", "-race", "./..."}, exit: 1, stdout: "gotest/testdata/race.stdout", stderr: "gotest/testdata/race.stderr"},
	{name: "gotest-timeout-json", argv: []string{"go", "test", "-json", "./..."}, exit: 1, stdout: "gotest/testdata/timeout-json.stdout", stderr: "gotest/testdata/timeout-json.stderr"},
	{name: "gotest-cached-pass", argv: []string{"go", "test", "./..."}, exit: 0, stdout: "gotest/testdata/cached.stdout", stderr: "gotest/testdata/cached.stderr"},
	{name: "cargo-fail", argv: []string{"cargo", "test"}, exit: 101, stdout: "cargotest/testdata/fail.stdout", stderr: "cargotest/testdata/fail.stderr"},
	{name: "cargo-compile-error", argv: []string{"cargo", "test"}, exit: 101, stdout: "cargotest/testdata/compile-error.stdout", stderr: "cargotest/testdata/compile-error.stderr"},
	{name: "jest-color", argv: []string{"npx", "jest"}, exit: 1, stdout: "jest/testdata/jest-color.stdout", stderr: "jest/testdata/jest-color.stderr"},
	{name: "clang-warn", argv: []string{"clang", "-Wall", "-c", "main.c"}, exit: 0, stderr: "diag/testdata/clang_warn.stderr"},
	{name: "cargo-check", argv: []string{"cargo", "check"}, exit: 101, stderr: "diag/testdata/cargo_check_types.stderr"},
	{name: "eslint", argv: []string{"npx", "eslint", "."}, exit: 1, stdout: "diag/testdata/eslint.stdout"},
	{name: "jq-items", argv: []string{"jq", "-c", ".items[]"}, exit: 0, stdout: "jsondoc/testdata/jq-items.jsonl"},
	{name: "rg-headings", argv: []string{"ag", "func"}, exit: 0, stdout: "search/testdata/ag-group.out"},
	{name: "needle-log", argv: []string{"cat", "app.log"}, exit: 0, gen: needleLog},
	{name: "text-flood", argv: []string{"sh", "-c", "./build.sh"}, exit: 2, gen: textFlood},
	{name: "binary", argv: []string{"cat", "blob.bin"}, exit: 0, gen: binaryOutput},
	{name: "small", argv: []string{"echo", "hello"}, exit: 0, gen: func() []byte { return []byte("hello\n") }},
}

func (c goldenCase) streams(t *testing.T) ([]byte, []byte) {
	t.Helper()
	read := func(p string) []byte {
		if p == "" {
			return nil
		}
		b, err := os.ReadFile(filepath.Join("..", "profiles", p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if c.gen != nil {
		return c.gen(), nil
	}
	return read(c.stdout), read(c.stderr)
}

// digest stores the output in a fresh store under dir and renders its digest.
func digest(t *testing.T, dir string, c goldenCase, stdout, stderr []byte, opts Options) *Result {
	t.Helper()
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sp, err := st.NewSpool(store.SpoolMeta{Argv: c.argv, Dir: ".", Mode: "ingest", Started: time.Now(), Cap: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name string
		data []byte
	}{{"stdout", stdout}, {"stderr", stderr}} {
		w, _ := sp.Stream(s.name)
		if _, err := w.Write(s.data); err != nil {
			t.Fatal(err)
		}
	}
	p, err := st.Prepare(sp, store.Manifest{Argv: c.argv, Dir: ".", Mode: "pty", Exit: c.exit, Status: "exited"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Make(context.Background(), p, p.Run, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit(p, store.Exec{Argv: c.argv, Start: time.Now(), Receipt: res.ReceiptID}, res.Extra()); err != nil {
		t.Fatal(err)
	}
	// The stored receipt replays to the same bytes.
	data, err := st.Receipt(res.ReceiptID)
	if err != nil {
		t.Fatal(err)
	}
	if rep := Replay(context.Background(), st, res.ReceiptID, data, ""); !rep.Match {
		t.Errorf("%s: replay does not match: %s", c.name, rep.Why)
	}
	return res
}

// TestGoldenDigests renders real outputs of every profile family and compares
// the digests byte for byte with testdata/golden (go test -update rewrites them).
func TestGoldenDigests(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr := c.streams(t)
			res := digest(t, t.TempDir(), c, stdout, stderr, Options{})
			if res.Digest.Coverage.RequiredUnrepresented != 0 {
				t.Errorf("%d REQUIRED items unrepresented", res.Digest.Coverage.RequiredUnrepresented)
			}
			path := filepath.Join("testdata", "golden", c.name+".digest")
			if *update {
				if err := os.WriteFile(path, res.Digest.Text, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(res.Digest.Text, want) {
				t.Errorf("digest differs from %s (go test -update to accept):\n--- got\n%s\n--- want\n%s", path, res.Digest.Text, want)
			}
		})
	}
}

// TestDeterminism renders the same evidence under different stores (paths),
// times, environments and map orders, and requires identical bytes: the
// digest, the receipt and the item JSON.
func TestDeterminism(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr := c.streams(t)
			var first *Result
			var dirs []string
			for i := range 4 {
				t.Setenv("TZ", []string{"UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"}[i])
				t.Setenv("LANG", []string{"C", "en_US.UTF-8", "de_DE.UTF-8", "ja_JP.UTF-8"}[i])
				t.Setenv("COLUMNS", fmt.Sprint(40+i*100))
				// Churn the map hash seeds' effect on any iteration by
				// allocating and ranging over maps between renders.
				m := map[int]int{}
				for k := range rand.IntN(1000) {
					m[k] = k
				}
				for range m {
				}
				dir := filepath.Join(t.TempDir(), fmt.Sprintf("store-%d-%d", i, rand.IntN(1e9)))
				dirs = append(dirs, dir)
				res := digest(t, dir, c, stdout, stderr, Options{})
				if first == nil {
					first = res
					continue
				}
				if !bytes.Equal(res.Digest.Text, first.Digest.Text) {
					t.Fatalf("render %d differs:\n%s\n---\n%s", i, res.Digest.Text, first.Digest.Text)
				}
				if res.ReceiptID != first.ReceiptID || res.Plan.ID != first.Plan.ID {
					t.Fatalf("render %d: receipt %s plan %s, first %s %s", i, res.ReceiptID.Short(), res.Plan.ID, first.ReceiptID.Short(), first.Plan.ID)
				}
				if a, b := itemsJSON(t, res), itemsJSON(t, first); a != b {
					t.Fatalf("render %d: items differ", i)
				}
			}
			for _, d := range dirs {
				if strings.Contains(string(first.Digest.Text), d) {
					t.Errorf("the store's path %s reached the digest", d)
				}
			}
		})
	}
}

func itemsJSON(t *testing.T, r *Result) string {
	t.Helper()
	var b strings.Builder
	for _, it := range r.Graph.Items {
		fmt.Fprintf(&b, "%+v\n", it)
	}
	return b.String()
}

func needleLog() []byte {
	var b bytes.Buffer
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 1; i <= 3000; i++ {
		if i == 1777 {
			b.WriteString("2026-11-29T10:00:00Z INFO  [main] cache warmed from snapshot taken by a previous release\n")
			continue
		}
		fmt.Fprintf(&b, "2026-11-29T10:%02d:%02d.%03dZ INFO  [http-%d] GET /api/items/%d status=200 in %dms\n", i/60%60, i%60, rng.IntN(1000), rng.IntN(8), rng.IntN(99999), rng.IntN(500))
	}
	return b.Bytes()
}

func textFlood() []byte {
	var b bytes.Buffer
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "[%4d/2000] compiling module_%d.o\n", i, i)
		if i == 1234 {
			b.WriteString("error: module_1234.c:88: undefined reference to `frobnicate'\n")
		}
	}
	b.WriteString("make: *** [Makefile:12: all] Error 2\n")
	return b.Bytes()
}

func binaryOutput() []byte {
	b := []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00")
	for i := range 5000 {
		b = append(b, byte(i*7), 0)
	}
	return b
}

package jsondoc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// parseOut parses stdout (and stderr) as the registry would, checks that a
// second parse gives the same JSON, and seals the graph.
func parseOut(t *testing.T, argv []string, exit int, stdout, stderr []byte) *evidence.Graph {
	t.Helper()
	g, err := parseTwice(argv, exit, stdout, stderr)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return g
}

func parseTwice(argv []string, exit int, stdout, stderr []byte) (*evidence.Graph, error) {
	return profiletest.ParseTwice(Profile, argv, exit, stdout, stderr)
}

func itemsOf(g *evidence.Graph, kind evidence.Kind) []evidence.Item {
	var out []evidence.Item
	for _, it := range g.Items {
		if it.Kind == kind {
			out = append(out, it)
		}
	}
	return out
}

func summary(t *testing.T, g *evidence.Graph) evidence.Item {
	t.Helper()
	s := itemsOf(g, evidence.KindSummary)
	if len(s) != 1 {
		t.Fatalf("%d summary items, want 1", len(s))
	}
	return s[0]
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// genJSONL writes n records of one shape, except those in odd, which get the
// line odd returns.
func genJSONL(n int, odd map[int]string) []byte {
	var b bytes.Buffer
	b.Grow(n * 64)
	for i := 1; i <= n; i++ {
		if s, ok := odd[i]; ok {
			b.WriteString(s)
			b.WriteByte('\n')
			continue
		}
		fmt.Fprintf(&b, `{"id":%d,"user":"u%d","path":"/api/v1/items","latency_ms":%d,"ok":true}`+"\n", i, i%97, i%1000)
	}
	return b.Bytes()
}

// The figure: 100,000 records of which 3 differ in shape are named, each
// with its record number and a handle to its line.
func TestHundredThousandRecordsThreeOdd(t *testing.T) {
	odd := map[int]string{
		7:     `{"id":7,"user":"u7","path":"/api/v1/items","latency_ms":3,"ok":true,"retry":1}`,
		50001: `{"id":50001,"user":"u42","path":"/api/v1/items","latency_ms":null,"ok":true}`,
		99990: `{"id":99990,"user":"u80","path":"/api/v1/items","latency_ms":990}`,
	}
	in := genJSONL(100000, odd)
	g := parseOut(t, []string{"cat", "requests.jsonl"}, 0, in, nil)
	recs := itemsOf(g, evidence.KindRecord)
	want := []struct {
		num    string
		handle string
	}{{"7", "run:test#stdout:L7"}, {"50001", "run:test#stdout:L50001"}, {"99990", "run:test#stdout:L99990"}}
	if len(recs) != len(want) {
		t.Fatalf("%d record items, want %d: %+v", len(recs), len(want), recs)
	}
	for i, w := range want {
		r := recs[i]
		if r.Attrs["record"] != w.num || r.Span.Handle() != w.handle || r.Why != "minority-shape" {
			t.Errorf("record item %d = %s %s %s, want record %s at %s", i, r.Attrs["record"], r.Span.Handle(), r.Why, w.num, w.handle)
		}
		if !strings.HasPrefix(odd[r.Line], r.Text[:20]) {
			t.Errorf("record %d preview %q does not start the record", r.Line, r.Text)
		}
	}
	shapes := itemsOf(g, evidence.KindShape)
	if len(shapes) != 4 || shapes[0].Count != 99997 {
		t.Errorf("shapes = %+v, want 4 with the dominant one first (99997)", shapes)
	}
	s := summary(t, g)
	if s.Counts["records"] != 100000 || s.Counts["minority_records"] != 3 || s.Counts["shapes"] != 4 || s.Counts["invalid_lines"] != 0 {
		t.Errorf("summary counts = %v", s.Counts)
	}
	if g.Verdict != "" || len(g.Losses) != 0 {
		t.Errorf("verdict %q losses %v, want none", g.Verdict, g.Losses)
	}
}

// Memory does not grow with the number of records: a tenfold longer input
// makes (almost) no more allocations.
func TestAllocationsBounded(t *testing.T) {
	allocs := func(n int) float64 {
		in := genJSONL(n, map[int]string{3: `{"odd":true}`})
		src := evidence.BytesSource(nil, 0, in, nil)
		return testing.AllocsPerRun(2, func() {
			if _, err := Profile.Parse(context.Background(), src); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(10000), allocs(100000)
	if large-small > 50 {
		t.Errorf("allocations grow with records: %v for 10k, %v for 100k", small, large)
	}
}

func BenchmarkParse100k(b *testing.B) {
	in := genJSONL(100000, map[int]string{7: `{"odd":1}`, 500: `{"odd":2}`, 90000: `{"odd":3}`})
	src := evidence.BytesSource(nil, 0, in, nil)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Profile.Parse(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestErrorRecords(t *testing.T) {
	in := strings.Join([]string{
		`{"level":"info","msg":"start","error":null}`,
		`{"level":"info","msg":"tick","error":null}`,
		`{"level":"ERROR","msg":"disk full","error":null}`,
		`{"level":"info","msg":"retry","error":"EOF"}`,
		`{"level":"info","msg":"ok","error":""}`,
		`{"level":"warn","msg":"slow","error":{}}`,
		`{"level":50,"msg":"pino error","error":null}`,
		`{"level":30,"msg":"pino info","error":null}`,
		`{"level":"info","msg":"tock","error":null}`,
	}, "\n") + "\n"
	g := parseOut(t, nil, 0, []byte(in), nil)
	var got []string
	for _, it := range itemsOf(g, evidence.KindAnomaly) {
		if it.Why != "error-record" || it.Severity != evidence.SeverityError {
			t.Errorf("anomaly %+v", it)
		}
		got = append(got, it.Attrs["record"]+"@"+it.Span.Handle())
	}
	want := []string{"3@run:test#stdout:L3", "4@run:test#stdout:L4", "7@run:test#stdout:L7"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("error records = %v, want %v", got, want)
	}
	// Shapes: "error" is string in two records and object in one, number level in two.
	if n := summary(t, g).Counts["error_records"]; n != 3 {
		t.Errorf("error_records = %d", n)
	}
}

// Go's own structured logger, with times removed so the test is stable.
func TestSlogJSON(t *testing.T) {
	var buf bytes.Buffer
	h := slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})
	log := slog.New(h)
	for i := range 200 {
		log.Info("request", "id", i, "status", 200)
		if i == 120 {
			log.Error("request failed", "id", i, "err", errors.New("connection reset"))
		}
	}
	g := parseOut(t, []string{"server"}, 0, buf.Bytes(), nil)
	an := itemsOf(g, evidence.KindAnomaly)
	if len(an) != 1 || an[0].Line != 122 || !strings.Contains(an[0].Text, "connection reset") {
		t.Fatalf("anomalies = %+v, want the error at line 122", an)
	}
	recs := itemsOf(g, evidence.KindRecord)
	if len(recs) != 1 || recs[0].Line != 122 {
		t.Errorf("minority records = %+v, want the error record", recs)
	}
}

func TestDocumentOutline(t *testing.T) {
	for _, name := range []string{"jq-plain.txt", "jq-color.txt", "kube.json"} {
		t.Run(name, func(t *testing.T) {
			g := parseOut(t, []string{"jq", "."}, 0, readTestdata(t, name), nil)
			if g.Tool != "jq" {
				t.Errorf("tool %q", g.Tool)
			}
			byName := map[string]evidence.Item{}
			for _, it := range itemsOf(g, evidence.KindShape) {
				byName[it.Name] = it
			}
			for path, want := range map[string]string{
				"/":                         "object 4 ",
				"/items":                    "array 5 /items",
				"/items/*":                  "object 2..3 /items/0",
				"/items/*/error":            "string  /items/2/error",
				"/items/*/metadata":         "object 2 /items/0/metadata",
				"/items/*/status":           "object 3 /items/0/status",
				"/metadata/a~0b":            "object 1 /metadata/a~0b",
				"/metadata/a~0b/c~1d":       "array 5 /metadata/a~0b/c~1d",
				"/metadata/resourceVersion": "string  /metadata/resourceVersion",
			} {
				it, ok := byName[path]
				if !ok {
					t.Errorf("no outline node %s", path)
					continue
				}
				got := it.Attrs["type"] + " " + it.Attrs["length"] + " " + it.Attrs["pointer"]
				if got != want {
					t.Errorf("%s = %q, want %q", path, got, want)
				}
			}
			if n := byName["/items/*/error"].Count; n != 1 {
				t.Errorf("/items/*/error count %d", n)
			}
			s := summary(t, g)
			if s.Name != "document" || s.Counts["keys"] != 4 {
				t.Errorf("summary %+v", s)
			}
			if name != "kube.json" {
				// The pretty form: /items spans its lines, the error sits on one.
				items := byName["/items"]
				if items.Span.From != 4 || items.Span.To <= 50 {
					t.Errorf("/items span %s", items.Span.Handle())
				}
				e := byName["/items/*/error"]
				if e.Span.From != e.Span.To {
					t.Errorf("error span %s", e.Span.Handle())
				}
			}
		})
	}
}

func TestRootArrayElements(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	for i := range 50 {
		if i > 0 {
			b.WriteString(",\n")
		}
		if i == 33 {
			b.WriteString(`  {"name":"x33","size":null,"extra":[1,2]}`)
			continue
		}
		fmt.Fprintf(&b, `  {"name":"x%d","size":%d}`, i, i)
	}
	b.WriteString("\n]\n")
	g := parseOut(t, nil, 0, []byte(b.String()), nil)
	recs := itemsOf(g, evidence.KindRecord)
	if len(recs) != 1 || recs[0].Attrs["pointer"] != "/33" || recs[0].Span.Handle() != "run:test#stdout:L35" {
		t.Fatalf("records = %+v, want element /33 at line 35", recs)
	}
	s := summary(t, g)
	if s.Counts["elements"] != 50 || s.Counts["minority_records"] != 1 {
		t.Errorf("summary %v", s.Counts)
	}
	// The pointer in the item resolves to the same bytes as the span's line.
	var out bytes.Buffer
	if err := Pointer(strings.NewReader(b.String()), "/33", &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != `{"name":"x33","size":null,"extra":[1,2]}` {
		t.Errorf("pointer /33 = %q", out.String())
	}
}

func TestStreamOfPrettyValues(t *testing.T) {
	for _, name := range []string{"jq-items-color.txt", "jq-items.jsonl"} {
		t.Run(name, func(t *testing.T) {
			in := readTestdata(t, name)
			g := parseOut(t, []string{"jq", ".items[]"}, 0, in, nil)
			s := summary(t, g)
			if s.Counts["records"] != 5 || s.Counts["shapes"] != 2 {
				t.Errorf("summary %v", s.Counts)
			}
			recs := itemsOf(g, evidence.KindRecord)
			an := itemsOf(g, evidence.KindAnomaly)
			if len(recs) != 1 || recs[0].Attrs["record"] != "3" || len(an) != 1 || an[0].Attrs["record"] != "3" {
				t.Fatalf("records %+v anomalies %+v, want record 3 twice", recs, an)
			}
			// Records returns exactly the lines the span names, colour removed.
			var out bytes.Buffer
			if err := Records(bytes.NewReader(in), 3, 3, &out); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(in), "\n")
			sp := recs[0].Span
			want := string(stripEscapes([]byte(strings.Join(lines[sp.From-1:sp.To], "\n")))) + "\n"
			if out.String() != want {
				t.Errorf("Records(3) = %q\nspan %s = %q", out.String(), sp.Handle(), want)
			}
		})
	}
}

func TestInvalidLines(t *testing.T) {
	var lines []string
	for i := 1; i <= 20; i++ {
		switch i {
		case 5:
			lines = append(lines, "Starting worker pool")
		case 9:
			lines = append(lines, `{"i":9,"broken":`)
		default:
			lines = append(lines, fmt.Sprintf(`{"i":%d}`, i))
		}
	}
	in := []byte(strings.Join(lines, "\n") + "\n")
	g := parseOut(t, nil, 0, in, nil)
	s := summary(t, g)
	if s.Counts["records"] != 18 || s.Counts["invalid_lines"] != 2 {
		t.Errorf("summary %v", s.Counts)
	}
	if len(g.Losses) != 1 || g.Losses[0].Code != "partial-parse" || !strings.Contains(g.Losses[0].Detail, "line 5, 9") {
		t.Errorf("losses %+v", g.Losses)
	}
	// Records skips the invalid lines: record 5 is the line after the banner.
	var out bytes.Buffer
	if err := Records(bytes.NewReader(in), 5, 5, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != `{"i":6}`+"\n" {
		t.Errorf("record 5 = %q", out.String())
	}
}

func TestNotJSONFails(t *testing.T) {
	for name, in := range map[string]string{
		"broken document":  "{\n  \"a\": 1,\n  \"b\": [1, 2,\n}\n",
		"truncated doc":    "{\n  \"a\": 1,\n  \"b\": [1, 2,\n",
		"one broken line":  `{"a": [1, 2,}` + "\n",
		"mostly text":      "hello\nworld\n{\"a\":1}\nmore text\n",
		"text":             "PASS\nok  \tpkg\t0.1s\n",
		"trailing garbage": "{\n\"a\":1\n}x\n",
	} {
		if _, err := parseTwice(nil, 0, []byte(in), nil); err == nil {
			t.Errorf("%s: parse succeeded on %q", name, in)
		}
	}
}

// Output killed mid-run: the last JSON line is cut. The records before it
// are kept, the cut line is a labelled loss, and no verdict is claimed.
func TestTruncatedJSONL(t *testing.T) {
	in := genJSONL(100, nil)
	in = in[:len(in)-30]
	g := parseOut(t, []string{"cat", "x.jsonl"}, 137, in, nil)
	s := summary(t, g)
	if s.Counts["records"] != 99 || s.Counts["invalid_lines"] != 1 {
		t.Errorf("summary %v", s.Counts)
	}
	if g.Verdict != "" || len(g.Losses) == 0 || g.Losses[0].Code != "partial-parse" {
		t.Errorf("verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestCRLFAndColourAgree(t *testing.T) {
	plain := readTestdata(t, "jq-plain.txt")
	crlf := bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n"))
	color := readTestdata(t, "jq-color.txt")
	render := func(in []byte) string {
		g := parseOut(t, nil, 0, in, nil)
		js, _ := json.Marshal(g)
		return string(js)
	}
	p, c, l := render(plain), render(color), render(crlf)
	if p != c || p != l {
		t.Errorf("plain, colour and CRLF forms differ:\n%s\n%s\n%s", p, c, l)
	}
	jsonl := genJSONL(50, map[int]string{9: `{"x":1}`})
	a := render(jsonl)
	b := render(bytes.ReplaceAll(jsonl, []byte("\n"), []byte("\r\n")))
	if a != b {
		t.Errorf("JSONL with CRLF differs:\n%s\n%s", a, b)
	}
}

func TestStderrNamed(t *testing.T) {
	g := parseOut(t, []string{"jq", ".x"}, 5, []byte(`{"a":1}`+"\n"), []byte("jq: error (at <stdin>:3): Cannot index number with \"x\"\n"))
	reg := itemsOf(g, evidence.KindRegion)
	an := itemsOf(g, evidence.KindAnomaly)
	if len(reg) != 1 || reg[0].Span.Handle() != "run:test#stderr:L1" {
		t.Errorf("regions %+v", reg)
	}
	if len(an) != 1 || !strings.HasPrefix(an[0].Text, "jq: error") {
		t.Errorf("anomalies %+v", an)
	}
	// JSON on stderr alone is parsed there.
	g = parseOut(t, []string{"server"}, 0, nil, genJSONL(10, map[int]string{4: `{"level":"error","msg":"x"}`}))
	if s := summary(t, g); s.Counts["records"] != 10 || s.Span.Stream != "stderr" {
		t.Errorf("stderr summary %+v", s)
	}
	// Nothing at all is zero records, not a parse failure.
	g = parseOut(t, []string{"jq", ".[]"}, 0, nil, nil)
	if s := summary(t, g); s.Counts["records"] != 0 {
		t.Errorf("empty summary %+v", s)
	}
}

func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"jq", "."}, true},
		{[]string{"jq", "-c", ".items[]", "x.json"}, true},
		{[]string{"jq", "-r", ".name"}, false},
		{[]string{"jq", "-rc", ".name"}, false},
		{[]string{"jq", "--raw-output", ".name"}, false},
		{[]string{"gojq", "."}, true},
		{[]string{"cat", "a.json"}, true},
		{[]string{"cat", "a.jsonl", "b.ndjson"}, true},
		{[]string{"head", "-n", "5", "log.jsonl"}, false}, // "5" is not a JSON file
		{[]string{"tail", "-n5", "log.jsonl"}, true},
		{[]string{"cat", "a.json", "b.txt"}, false},
		{[]string{"cat"}, false},
		{[]string{"grep", "x", "a.json"}, false},
		{nil, false},
	} {
		if got := Profile.Argv(tc.argv); got != tc.want {
			t.Errorf("Argv(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}

func TestContent(t *testing.T) {
	big := genJSONL(5000, nil) // longer than the head
	doc := append([]byte(`{"items":[`), bytes.Repeat([]byte(`{"a":1,"b":"xxxxxxxxxxxxxxxxxxxx"},`), 5000)...)
	doc = append(doc, `{"a":2}]}`...)
	for _, tc := range []struct {
		name string
		out  string
		want bool
	}{
		{"object", `{"a":1}`, true},
		{"pretty", string(readTestdata(t, "jq-color.txt")), true},
		{"jsonl longer than head", string(big), true},
		{"document longer than head", string(doc), true},
		{"text", "hello\n", false},
		{"bracket text", "[INFO] starting\n[INFO] done\n", false},
		{"empty", "", false},
		{"number", "42\n", false},
		{"mostly text", "{\"a\":1}\nnot json\nnot json\nnot json\n", false},
	} {
		src := evidence.BytesSource(nil, 0, []byte(tc.out), nil)
		if got := Profile.Content(src); got != tc.want {
			t.Errorf("Content(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// corpusDir finds shared/corpus beside the repository root, or skips.
func corpusDir(t testing.TB, sub string) string {
	t.Helper()
	return testenv.Corpus(t, sub)
}

// Real `go test -json` streams: every line is a record, read in place.
func TestCorpusGoTestJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir(t, "gotest"), "*.gojson.txt"))
	if len(files) == 0 {
		testenv.Missing(t, "*.gojson.txt files in the shared corpus gotest/")
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		valid, invalid := 0, 0
		for _, l := range strings.Split(string(in), "\n") {
			switch {
			case strings.TrimSpace(l) == "":
			case json.Valid([]byte(l)):
				valid++
			default:
				invalid++
			}
		}
		if !Profile.Content(evidence.BytesSource(nil, 0, in, nil)) {
			t.Errorf("%s: not detected as JSON", filepath.Base(f))
		}
		g := parseOut(t, nil, 0, in, nil)
		s := summary(t, g)
		if s.Counts["records"] != valid || s.Counts["invalid_lines"] != invalid {
			t.Errorf("%s: records %d invalid %d, want %d and %d", filepath.Base(f), s.Counts["records"], s.Counts["invalid_lines"], valid, invalid)
		}
	}
}

// Text outputs of other families are never taken for JSON.
func TestCorpusTextIsNotJSON(t *testing.T) {
	var files []string
	for _, pat := range []string{"gotest/*[0-9]-*[a-z].txt", "diagnostics/*.in", "loghub2k/*/*_2k.log"} {
		m, _ := filepath.Glob(filepath.Join(corpusDir(t, ""), pat))
		files = append(files, m...)
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".gojson.txt") {
			continue
		}
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if Profile.Content(evidence.BytesSource(nil, 0, in, nil)) {
			t.Errorf("%s: detected as JSON", f)
		}
	}
}

package logs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// This file guards the speed work on the logs profile: the hand-written
// matchers answer as the patterns they replace, and the profile's whole
// output over real logs stays byte for byte what it was.

var updateOutput = flag.Bool("update", false, "rewrite testdata/output.golden from the profile's output")

// levelRE is the pattern level answers as: a level word near a line's
// start, the framework's level field.
var levelRE = lines.Lazy(`(^|[\s\[<(|:])(?:(ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|PANIC|EMERG|ALERT|error|fatal|critical|panic)|(WARN|WARNING|warn|warning))([\s\]>):|,]|$)`)

// levelByPattern is level by levelRE.
func levelByPattern(line []byte) string {
	if len(line) > 100 {
		line = line[:100]
	}
	m := levelRE.FindSubmatchIndex(line)
	switch {
	case m == nil:
		return ""
	case m[4] >= 0:
		return "error"
	}
	return "warning"
}

// goldenInputs are the real logs whose output the golden holds, each a
// stream of its own: the corpus's loghub systems and the held-out and
// problem logs of bench/testdata (fixed files, unlike the machine's logs).
var goldenInputs = []string{
	"../../../shared/corpus/loghub2k*/*/*_2k.log",
	"../../bench/testdata/heldout*/*/*.log.gz",
	"../../bench/testdata/problems/*.log.gz",
}

// realLogs returns the files of patterns by path, read (and gunzipped),
// skipping the test when none matches.
func realLogs(tb testing.TB, patterns ...string) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, pat := range patterns {
		for _, glob := range strings.Fields(pat) {
			for _, g := range expandBraces(glob) {
				paths, _ := filepath.Glob(g)
				for _, p := range paths {
					if f, err := os.Open(p); err == nil {
						f.Close()
						out[p] = profiletest.ReadCapture(tb, p)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		tb.Skipf("no log matches %v", patterns)
	}
	return out
}

// eachRealLine calls check on every line of the real logs (and the
// machine's), cleaned as the profile cleans them, and on its upper- and
// lower-cased forms.
func eachRealLine(t *testing.T, check func([]byte)) {
	t.Helper()
	for _, data := range realLogs(t, append(goldenInputs, parseInputs[3].pattern)...) {
		for _, l := range bytes.Split(data, []byte("\n")) {
			c := lines.Clean(l)
			check(c)
			check(bytes.ToUpper(c))
			check(bytes.ToLower(c))
		}
	}
}

// TestLevelMatchesPattern holds level to levelRE on every line of the real
// logs (and the machine's), each also upper- and lower-cased, cleaned as
// the profile cleans them, and on lines built around the level words.
func TestLevelMatchesPattern(t *testing.T) {
	n := 0
	check := func(l []byte) {
		t.Helper()
		n++
		if got, want := level(l), levelByPattern(l); got != want {
			t.Fatalf("level(%q) = %q, the pattern says %q", l, got, want)
		}
	}
	eachRealLine(t, check)
	words := append(append([]string{}, errorLevels[:]...), warningLevels[:]...)
	words = append(words, "ERRORS", "Error", "WARNINGS", "CRITI", "EMER", "warnings", "fatalx", "")
	seps := []string{"", " ", "\t", "[", "]", "<", ">", "(", ")", "|", ":", ",", ".", "=", "\v", "é", "\xff"}
	for _, w := range words {
		for _, a := range seps {
			for _, b := range seps {
				for _, pre := range []string{"", "x", "2026-12-02 07:00:00 ", strings.Repeat("a", 100-len(a)-len(w)), strings.Repeat("b ", 48)} {
					check([]byte(pre + a + w + b + "rest"))
					check([]byte(pre + a + w + b))
					check([]byte(pre + a + w + b + "WARN " + w))
				}
			}
		}
	}
	t.Logf("%d lines", n)
}

// FuzzLevel holds level to levelRE on any bytes.
func FuzzLevel(f *testing.F) {
	for _, s := range []string{"", "ERROR", "[WARN] x", "a:fatal,", "ERRORS ERR|", "<warning>", "x (critical) y", "\terror\r"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := level(b), levelByPattern(b); got != want {
			t.Fatalf("level(%q) = %q, the pattern says %q", b, got, want)
		}
	})
}

// failureByMaps is failure as it was before the word filter: every word
// lower-cased and looked up in the maps.
func failureByMaps(line []byte) bool {
	var buf [2][24]byte
	prev := ""
	words := 0
	for i := 0; i < len(line) && words < maxFailureWords; {
		for i < len(line) && !isWordByte(line[i]) {
			i++
		}
		j := i
		for j < len(line) && isWordByte(line[j]) {
			j++
		}
		if i == j {
			break
		}
		words++
		w := line[i:j]
		if camelFailure(w) || (j < len(line) && line[j] == '!' && string(w) == "ERR") {
			return true
		}
		cur := ""
		if len(w) <= len(buf[0]) {
			cur = string(lowerASCII(buf[words%2][:0], w))
			if failureWords[cur] && !calmWords[prev] && !zeroAfter(line[j:]) || failurePairs[[2]string{prev, cur}] {
				return true
			}
		}
		prev = cur
		i = j
	}
	return false
}

// TestFailureMatchesMaps holds failure to failureByMaps on every line of
// the real logs, each also upper- and lower-cased, and on lines made of
// the failure words, pairs and calm words in every order.
func TestFailureMatchesMaps(t *testing.T) {
	check := func(l []byte) {
		t.Helper()
		if got, want := failure(l), failureByMaps(l); got != want {
			t.Fatalf("failure(%q) = %v, the maps say %v", l, got, want)
		}
	}
	eachRealLine(t, check)
	var words []string
	for w := range failureWords {
		words = append(words, w, strings.ToUpper(w), w+"s", w[1:])
	}
	for p := range failurePairs {
		words = append(words, p[0], p[1], strings.ToUpper(p[1]))
	}
	for w := range calmWords {
		words = append(words, w)
	}
	words = append(words, "IOException", "Errors", "ERR!", "errors=0", "x", "", strings.Repeat("e", 25)+"rror")
	sort.Strings(words)
	for _, a := range words {
		for _, b := range words {
			check([]byte(a + " " + b))
			check([]byte(a + ", " + b + ": 0"))
		}
	}
}

// FuzzFailure holds failure to failureByMaps on any bytes.
func FuzzFailure(f *testing.F) {
	for _, s := range []string{"", "core dumped", "no errors", "errors=0", "Connection refused", "x IOException", "npm ERR!", "could NOT"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := failure(b), failureByMaps(b); got != want {
			t.Fatalf("failure(%q) = %v, the maps say %v", b, got, want)
		}
	})
}

// TestOutputGolden checks that the profile's graph and the miner's groups
// of every golden input are what testdata/output.golden recorded: the
// sha256 of the sealed graph's JSON and of every line's group and
// template with the final templates. A change for speed must leave them
// as they are; a change of the rules changes them on purpose, and then
// `go test ./profiles/logs/ -run TestOutputGolden -update` rewrites the
// golden (its diff shows which inputs changed).
func TestOutputGolden(t *testing.T) {
	logs := realLogs(t, goldenInputs...)
	names := make([]string, 0, len(logs))
	for p := range logs {
		names = append(names, p)
	}
	sort.Strings(names)
	var got bytes.Buffer
	for _, p := range names {
		name := strings.TrimPrefix(strings.TrimPrefix(p, "../../../shared/corpus/"), "../../bench/testdata/")
		fmt.Fprintf(&got, "%s graph=%s groups=%s\n", name, graphHash(t, logs[p]), groupsHash(logs[p]))
	}
	path := filepath.Join("testdata", "output.golden")
	if *updateOutput {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("output differs from %s (-update rewrites it, if the change is meant):\n%s", path, lineDiff(string(want), got.String()))
	}
}

// graphHash is the sha256 of the sealed graph Parse makes of data.
func graphHash(t *testing.T, data []byte) string {
	t.Helper()
	g, err := Parse(context.Background(), evidence.BytesSource([]string{"cat", "app.log"}, 0, data, nil))
	if err != nil {
		t.Fatal(err)
	}
	g.Seal("run:golden")
	js, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(js))[:16]
}

// groupsHash is the sha256 of each line's resolved group id and template,
// and of the final templates, of a miner fed the lines of data.
func groupsHash(data []byte) string {
	m := NewMiner(Options{})
	var ids []int
	lines.Scan(context.Background(), bytes.NewReader(data), func(_ int, l []byte, _ bool) error {
		ids = append(ids, m.Add(l))
		return nil
	})
	h := sha256.New()
	for _, id := range ids {
		tm, _ := m.Template(id)
		fmt.Fprintf(h, "%d\t%s\n", m.Resolve(id), tm.Text)
	}
	for _, tm := range m.Templates() {
		fmt.Fprintf(h, "%d %d %d %s\n", tm.ID, tm.Count, tm.FirstLine, tm.Text)
	}
	fmt.Fprintf(h, "lines %d overflow %d\n", m.Lines(), m.Overflow())
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// lineDiff lists the lines of got that want lacks, and the reverse.
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

// controlIndexByBytes is controlIndex a byte at a time.
func controlIndexByBytes(line []byte) int {
	for i, c := range line {
		if c < 0x20 || c == 0x7f {
			return i
		}
	}
	return -1
}

// TestControlIndex holds controlIndex to a byte-at-a-time scan on lines
// with one control byte (or DEL, or a byte next to the limits) at every
// position of every length up to 40, over printable and high bytes.
func TestControlIndex(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for _, fill := range []byte{'a', 0x20, 0x7e, 0x80, 0xff, 0x21} {
			for p := -1; p < n; p++ {
				for _, c := range []byte{0, 0x1f, 0x7f, 0x1b, '\t', 0x20, 0x80, 0x7e} {
					l := bytes.Repeat([]byte{fill}, n)
					if p >= 0 {
						l[p] = c
					}
					if got, want := controlIndex(l), controlIndexByBytes(l); got != want {
						t.Fatalf("controlIndex(%q) = %d, want %d", l, got, want)
					}
				}
			}
		}
	}
}

// FuzzControlIndex holds controlIndex to a byte-at-a-time scan on any
// bytes.
func FuzzControlIndex(f *testing.F) {
	f.Add([]byte("2026-12-02 07:00:00 INFO ok\r"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := controlIndex(b), controlIndexByBytes(b); got != want {
			t.Fatalf("controlIndex(%q) = %d, want %d", b, got, want)
		}
	})
}

// lineFactsAgree templates raw as the miner does and reports whether
// lineFacts answered for it; when it does, its level and why must be
// level's and levelWhy's of the cleaned line.
func lineFactsAgree(tb testing.TB, tk *tokenizer, raw []byte) bool {
	tb.Helper()
	n := tk.templates
	tk.template(raw)
	lvl, why, ok := tk.lineFacts(raw, 0, n)
	if !ok {
		return false
	}
	c := lines.Clean(raw)
	if wl, ww := level(c), levelWhy(level(c), c); lvl != wl || why != ww {
		tb.Fatalf("lineFacts(%q) = %q, %q; level and levelWhy say %q, %q", raw, lvl, why, wl, ww)
	}
	return true
}

// TestLineFactsMatch holds lineFacts, the level and failure checks read
// from the tokenizer's words, to level and levelWhy on every raw line of
// the real logs (each also upper- and lower-cased) and on lines built
// around the level and failure words, and checks that it answers for most
// real lines and declines those it must (control bytes, cut lines, the
// sample's provisional ids).
func TestLineFactsMatch(t *testing.T) {
	var tk tokenizer
	n, answered := 0, 0
	check := func(l []byte) {
		n++
		if lineFactsAgree(t, &tk, l) {
			answered++
		}
	}
	for _, data := range realLogs(t, append(goldenInputs, parseInputs[3].pattern)...) {
		for _, l := range bytes.Split(data, []byte("\n")) {
			lineFactsAgree(t, &tk, l)             // with a CR of a CRLF line, which it declines
			l = bytes.TrimSuffix(l, []byte("\r")) // as lines.Scan gives it
			check(l)
			check(bytes.ToUpper(l))
			check(bytes.ToLower(l))
		}
	}
	if answered*100 < n*99 {
		t.Fatalf("lineFacts answered for %d of %d real lines, want most", answered, n)
	}
	words := append(append([]string{}, errorLevels[:]...), warningLevels[:]...)
	for w := range failureWords {
		words = append(words, w, strings.ToUpper(w))
	}
	for p := range failurePairs {
		words = append(words, p[0]+" "+p[1], p[0]+", "+p[1])
	}
	words = append(words, "ERRORS", "Error", "IOException", "ERR!", "errors=0", "no errors", "core|dumped", "")
	seps := []string{"", " ", "[", "]", "<", ">", "(", ")", "|", ":", ",", ".", "=", "'", "é", "\xff"}
	for _, w := range words {
		for _, a := range seps {
			for _, b := range seps {
				for _, pre := range []string{"", "x", "2026-12-02 07:00:00 ", strings.Repeat("a", 100-len(a)-len(w)), strings.Repeat("b ", 48), strings.Repeat("c ", 70)} {
					check([]byte(pre + a + w + b + "rest"))
					check([]byte(pre + a + w + b))
				}
			}
		}
	}
	for _, l := range []string{"ERROR \x1b[31mx", "x\rERROR", strings.Repeat("a ", maxTokens+1) + "ERROR", strings.Repeat("b", maxLineBytes) + " ERROR"} {
		if lineFactsAgree(t, &tk, []byte(l)) {
			t.Errorf("lineFacts answered for %q, which the tokenizer cleaned or cut", l)
		}
	}
	if _, _, ok := tk.lineFacts([]byte("ERROR x"), provisional(0), tk.templates-1); ok {
		t.Error("lineFacts answered for a provisional id, whose line the tokenizer has not seen")
	}
	if _, _, ok := tk.lineFacts([]byte("ERROR x"), 0, tk.templates); ok {
		t.Error("lineFacts answered for a line the tokenizer has not templated")
	}
	t.Logf("%d lines, %d answered", n, answered)
}

// FuzzLineFacts holds lineFacts to level and levelWhy on any bytes.
func FuzzLineFacts(f *testing.F) {
	for _, s := range []string{"", "ERROR x", "[WARN] failed to x", "a:fatal, b", "core dumped", "no errors", "x IOException", "npm ERR!", "\x1b[1mERROR\x1b[0m", "k=v|w ERROR"} {
		f.Add([]byte(s))
	}
	var tk tokenizer
	f.Fuzz(func(t *testing.T, b []byte) { lineFactsAgree(t, &tk, b) })
}

// FuzzTemplateControl holds template's reading of a line as it is, which
// stops at a control byte and cleans the line first, to the template of
// the line cleaned beforehand: the same key and the same words, on any
// bytes (up to maxLineBytes, past which the cleaned copy is the cut).
func FuzzTemplateControl(f *testing.F) {
	for _, s := range []string{"", "a\tb c", "x \x1b[31mERROR\x1b[0m y", "k=v,\x01a=1", "id=1|\x7fb", "a,b\x1b[0m=1 c",
		strings.Repeat("w ", maxTokens) + "x,y\x1b[0m=1", strings.Repeat("v ", maxTokens-1) + "p,q\x1b[1m=2 z\t"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > maxLineBytes {
			return
		}
		var raw, pre tokenizer
		pre.clean(b)
		c := append([]byte(nil), pre.buf...)
		if controlIndex(c) >= 0 {
			t.Fatalf("clean(%q) = %q, which holds a control byte", b, c)
		}
		k1 := string(raw.template(b))
		k2 := string(pre.template(c))
		if k1 != k2 {
			t.Fatalf("template(%q) = %q, but of the line cleaned first %q", b, k1, k2)
		}
		if raw.words != pre.words || raw.nwords != pre.nwords {
			t.Fatalf("template(%q) recorded the words %v, the line cleaned first %v", b, raw.words[:raw.nwords], pre.words[:pre.nwords])
		}
	})
}

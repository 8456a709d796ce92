package logs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func addAll(m *Miner, lines []string) []int {
	ids := make([]int, len(lines))
	for i, l := range lines {
		ids[i] = m.Add([]byte(l))
	}
	// The first lines get provisional ids while the miner learns the
	// log's header; real gives the id each line's group got.
	for i := range ids {
		ids[i] = m.real(ids[i])
	}
	return ids
}

func TestMinerGroups(t *testing.T) {
	m := NewMiner(Options{})
	ids := addAll(m, []string{
		"connected to 10.0.0.1 in 5ms",
		"disk full",
		"connected to 10.0.0.2 in 7ms",
		"disk full\r",
		"\x1b[31mconnected\x1b[0m to 10.0.0.3 in 1ms",
	})
	if want := []int{0, 1, 0, 1, 0}; !slices.Equal(ids, want) {
		t.Fatalf("ids = %v, want %v", ids, want)
	}
	want := []Template{
		{ID: 0, Text: "connected to <*> in <*>", Count: 3, FirstLine: 1},
		{ID: 1, Text: "disk full", Count: 2, FirstLine: 2},
	}
	if got := m.Templates(); !reflect.DeepEqual(got, want) {
		t.Errorf("Templates() = %+v, want %+v", got, want)
	}
	if m.Lines() != 5 || m.Overflow() != 0 {
		t.Errorf("Lines, Overflow = %d, %d; want 5, 0", m.Lines(), m.Overflow())
	}
	if _, ok := m.Template(2); ok {
		t.Error("Template(2) of a miner with two groups reported ok")
	}
}

func TestMinerCap(t *testing.T) {
	m := NewMiner(Options{MaxTemplates: 2})
	ids := addAll(m, []string{"alpha one", "beta two", "gamma three", "alpha one", "delta four", "beta two"})
	if want := []int{0, 1, OverflowID, 0, OverflowID, 1}; !slices.Equal(ids, want) {
		t.Fatalf("ids = %v, want %v", ids, want)
	}
	if m.Overflow() != 2 {
		t.Errorf("Overflow() = %d, want 2", m.Overflow())
	}
	if n := len(m.Templates()); n != 2 {
		t.Errorf("%d templates past a cap of 2", n)
	}
	if m.Resolve(OverflowID) != OverflowID {
		t.Error("Resolve(OverflowID) changed it")
	}
	if _, ok := m.Template(OverflowID); ok {
		t.Error("Template(OverflowID) reported ok")
	}
}

// TestMinerCapMemory checks that a stream of all-different lines leaves the
// miner's structures bounded by the cap.
func TestMinerCapMemory(t *testing.T) {
	const max = 100
	m := NewMiner(Options{MaxTemplates: max})
	for i := 0; i < 20000; i++ {
		// Every line is a new template: its words vary.
		m.Add([]byte(fmt.Sprintf("w%c%c event %c%c happened here now", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26, 'a'+i/17576%26)))
	}
	if len(m.groups) > max {
		t.Errorf("%d groups past a cap of %d", len(m.groups), max)
	}
	if len(m.index) > indexFactor*max {
		t.Errorf("%d index keys past a bound of %d", len(m.index), indexFactor*max)
	}
	if len(m.fams) > (maxMergeElems+1)*max {
		t.Errorf("%d families past a bound of %d", len(m.fams), (maxMergeElems+1)*max)
	}
	if m.Overflow() == 0 {
		t.Error("no overflow counted")
	}
	total := m.Overflow()
	for _, tm := range m.Templates() {
		total += tm.Count
	}
	if total != m.Lines() {
		t.Errorf("templates and overflow hold %d lines, want %d", total, m.Lines())
	}
}

func TestMinerMerge(t *testing.T) {
	users := []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"}
	m := NewMiner(Options{Off: RuleCluster})
	var ids []int
	for i, u := range users {
		ids = append(ids, m.Add([]byte(fmt.Sprintf("Invalid user %s from 10.0.0.%d port 22", u, i))))
	}
	// A few distinct values stay apart: they may be an enumeration.
	for _, s := range []string{"RUNNING", "STOPPED", "PAUSED"} {
		m.Add([]byte("VM " + s + " (Lifecycle Event) for instance 42"))
	}
	for i := range ids {
		ids[i] = m.real(ids[i])
	}
	for i, id := range ids {
		if r := m.Resolve(id); r != 0 {
			t.Errorf("line %d: Resolve(%d) = %d, want 0", i, id, r)
		}
	}
	// Groups made before the merge keep their ids; later lines go straight
	// to the merged group.
	if ids[DefaultMergeValues-1] != DefaultMergeValues-1 || ids[DefaultMergeValues] != 0 {
		t.Errorf("ids = %v", ids)
	}
	got := m.Templates()
	want := []Template{
		{ID: 0, Text: "Invalid user <*> from <*> port <*>", Count: len(users), FirstLine: 1},
		{ID: DefaultMergeValues, Text: "VM RUNNING (Lifecycle Event) for instance <*>", Count: 1, FirstLine: len(users) + 1},
		{ID: DefaultMergeValues + 1, Text: "VM STOPPED (Lifecycle Event) for instance <*>", Count: 1, FirstLine: len(users) + 2},
		{ID: DefaultMergeValues + 2, Text: "VM PAUSED (Lifecycle Event) for instance <*>", Count: 1, FirstLine: len(users) + 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Templates() =\n%+v\nwant\n%+v", got, want)
	}
	if tm, _ := m.Template(3); tm.ID != 0 {
		t.Errorf("Template(3) = %+v, want the merged group", tm)
	}
}

// TestMinerMergeShortLines checks that short lines, with too little context
// to tell a variable from a different message, never merge.
func TestMinerMergeShortLines(t *testing.T) {
	m := NewMiner(Options{})
	for _, w := range []string{"start", "stop", "flush", "reload", "sync", "open", "close", "reset", "clear", "init"} {
		m.Add([]byte(w + " done"))
	}
	if n := len(m.Templates()); n != 10 {
		t.Errorf("%d templates, want 10", n)
	}
}

func TestMinerDeterministic(t *testing.T) {
	lines := sampleLines(t)
	run := func() ([]int, []Template) {
		m := NewMiner(Options{})
		ids := make([]int, len(lines))
		for i, l := range lines {
			ids[i] = m.Resolve(m.Add(l))
		}
		return ids, m.Templates()
	}
	ids1, t1 := run()
	ids2, t2 := run()
	if !slices.Equal(ids1, ids2) || !reflect.DeepEqual(t1, t2) {
		t.Fatal("two runs over the same lines differ")
	}
}

// TestMinerOrderIndependent checks that the grouping of lines and the set of
// templates do not depend on line order (ids, naturally, do).
func TestMinerOrderIndependent(t *testing.T) {
	t.Run("sample", func(t *testing.T) { testOrderIndependent(t, sampleLines(t)) })
	t.Run("merging", func(t *testing.T) { testOrderIndependent(t, syntheticLines()) })
}

func testOrderIndependent(t *testing.T, lines [][]byte) {
	partition := func(order []int) (map[string]string, []string) {
		m := NewMiner(Options{Off: RuleCluster})
		ids := make([]int, len(lines))
		for _, i := range order {
			ids[i] = m.Add(lines[i])
		}
		// Name each line's group by the first line (in input order) in it.
		first := map[int]int{}
		group := map[string]string{}
		for i := range lines {
			g := m.Resolve(ids[i])
			if _, ok := first[g]; !ok {
				first[g] = i
			}
			group[fmt.Sprint(i)] = fmt.Sprint(first[g])
		}
		var texts []string
		for _, tm := range m.Templates() {
			texts = append(texts, tm.Text)
		}
		slices.Sort(texts)
		return group, texts
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	g1, t1 := partition(order)
	// The log's header is learnt from its first lines, in order: they stay
	// where they are and the rest is shuffled.
	rest := order[min(frameSampleLines, len(order)):]
	rand.New(rand.NewSource(1)).Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	g2, t2 := partition(order)
	if !reflect.DeepEqual(g1, g2) {
		t.Error("grouping depends on line order")
	}
	if !slices.Equal(t1, t2) {
		t.Errorf("templates depend on line order:\n%q\n%q", t1, t2)
	}
}

// sampleLines returns the loghub raw lines when the corpus is present, and
// synthetic lines otherwise.
func sampleLines(t *testing.T) [][]byte {
	t.Helper()
	if _, err := loghubAvailable(); err == nil {
		return loghubRaw(t)
	}
	return syntheticLines()
}

// syntheticLines returns lines with word variables that the miner merges.
func syntheticLines() [][]byte {
	var lines [][]byte
	for i := 0; i < 3000; i++ {
		lines = append(lines, []byte(fmt.Sprintf("2024-01-02 03:04:%02d INFO [w%d] app.Svc: user u%c%c did op %c in %dms",
			i%60, i%7, 'a'+i%13, 'a'+i/13%11, 'a'+i%5, i)))
	}
	return lines
}

func TestWriteTemplates(t *testing.T) {
	in := "connected to 10.0.0.1\r\n\r\nconnected to 10.0.0.2\nInvalid user a from 1.1.1.1\n" +
		strings.Repeat("x", 10<<20) + " 1\n" + // a 10 MB line
		"disk \xff\xfe full"
	var out bytes.Buffer
	if err := WriteTemplates(context.Background(), strings.NewReader(in), &out, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "1\tconnected to <*>\n" +
		"2\t\n" +
		"3\tconnected to <*>\n" +
		"4\tInvalid user a from <*>\n" +
		"5\t" + strings.Repeat("x", maxLineBytes) + " <*>\n" +
		"6\tdisk \uFFFD full\n"
	if got := out.String(); got != want {
		t.Errorf("WriteTemplates:\n got %q\nwant %q", got[len(got)-100:], want[len(want)-100:])
	}
}

func TestWriteTemplatesFinalTemplates(t *testing.T) {
	// Early lines are printed with the template they have after the merge.
	var in strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&in, "Accepted password for user%c from 10.0.0.%d port 22 ssh2\n", 'a'+i, i)
	}
	in.WriteString("Overflow line one\nOverflow line two\n")
	var out bytes.Buffer
	if err := WriteTemplates(context.Background(), strings.NewReader(in.String()), &out, Options{MaxTemplates: DefaultMergeValues, Off: RuleCluster}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 14 {
		t.Fatalf("%d output lines, want 14", len(lines))
	}
	for i, l := range lines[:12] {
		if want := fmt.Sprintf("%d\tAccepted password for <*> from <*> port <*>", i+1); l != want {
			t.Errorf("line %d = %q, want %q", i+1, l, want)
		}
	}
	if lines[12] != "13\t"+OverflowText || lines[13] != "14\t"+OverflowText {
		t.Errorf("overflow lines = %q", lines[12:])
	}
}

func TestWriteTemplatesEmpty(t *testing.T) {
	for _, in := range []string{"", "\n", "a"} {
		var out bytes.Buffer
		if err := WriteTemplates(context.Background(), strings.NewReader(in), &out, Options{}); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"": "", "\n": "1\t\n", "a": "1\ta\n"}[in]
		if out.String() != want {
			t.Errorf("WriteTemplates(%q) = %q, want %q", in, out.String(), want)
		}
	}
}

func TestWriteTemplatesErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := WriteTemplates(ctx, strings.NewReader("a\nb\n"), io.Discard, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
	errRead := errors.New("disk on fire")
	err = WriteTemplates(context.Background(), io.MultiReader(strings.NewReader("a\n"), errReader{errRead}), io.Discard, Options{})
	if !errors.Is(err, errRead) {
		t.Errorf("failing reader: err = %v", err)
	}
	errWrite := errors.New("pipe closed")
	err = WriteTemplates(context.Background(), strings.NewReader("a\n"), errWriter{errWrite}, Options{})
	if !errors.Is(err, errWrite) {
		t.Errorf("failing writer: err = %v", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

// TestKeyedMerge checks that lines differing only in the word values of
// "key=value" fields share a template once three such templates are seen,
// with the keys kept, while two values stay apart.
func TestKeyedMerge(t *testing.T) {
	m := NewMiner(Options{})
	lines := []string{
		"acquire lock=1, flags=0x1, tag=AudioMix, name=audioserver, uid=1041, pid=3",
		"acquire lock=2, flags=0x1, tag=ViewLock, name=systemui, uid=1000, pid=4",
	}
	a, b := m.Add([]byte(lines[0])), m.Add([]byte(lines[1]))
	if a == b {
		t.Fatalf("two templates merged already")
	}
	c := m.Add([]byte("acquire lock=3, flags=0x1, tag=RILJ, name=phone, uid=1001, pid=5"))
	if m.Resolve(a) != m.Resolve(b) || m.Resolve(b) != m.Resolve(c) {
		t.Fatalf("three templates not merged: %v", m.Templates())
	}
	tm, _ := m.Template(c)
	if want := "acquire lock=<*>, flags=<*>, tag=<*>, name=<*>, uid=<*>, pid=<*>"; tm.Text != want {
		t.Errorf("merged template %q, want %q", tm.Text, want)
	}
	if d := m.Add([]byte("acquire lock=9, flags=0x1, tag=Other, name=android, uid=1, pid=2")); m.Resolve(d) != m.Resolve(a) {
		t.Errorf("a later line did not join the merged group")
	}
	// Another event with the same keys but another constant word stays apart.
	if e := m.Add([]byte("release lock=9, flags=0x1, tag=Other, name=android, uid=1, pid=2")); m.Resolve(e) == m.Resolve(a) {
		t.Errorf("release joined acquire")
	}
}

// TestMinerMillionDistinct feeds a million distinct lines (each a template
// of its own: ids without digits, key=value words, and words that vary;
// half with a first word of their own, so each starts a cluster) to
// a Miner with the default cap, and checks the heap it holds stays bounded
// (a tenth as many under the race detector).
func TestMinerMillionDistinct(t *testing.T) {
	if testing.Short() {
		t.Skip("a million lines")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 1_000_000
	if raceEnabled {
		n = 100_000
	}
	m := NewMiner(Options{})
	var b []byte
	for i := 0; i < n; i++ {
		b = b[:0]
		if i%2 == 0 {
			b = fmt.Appendf(b, "2024-05-01 12:00:00 INFO worker %s started job kind=%s for tenant %s",
				letters(i), letters(i/7), letters(i*31))
		} else {
			// A first word of its own: a cluster leaf of its own.
			b = fmt.Appendf(b, "%s worker started a job of kind %s for tenant %s on node %s in zone %s",
				letters(i), letters(i/7), letters(i*31), letters(i*17), letters(i*13))
		}
		m.Add(b)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d templates, %d overflow lines, heap grew %d KB", len(m.Templates()), m.Overflow(), grown>>10)
	if len(m.groups) > DefaultMaxTemplates {
		t.Errorf("%d groups past the cap", len(m.groups))
	}
	if grown > 64<<20 {
		t.Errorf("heap grew %d MB over a million distinct lines, want ≤ 64 MB", grown>>20)
	}
	runtime.KeepAlive(m)
}

// TestMergeBesideVariable checks that a word position made variable beside
// another variable takes the lines whose value there had a digit, which the
// tokenizer renders as one run of variables.
func TestMergeBesideVariable(t *testing.T) {
	m := NewMiner(Options{Off: RuleCluster})
	var ids []int
	for i, u := range []string{"admin", "user1", "oracle", "git", "alex", "guest", "pi", "deploy", "test", "mysql", "backup2", "zabbix"} {
		ids = append(ids, m.Add([]byte(fmt.Sprintf("Connection closed by invalid user %s 10.0.0.%d port %d [preauth]", u, i, 4000+i))))
	}
	want := m.Resolve(ids[0])
	for i, id := range ids {
		if r := m.Resolve(id); r != want {
			tm, _ := m.Template(r)
			w, _ := m.Template(want)
			t.Errorf("line %d in %q, want %q", i, tm.Text, w.Text)
		}
	}
}

// TestMinerLongKeyed checks that a record of more named fields than the
// other rules look at (over maxMergeElems elements) still merges the word
// values of its fields, including a value with a '|' ("cmd=config|get").
func TestMinerLongKeyed(t *testing.T) {
	cmds := []string{"set", "incr", "lpush", "config|get", "client|list"}
	var lines []string
	for i := 0; i < 50; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "Client closed connection id=%d", i)
		for f := 0; f < 30; f++ {
			fmt.Fprintf(&b, " f%c=%d", 'a'+f%26, i*f)
		}
		fmt.Fprintf(&b, " cmd=%s user=default", cmds[i%len(cmds)])
		lines = append(lines, b.String())
	}
	if _, n := groupsOf(lines, Options{}); n != 1 {
		t.Errorf("%d groups, want 1", n)
	}
	if _, n := groupsOf(lines, Options{Off: RuleLongKeyed}); n != len(cmds) {
		t.Errorf("with long-keyed off: %d groups, want %d", n, len(cmds))
	}
}

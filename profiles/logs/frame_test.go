package logs

import (
	"fmt"
	"strings"
	"testing"
)

// frameMessages are the events of the synthetic logs below: a line of
// event e is message(e, i) for its i-th occurrence.
var frameMessages = []func(i int) string{
	func(i int) string {
		return fmt.Sprintf("Received block blk_%d of size %d from /10.0.0.%d", 1000+i, 64*i, i%9)
	},
	func(i int) string { return fmt.Sprintf("Receiving block blk_%d src: /10.0.0.%d:50010", 2000+i, i%7) },
	func(i int) string { return fmt.Sprintf("Deleting block blk_%d file /data/%d", 3000+i, i) },
	func(i int) string { return fmt.Sprintf("session opened for user u%d by (uid=0)", i%5) },
	func(i int) string { return fmt.Sprintf("connection %d closed after %d ms", i, i*3) },
	func(i int) string { return "Verification succeeded" },
	func(i int) string { return "Verification failed" },
	func(i int) string { return fmt.Sprintf("Starting task %d of stage %d", i, i%4) },
	func(i int) string { return fmt.Sprintf("Stopping task %d of stage %d", i, i%4) },
}

// frameFormats put a header before a message: each is a log framework's
// shape, with values that change from line to line (times, pids, threads,
// hosts, programs, levels) as they do in real logs.
var frameFormats = []struct {
	name   string
	header func(i, e int) string
}{
	{"date time level [thread] logger:", func(i, e int) string {
		threads := []string{"main", "IPC Server handler 3 on 5100", "AsyncDispatcher event handler", "pool-1-thread-2"}
		levels := []string{"INFO", "WARN", "ERROR"}
		return fmt.Sprintf("2015-10-18 18:%02d:%02d,%03d %s [%s] org.example.Service%d: ", i/60%60, i%60, i%1000, levels[i%3], threads[i*7%4], e)
	}},
	{"syslog host prog[pid]:", func(i, e int) string {
		hosts := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}
		return fmt.Sprintf("Jun %2d %02d:%02d:%02d %s daemon[%d]: ", 1+i%28, i%24, i%60, i*7%60, hosts[i*5%6], 100+i)
	}},
	{"[time] program - ", func(i, e int) string {
		progs := []string{"chrome.exe", "firefox.exe", "git.exe", "svchost.exe", "Dropbox.exe", "curl.exe", "ssh.exe"}
		return fmt.Sprintf("[10.%02d %02d:%02d:%02d] %s - ", 1+i%28, i%24, i%60, i*3%60, progs[i*3%7])
	}},
	{"date time pid tid L tag:", func(i, e int) string {
		levels := []string{"D", "I", "W", "V"}
		return fmt.Sprintf("03-17 16:%02d:%02d.%03d  %d  %d %s Tag%d: ", i/60%60, i%60, i%1000, 1700+i%9, 2000+i, levels[i%4], e)
	}},
	{"time|component|pid|", func(i, e int) string {
		return fmt.Sprintf("20171223-22:%02d:%02d:%03d|Step_C%d|%d|", i/60%60, i%60, i%1000, e, 30002312+i%3)
	}},
}

// TestFrameGroupsRawLines checks that raw lines group as their messages do
// once the miner has learnt the header from the log itself, for headers of
// several shapes, and that messages differing in one word stay apart.
func TestFrameGroupsRawLines(t *testing.T) {
	for _, f := range frameFormats {
		t.Run(f.name, func(t *testing.T) {
			m := NewMiner(Options{})
			var ids, events []int
			for i := 0; i < 1500; i++ {
				e := (i*5 + i/7) % len(frameMessages)
				ids = append(ids, m.Add([]byte(f.header(i, e)+frameMessages[e](i))))
				events = append(events, e)
			}
			group := map[int]int{} // event → group
			owner := map[int]int{} // group → event
			for i, id := range ids {
				g := m.Resolve(id)
				e := events[i]
				if want, ok := group[e]; ok && want != g {
					tm, _ := m.Template(g)
					w, _ := m.Template(want)
					t.Fatalf("event %d split: %q and %q", e, w.Text, tm.Text)
				}
				group[e] = g
				if other, ok := owner[g]; ok && other != e {
					tm, _ := m.Template(g)
					t.Fatalf("events %d and %d share %q", other, e, tm.Text)
				}
				owner[g] = e
			}
		})
	}
}

// TestFrameNotOnMessages checks that a log without a header gets no frame
// that eats a message's first words, even when most lines start alike.
func TestFrameNotOnMessages(t *testing.T) {
	var sample [][]byte
	for i := 0; i < 600; i++ {
		e := i % len(frameMessages)
		sample = append(sample, []byte(frameMessages[e](i)))
	}
	if fr := learnFrame(sample, 0); fr.n != 0 {
		t.Errorf("frame of headerless messages = %+v, want none", fr)
	}
	var tk tokenizer
	tk.frame = learnFrame([][]byte{[]byte("2024-01-01 x"), []byte("2024-01-02 y")}, RuleFrame)
	if tk.frame.n != 0 {
		t.Errorf("frame learnt with RuleFrame off: %+v", tk.frame)
	}
}

// TestFramePadding checks that a header padded to a column ("time
// file.c:line" and spaces) ends at the padding, so that the message's
// first word, a label with a few values ("trace:", "setup:"), stays
// constant; and that padding between number columns ("  1702  2395")
// does not end it.
func TestFramePadding(t *testing.T) {
	var sample, numbers [][]byte
	labels := []string{"trace: built-in: git status", "setup: git_dir: .git", "setup: worktree: /repo", "trace: run_command: gc"}
	for i := 0; i < 400; i++ {
		head := fmt.Sprintf("23:20:%02d.%06d %s.c:%d", i%60, i*37%1000000, []string{"git", "trace", "run-command"}[i%3], 100+i*7%400)
		sample = append(sample, []byte(fmt.Sprintf("%-40s%s", head, labels[i*3%4])))
		numbers = append(numbers, []byte(fmt.Sprintf("03-17 16:13:%02d.%03d  %4d  %4d %s Tag%d: %s", i%60, i%1000, 17+i%9, 200+i, []string{"D", "I"}[i%2], i%3, labels[i%4])))
	}
	if fr := learnFrame(sample, 0); fr.n != 2 {
		t.Errorf("padded header: frame of %d fields, want 2", fr.n)
	}
	if fr := learnFrame(sample, RuleFramePadding); fr.n == 2 {
		t.Errorf("padded header with frame-padding off: frame of 2 fields; the test shows nothing")
	}
	if fr := learnFrame(numbers, 0); fr.n < 4 {
		t.Errorf("padding between numbers: frame of %d fields, want at least 4", fr.n)
	}
}

// TestFrameLabels checks that a header whose last fields are labels
// ("general: info:") ends after them: the message's first word, which
// takes few values ("received", "sent"), is not taken for a category.
func TestFrameLabels(t *testing.T) {
	cats := []string{"general:", "network:", "notify:", "xfer-out:"}
	sevs := []string{"info:", "notice:", "warning:"}
	msgs := []string{"received control channel command 'reload zone%d'", "sent notify for zone z%d.test",
		"received notify for zone z%d.test", "sent %d bytes to peer", "received %d bytes from peer"}
	var sample [][]byte
	for i := 0; i < 500; i++ {
		e := i * 7 % len(msgs)
		sample = append(sample, []byte(fmt.Sprintf("02-Dec-2026 02:08:%02d.%03d %s %s ", i%60, i*37%1000, cats[(i+e)%len(cats)], sevs[i/3%len(sevs)])+fmt.Sprintf(msgs[e], i%11)))
	}
	if fr := learnFrame(sample, 0); fr.n != 4 {
		t.Errorf("frame of %d fields, want 4", fr.n)
	}
	if fr := learnFrame(sample, RuleFrameLabels); fr.n == 4 {
		t.Errorf("with frame-labels off: frame of 4 fields; the test shows nothing")
	}
}

// TestFrameTags checks that a column of program tags, some plain words
// ("auth-proxy:") and some with a user and pid in them ("worker(u3)<412>:"),
// is one header column: the events group whatever tag they carry.
func TestFrameTags(t *testing.T) {
	tags := []func(i int) string{
		func(i int) string { return "auth-proxy:" },
		func(i int) string { return "mail-proxy:" },
		func(i int) string { return fmt.Sprintf("worker(u%d)<%d>:", i%6, 300+i) },
		func(i int) string { return fmt.Sprintf("agent(u%d)<%d><s%dx>:", i%4, 900+i, i) },
	}
	for _, off := range []Rules{0, RuleFrameTags} {
		m := NewMiner(Options{Off: off})
		var ids, events []int
		for i := 0; i < 1200; i++ {
			e := i * 7 % len(frameMessages)
			line := fmt.Sprintf("Nov %2d %02d:%02d:%02d %s Info: %s", 1+i%28, i%24, i%60, i*7%60, tags[i*5%4](i), frameMessages[e](i))
			ids = append(ids, m.Add([]byte(line)))
			events = append(events, e)
		}
		groups := map[int]map[int]bool{}
		for i, id := range ids {
			if groups[events[i]] == nil {
				groups[events[i]] = map[int]bool{}
			}
			groups[events[i]][m.Resolve(id)] = true
		}
		split := 0
		for _, g := range groups {
			if len(g) > 1 {
				split++
			}
		}
		if off == 0 && split != 0 {
			t.Errorf("%d events split over tags", split)
		}
		if off != 0 && split == 0 {
			t.Errorf("with frame-tags off no event is split; the test shows nothing")
		}
	}
}

// TestFrameNext checks that after a header (a time and a source location)
// a message's first word is not taken for a category because the
// message's other words vary: "Route : /a" and "Origin : /b" are followed
// by the same word every time, as a level or logger is not.
func TestFrameNext(t *testing.T) {
	msgs := []func(i int) string{
		func(i int) string { return fmt.Sprintf("Route         : /srv/%c%d", 'a'+i%7, i) },
		func(i int) string { return fmt.Sprintf("Origin        : /x/%c sent %d bytes", 'a'+i%9, i) },
		func(i int) string {
			return fmt.Sprintf("token rejected for %s", []string{"amy", "ben", "cy", "dee"}[i%4])
		},
		func(i int) string { return fmt.Sprintf("worker %s restarted", []string{"north", "south", "east"}[i%3]) },
		func(i int) string {
			return fmt.Sprintf("queue %s drained", []string{"low", "high", "bulk", "mail"}[i%4])
		},
	}
	var sample [][]byte
	for i := 0; i < 400; i++ {
		e := i * 3 % len(msgs)
		sample = append(sample, []byte(fmt.Sprintf("2026-01-02 10:%02d:%02d: (unit_%c.c.%d) %s", i/60%60, i%60, 'a'+e, 100+e*17, msgs[e](i))))
	}
	if fr := learnFrame(sample, 0); fr.n != 3 {
		t.Errorf("frame of %d fields, want 3 (date, time, source)", fr.n)
	}
	if fr := learnFrame(sample, RuleFrameNext); fr.n <= 3 {
		t.Errorf("with frame-next off: frame of %d fields; the test shows nothing", fr.n)
	}
}

// TestFrameSeparators checks that a header whose fields are split by a
// lone separator (a time, " : ", then a log domain ending in ':') is learnt
// past the separator, so that the domain is a header field and the events
// group whatever domain printed them; and that a separator followed by the
// message's first field (no label) still ends the header.
func TestFrameSeparators(t *testing.T) {
	domains := []string{"client:", "player:", "output:", "update:", "decoder:"}
	msgs := []string{"opened stream %d", "closed stream %d", "buffer underrun after %d ms", "queue holds %d items",
		"retrying in %d s", "request %d done"}
	var sample [][]byte
	for i := 0; i < 600; i++ {
		e := i * 7 % len(msgs)
		sample = append(sample, []byte(fmt.Sprintf("Mar %02d 11:%02d : %s ", 1+i%28, i%60, domains[(i+e/2)%len(domains)])+fmt.Sprintf(msgs[e], i)))
	}
	if fr := learnFrame(sample, 0); fr.n != 5 || !fr.variable[4] {
		t.Errorf("frame %+v, want 5 fields ending in a variable domain", fr)
	}
	if fr := learnFrame(sample, RuleFrameSeparators); fr.n != 3 {
		t.Errorf("with frame-separators off: frame of %d fields, want 3", fr.n)
	}
	// " - " then a message whose first word is one of few: not a header.
	sample = sample[:0]
	for i := 0; i < 600; i++ {
		e := i * 7 % len(msgs)
		sample = append(sample, []byte(fmt.Sprintf("[10.%02d 16:49:%02d] prog%d - ", 1+i%28, i%60, i%3)+fmt.Sprintf(msgs[e], i)))
	}
	if fr := learnFrame(sample, 0); fr.n > 2 {
		t.Errorf("frame of %d fields after ' - ' and a message, want at most 2", fr.n)
	}
}

// TestFrameHeadless checks that continuation lines without a header (a
// stack trace after some records), too many for any field shape to reach
// the frame's share of the sample, do not stop the header from being
// learnt on the lines that have one; and that the continuation lines get
// no header slot.
func TestFrameHeadless(t *testing.T) {
	var lines []string
	for i := 0; i < 400; i++ {
		lines = append(lines, fmt.Sprintf("2026-12-02 11:%02d:%02d,%03d request %d done in %d ms", i/60%60, i%60, i, i, i%50))
		if i%4 == 0 {
			lines = append(lines, fmt.Sprintf("java.lang.IllegalStateException: bad state %d", i))
			for k := 0; k < 5; k++ {
				lines = append(lines, fmt.Sprintf("\tat com.example.Mod%d.step%c(Mod%d.java:%d)", k, 'a'+i%9, k, 10+i))
			}
		}
	}
	var sample [][]byte
	for _, l := range lines {
		sample = append(sample, []byte(l))
	}
	if fr := learnFrame(sample, 0); fr.n != 2 {
		t.Errorf("frame of %d fields, want 2 (date and time)", fr.n)
	}
	if fr := learnFrame(sample, RuleFrameHeadless); fr.n != 0 {
		t.Errorf("with frame-headless off: frame of %d fields; the test shows nothing", fr.n)
	}
	m := NewMiner(Options{})
	for _, l := range lines {
		m.Add([]byte(l))
	}
	for _, tm := range m.Templates() {
		if strings.HasPrefix(tm.Text, "at ") || strings.HasPrefix(tm.Text, Wildcard+" at ") {
			if !strings.HasPrefix(tm.Text, "at ") {
				t.Errorf("continuation line templated with a header slot: %q", tm.Text)
			}
		}
		if strings.Contains(tm.Text, "request") && tm.Text != Wildcard+" request "+Wildcard+" done in "+Wildcard {
			t.Errorf("record template %q, want the header as one variable", tm.Text)
		}
	}
}

// TestFrameConstants checks that a word every line has inside the header,
// before another number (a month name between a day and a year, a time
// zone before a pid), does not end it, and that a level printed as a
// punctuation mark after the time is a header field.
func TestFrameConstants(t *testing.T) {
	marks := []string{"*", "*", "*", "#", "-", "."}
	msgs := []string{"Ready to accept connections %d", "Background saving started by pid %d",
		"DB saved on disk after %d ms", "%d changes in 60 seconds. Saving...", "Accepted client %d"}
	var sample [][]byte
	for i := 0; i < 600; i++ {
		e := i * 7 % len(msgs)
		sample = append(sample, []byte(fmt.Sprintf("%d:M %02d Mar 2026 11:%02d:%02d.%03d %s ", 100+i%7, 1+i%28, i%60, i*7%60, i, marks[(i+e)%len(marks)])+fmt.Sprintf(msgs[e], i)))
	}
	fr := learnFrame(sample, 0)
	if fr.n != 6 || !fr.variable[2] || !fr.variable[5] {
		t.Errorf("frame %+v, want 6 fields: the month masked as a constant, and a variable mark", fr)
	}
	if fr := learnFrame(sample, RuleFrameConstants); fr.n != 2 {
		t.Errorf("with frame-constants off: frame of %d fields, want 2", fr.n)
	}
	if fr := learnFrame(sample, RuleFrameSeparators); fr.n != 5 {
		t.Errorf("with frame-separators off: frame of %d fields, want 5", fr.n)
	}
}

// TestFrameFrameworkHeaders checks that raw lines of common logging
// frameworks' default shapes group exactly as their messages do: the
// header is learnt whatever its separators, constants and columns. The
// level and logger vary independently of the message, as they do in
// real logs. Python's " - name - LEVEL - " needs RuleFrameSeparators to
// run on past a separator before a logger column.
func TestFrameFrameworkHeaders(t *testing.T) {
	msgs := []func(i int) string{
		func(i int) string { return fmt.Sprintf("connection from 10.0.0.%d accepted", i%200) },
		func(i int) string { return fmt.Sprintf("request %d finished in %d ms", i, i%90) },
		func(i int) string { return fmt.Sprintf("cache miss for key k%d", i) },
		func(i int) string { return "worker pool resized" },
		func(i int) string { return fmt.Sprintf("user u%d logged out after %d s", i%13, i%300) },
		func(i int) string { return fmt.Sprintf("disk usage at %d percent", i%100) },
	}
	lv := []string{"INFO", "WARNING", "ERROR", "DEBUG"}
	names := []string{"app.db", "app.web", "root", "worker"}
	formats := []struct {
		name   string
		header func(i int) string
	}{
		{"python", func(i int) string {
			return fmt.Sprintf("2026-12-02 11:%02d:%02d,%03d - %s - %s - ", i/60%60, i%60, i%1000, names[i%4], lv[i/5%4])
		}},
		{"date - logger - ", func(i int) string { return fmt.Sprintf("12/02/2026 11:%02d:%02d - %s - ", i/60%60, i%60, names[i%4]) }},
		{"nginx", func(i int) string {
			return fmt.Sprintf("2026/12/02 11:%02d:%02d [%s] %d#0: *%d ", i/60%60, i%60, []string{"error", "warn", "notice"}[i%3], 100+i%4, i)
		}},
		{"journal", func(i int) string { return fmt.Sprintf("Dec 02 11:%02d:%02d myhost app[%d]: ", i/60%60, i%60, 300+i%5) }},
		{"apache", func(i int) string {
			return fmt.Sprintf("[Wed Dec 02 11:%02d:%02d.%06d 2026] [core:%s] [pid %d] ", i/60%60, i%60, i, []string{"error", "warn"}[i%2], 50+i%3)
		}},
		{"klog", func(i int) string {
			return fmt.Sprintf("I1202 11:%02d:%02d.%06d    %d %s.go:%d] ", i/60%60, i%60, i, 1, []string{"server", "reflector", "queue"}[i%3], 100+i%50)
		}},
		{"tabs", func(i int) string {
			return fmt.Sprintf("2026-12-02T11:%02d:%02dZ\t%s\t%s\t", i/60%60, i%60, lv[i/5%4], names[i%4])
		}},
	}
	groups := func(header func(int) string, off Rules) int {
		m := NewMiner(Options{Off: off})
		for i := 0; i < 1500; i++ {
			m.Add([]byte(header(i) + msgs[i*7%len(msgs)](i)))
		}
		return len(m.Templates())
	}
	for _, f := range formats {
		if n := groups(f.header, 0); n != len(msgs) {
			t.Errorf("%s: %d groups, want %d", f.name, n, len(msgs))
		}
	}
	if n := groups(formats[0].header, RuleFrameSeparators); n == len(msgs) {
		t.Errorf("python with frame-separators off: %d groups; the test shows nothing", n)
	}
}

package logs

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzMiner feeds arbitrary bytes, split into lines, to two miners and checks
// that mining never panics, is deterministic, hands out dense ids, and
// produces printable templates that are their own templates.
func FuzzMiner(f *testing.F) {
	for _, s := range []string{
		"",
		"PacketResponder 1 for block blk_38865049064139660 terminating\nPacketResponder 0 for block blk_-1 terminating",
		"[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok /etc/httpd/conf/workers2.properties",
		"2015-10-18 18:04:34,894 INFO [IPC Server handler 2 on 62270] org.A: Progress of TaskAttempt a_1 is : 0.4",
		"20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579\r\n",
		"[10.30 16:49:06] chrome.exe *64 - a.example.org:80 close, 1190 bytes (1.16 KB) sent, lifetime <1 sec",
		"\x1b[0;32mINFO\x1b[0m \x1b]0;t\x07ok \xff\xfe 12",
		"[[[[ ]]]] [ [ [ - - - INFO : [",
		"Jun 14 15:16:01 combo sshd(pam_unix)[19939]: a=1 b:2 c.....3 d(4) e(f)",
		"u1 a b c d\nu2 a b c d\nu3 a b c d\nu4 a b c d\nua a b c d\nub a b c d\nuc a b c d\nud a b c d\nue a b c d",
		"job fbaaafda ran on a b\njob 3fa9c1e2 ran on a b\njob (kQzTbW) ran on a b\njob (3f) ran on a b\n" +
			"Registering class org.x.Y for class org.x.Z\nRegistering class org.x.Y2 for class org.x.Z2",
		"go lock=1, tag=p, name=q, uid=2 now\ngo lock=2, tag=r, name=s, uid=3 now\ngo lock=3, tag=t, name=u, uid=4 now\ngo lock=4, tag=p=, name==",
		"npm ERR! x\n0 errors\nerrors=0\nFooException: Failed to Connection refused core dumped",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte("\n"))
		m1, m2 := NewMiner(Options{MaxTemplates: 16}), NewMiner(Options{MaxTemplates: 16})
		next := 0
		var ids []int
		for _, l := range lines {
			if failure(l) != failure(bytes.Clone(l)) || lineWhy(l) != lineWhy(bytes.Clone(l)) {
				t.Fatalf("failure is not deterministic on %q", l)
			}
			id := m1.Add(l)
			if id2 := m2.Add(l); id2 != id {
				t.Fatalf("miners disagree on %q: %d and %d", l, id, id2)
			}
			ids = append(ids, id)
		}
		for i, id := range ids {
			// Provisional ids of the first lines map to the ids their
			// groups got when the sample was mined.
			id = m1.real(id)
			l := lines[i]
			switch {
			case id == OverflowID:
			case id == next:
				next++
			case id > next || id < 0:
				t.Fatalf("id %d for %q is not dense (next is %d)", id, l, next)
			}
			if r := m1.Resolve(id); r > id {
				t.Fatalf("Resolve(%d) = %d", id, r)
			}
		}
		total := m1.Overflow()
		for _, tm := range m1.Templates() {
			total += tm.Count
			if !utf8.ValidString(tm.Text) || strings.ContainsAny(tm.Text, "\n\t\r\x1b") {
				t.Fatalf("template %q is not printable", tm.Text)
			}
		}
		if total != len(lines) {
			t.Fatalf("templates and overflow hold %d lines, want %d", total, len(lines))
		}
		// A template is its own template (for lines well within the limits,
		// where expanding short variables to "<*>" cannot cross them).
		var tk tokenizer
		for _, l := range lines {
			if len(l) > 1024 || !utf8.Valid(l) {
				continue
			}
			once := string(tk.template(l))
			if len(tk.toks) > maxTokens/2 {
				continue
			}
			if twice := string(tk.template([]byte(once))); twice != once {
				t.Fatalf("template(%q) = %q, but its template is %q", l, once, twice)
			}
		}
	})
}

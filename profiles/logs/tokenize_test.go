package logs

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// templateOf returns the template key of one line from a fresh tokenizer.
func templateOf(line string) string {
	var t tokenizer
	return string(t.template([]byte(line)))
}

func TestTemplate(t *testing.T) {
	tests := []struct{ line, want string }{
		// Message tokens.
		{``, ``},
		{`   `, ``},
		{`flush sensor data`, `flush sensor data`},
		{`a <*> b`, `a <*> b`},
		{`took 12ms`, `took <*>`},
		{`state=RUNNING attempts=3`, `state=RUNNING attempts=<*>`},
		{`id 550e8400-e29b-41d4-a716-446655440000 done`, `id <*> done`},
		{`at 0xdeadbeef`, `at <*>`},
		{`ok=false user=null`, `ok=false user=null`},
		{`connected to localhost:8080`, `connected to <*>`},
		{`opened C:\Windows\system32 twice`, `opened <*> twice`},
		{`value is True`, `value is <*>`},
		{`"quoted 42" and (7)`, `"quoted <*>" and (<*>)`},
		{`wrote 3 KB in 2 sec`, `wrote <*> in <*>`},
		{`error[E0308]: mismatched types`, `error[<*>]: mismatched types`},
		{`Thread[main,5,grp] x`, `<*>] x`},
		{`lifetime <1, then (>5) and <7>`, `lifetime <*>, then (<*>) and <*>`},
		{`May I ask`, `May I ask`},
		{`on Mon 12 Jun`, `on <*>`},
		{`a|b|12`, `a|b|<*>`},
		// Pairs joined by commas without spaces keep their keys apart.
		{`size=12,name=db2,mode=rw`, `size=<*>,name=<*>,mode=rw`},
		{`k=1;j=2 done`, `k=<*>;j=<*> done`},
		{`a,b,c`, `a,b,c`},
		{`1,024 bytes`, `<*>`},
		{"tab\tseparated\t9", `tab separated <*>`},
		{`PacketResponder 1 for block blk_38865049064139660 terminating`,
			`PacketResponder <*> for block <*> terminating`},
		{`Receiving block blk_-1608999687919862906 src: /10.250.19.102:54106 dest: /10.250.19.102:50010`,
			`Receiving block <*> src: <*> dest: <*>`},
		{`proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS`,
			`<*> open through proxy <*> HTTPS`},
		{`183.62.156.108:22 open through proxy socks.example.org:5070 SOCKS5`,
			`<*> open through proxy <*>`},
		{`www.example.com:443 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, lifetime 00:02`,
			`<*> close, <*> sent, <*> received, lifetime <*>`},
		{`www.example.com:443 close, 0 bytes sent, 0 bytes received, lifetime <1 sec`,
			`<*> close, <*> sent, <*> received, lifetime <*>`},
		{`setTodayTotalDetailSteps=1514038440000##7007##548365##8661##12361##27173954`,
			`setTodayTotalDetailSteps=<*>`},
		{`onExtend:1514038530000 14 0 4`,
			`onExtend:<*> <*>`},
		{`processHandleBroadcastAction action:android.intent.action.TIME_TICK`,
			`processHandleBroadcastAction action:android.intent.action.TIME_TICK`},
		{`initDataPrivacy the dataPrivacy is true`,
			`initDataPrivacy the dataPrivacy is <*>`},
		{`data store interrupt caused by dcbf.........0`,
			`data store interrupt caused by dcbf.........<*>`},
		{`ciod: LOGIN chdir(/home/someone/work) failed: No such file or directory`,
			`ciod: LOGIN chdir(<*>) failed: No such file or directory`},
		{`Ido chip status changed: 0x1 ip=10.0.0.1 v=13 t=4 status=M Fri Jul 22 09:24:56 PDT 2005`,
			`Ido chip status changed: <*> ip=<*> v=<*> t=<*> status=M <*> PDT <*>`},
		{`Registering class org.apache.hadoop.mapreduce.jobhistory.EventType for class org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler`,
			`Registering class org.apache.hadoop.mapreduce.jobhistory.EventType for class org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler`},
		{`Recalculating schedule, headroom=<memory:0, vCores:-27>`,
			`Recalculating schedule, headroom=<*>, vCores:<*>>`},
		{`[instance: b9000564-fe1a-409b-b8cc-1e88b294cd1d] Took 0.52 seconds to spawn the instance on the hypervisor.`,
			`[instance: <*>] Took <*> to spawn the instance on the hypervisor.`},
		{`10.11.10.1 "GET /v2/54fadb412c4e40cdbaed9335e4c35a9e/servers/detail HTTP/1.1" status: 200 len: 1893 time: 0.2477829`,
			`<*> "GET <*> status: <*> len: <*> time: <*>`},
		{`BLOCK* ask 10.250.14.224:50010 to delete  blk_-1 blk_-2 blk_-3`,
			`BLOCK* ask <*> to delete <*>`},
		{`Could not resolve www.google.com error 11001`,
			`Could not resolve <*> error <*>`},
		{`mail from user@example.com rejected`,
			`mail from <*> rejected`},
		{`fetched https://example.com/a/b in 3ms`,
			`fetched <*> in <*>`},
		{`/openstack/2013-10-17 is not a timestamp header`,
			`<*> is not a timestamp header`},
		{`iar 00106570 dear 0245a4e8`,
			`iar <*> dear <*>`},
		// Terminal noise.
		{"\x1b[0;32mINFO\x1b[0m compiled 12 files in 3.2s\r", `INFO compiled <*> files in <*>`},
		{"\x1b]0;title\x07done 1", `done <*>`},
		{"progress 10%\rprogress 20%", `progress <*> progress <*>`},
		{"nul\x00byte 5", `nul byte <*>`},
		{"trailing escape \x1b", `trailing escape`},
		{"charset \x1b(Bswitch 7", `charset switch <*>`},
		{"cut escape \x1b[0;3", `cut escape`},
	}
	for _, tt := range tests {
		if got := templateOf(tt.line); got != tt.want {
			t.Errorf("template(%q)\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

// TestTemplateGroups checks which lines share a template: the pairs that the
// loghub ground truth keeps apart must stay apart. Headers, which the miner
// learns from a log's first lines, are tested in frame_test.go.
func TestTemplateGroups(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{`processHandleBroadcastAction action:android.intent.action.TIME_TICK`,
			`processHandleBroadcastAction action:android.intent.action.SCREEN_ON`, false},
		{`x.example.org:80 open through proxy p.example.org:5070 HTTPS`,
			`10.0.0.1:22 open through proxy p.example.org:5070 SOCKS5`, false},
		{`task_1 TaskAttempt Transitioned from NEW to UNASSIGNED`,
			`task_2 TaskAttempt Transitioned from UNASSIGNED to ASSIGNED`, false},
		{`a.example.org:443 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, lifetime 00:02`,
			`b.example.org:80 close, 0 bytes sent, 403 bytes received, lifetime <1 sec`, true},
		{`BLOCK* ask 10.0.0.1:50010 to delete blk_1`,
			`BLOCK* ask 10.0.0.2:50010 to delete blk_1 blk_2 blk_3 blk_4`, true},
		// Message words that merely look like header parts stay.
		{`[client 1.2.3.4] Directory index forbidden by rule: /var/www/`,
			`[client 1.2.3.5] File does not exist: /var/www/favicon.ico`, false},
		{`iar 00106570 dear 0245a4e8`, `xar 00106570 dear 0245a4e8`, false},
		{`May I ask`, `Can I ask`, false},
		{`2020-01-01 12:00:00 Starting service foo - done`, `2020-01-01 12:00:00 Stopping service bar - done`, false},
		{`Dec 10 06:55:46 host app[1]: started job - ok`, `Dec 10 06:55:46 host app[1]: finished job - ok`, false},
		{`Dec 10 06:55:46 host app[1]: started at 10:00 ok`, `Dec 10 06:55:46 host app[1]: stopped at 10:00 ok`, false},
	}
	for _, tt := range tests {
		a, b := templateOf(tt.a), templateOf(tt.b)
		if (a == b) != tt.same {
			t.Errorf("same template = %v, want %v\n a: %q → %q\n b: %q → %q", a == b, tt.same, tt.a, a, tt.b, b)
		}
	}
}

// TestTemplateIdempotent checks that a template's template is itself.
func TestTemplateIdempotent(t *testing.T) {
	for _, line := range strings.Split(idempotentLines, "\n") {
		once := templateOf(line)
		if twice := templateOf(once); twice != once {
			t.Errorf("template(%q) = %q, but template of that = %q", line, once, twice)
		}
	}
}

const idempotentLines = `PacketResponder 1 for block blk_38865049064139660 terminating
www.example.com:443 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, lifetime 00:02
Ido chip status changed: 0x1 ip=10.0.0.1 v=13 t=4 status=M Fri Jul 22 09:24:56 PDT 2005
2015-07-29 17:41:44,747 - INFO  [QuorumPeer[myid=1]/0:2181:FastLeaderElection@774] - Notification time out: 3200
headroom=<memory:0, vCores:-27>`

func TestTemplateHugeLine(t *testing.T) {
	long := bytes.Repeat([]byte("word 123 \xff\xfe "), 1<<20) // 13 MiB, invalid UTF-8
	var tk tokenizer
	got := tk.template(long)
	if !tk.truncated {
		t.Error("huge line not marked truncated")
	}
	if !bytes.HasSuffix(got, []byte(Wildcard)) {
		t.Errorf("template of a truncated line should end in %s: %q", Wildcard, got[max(0, len(got)-20):])
	}
	if len(got) > 4*maxLineBytes {
		t.Errorf("template of a huge line is %d bytes", len(got))
	}
	// Only the prefix matters.
	if again := tk.template(long[:maxLineBytes+1]); !bytes.Equal(again, got) {
		t.Error("template of a huge line differs from that of its prefix")
	}
	m := NewMiner(Options{})
	id := m.Add(long)
	tm, ok := m.Template(id)
	if !ok || !utf8.ValidString(tm.Text) {
		t.Errorf("template text not valid UTF-8: %q", tm.Text)
	}
	// One token of 10 MB without spaces.
	m.Add(bytes.Repeat([]byte{'x'}, 10<<20))
	m.Add(bytes.Repeat([]byte{' '}, 10<<20))
	m.Add(bytes.Repeat([]byte{0x1b, '['}, 5<<20))
	m.Add(bytes.Repeat([]byte("[a "), 1<<20))
}

// TestTemplateQuotedAndNames: a quoted word is a value the program did not
// write, unless it is an upper-case verb or keyword; a dotted lower-case
// name is a host or zone name whatever its last label.
func TestTemplateQuotedAndNames(t *testing.T) {
	tests := []struct {
		line, want string
		off        Rules
		wantOff    string
	}{
		{`denied for user 'app' to database 'shop'`, `denied for user '<*>' to database '<*>'`,
			RuleQuoted, `denied for user 'app' to database 'shop'`},
		{`FTP command: "PWD"`, `FTP command: "PWD"`, RuleQuoted, `FTP command: "PWD"`},
		{`command 'freeze zone' sent`, `command 'freeze zone' sent`, RuleQuoted, `command 'freeze zone' sent`},
		{`zone example.test loaded`, `zone <*> loaded`, RuleDottedNames, `zone example.test loaded`},
		{`zone db.example.com loaded`, `zone <*> loaded`, RuleDottedNames, `zone <*> loaded`},
		{`see query.c for`, `see query.c for`, RuleDottedNames, `see query.c for`},
		{`failed for example.com/IN/A at`, `failed for <*> at`, RuleDottedNames, `failed for example.com/IN/A at`},
		{`Input/output error`, `Input/output error`, RuleDottedNames, `Input/output error`},
		{`class com.example.app started`, `class com.example.app started`, RuleDottedNames, `class com.example.app started`},
	}
	for _, tt := range tests {
		if got := templateOf(tt.line); got != tt.want {
			t.Errorf("template(%q) = %q, want %q", tt.line, got, tt.want)
		}
		tok := tokenizer{off: tt.off}
		if got := string(tok.template([]byte(tt.line))); got != tt.wantOff {
			t.Errorf("with the rule off, template(%q) = %q, want %q", tt.line, got, tt.wantOff)
		}
	}
}

// TestTemplateValueBar: a '|' between two letters inside a key=value word
// is part of the value; elsewhere '|' separates fields.
func TestTemplateValueBar(t *testing.T) {
	tests := []struct{ line, want, wantOff string }{
		{`closed cmd=config|get user=x`, `closed cmd=config|get user=x`, `closed cmd=config|get user=x`},
		{`cmd=a|b=c`, `cmd=a|b=c`, `cmd=a|b=c`},
		{`INFO|main|started`, `INFO|main|started`, `INFO|main|started`},
	}
	for _, tt := range tests {
		var tok tokenizer
		tok.template([]byte(tt.line))
		if len(tok.toks) == 0 || tt.line == `closed cmd=config|get user=x` && len(tok.toks) != 3 {
			t.Errorf("%q: %d tokens, want 3", tt.line, len(tok.toks))
		}
		if got := templateOf(tt.line); got != tt.want {
			t.Errorf("template(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
	off := tokenizer{off: RuleValueBar}
	off.template([]byte(`closed cmd=config|get user=x`))
	if len(off.toks) != 4 {
		t.Errorf("with value-bar off: %d tokens, want 4", len(off.toks))
	}
	if got := splitKey("closed cmd=config|get|x user=<*>", nil); len(got) != 3 {
		t.Errorf("splitKey: %q, want 3 elements", got)
	}
}

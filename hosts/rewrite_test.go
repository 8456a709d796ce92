package hosts

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ctxhq/ctx/cmdline"
)

// tableRow is one line of testdata/commands.tsv.
type tableRow struct {
	line     int
	reason   Reason
	command  string
	expected string // the rewritten command; equal to command when unchanged
}

// loadTable reads testdata/commands.tsv: reason, command, expected, separated
// by tabs. "=" as expected means unchanged; a field starting with a double
// quote is a Go string literal (for newlines and tabs).
func loadTable(t testing.TB) []tableRow {
	t.Helper()
	f, err := os.Open("testdata/commands.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []tableRow
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("commands.tsv:%d: want 3 tab-separated fields, have %d", n, len(fields))
		}
		for i, fld := range fields {
			if strings.HasPrefix(fld, `"`) {
				s, err := strconv.Unquote(fld)
				if err != nil {
					t.Fatalf("commands.tsv:%d: field %d: %v", n, i+1, err)
				}
				fields[i] = s
			}
		}
		r := tableRow{line: n, reason: Reason(fields[0]), command: fields[1], expected: fields[2]}
		if r.expected == "=" {
			r.expected = r.command
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestRewriteTable(t *testing.T) {
	rows := loadTable(t)
	if len(rows) < 150 {
		t.Errorf("table has %d rows, want at least 150", len(rows))
	}
	known := map[Reason]bool{}
	for _, r := range Reasons {
		known[r] = true
	}
	for _, r := range rows {
		if !known[r.reason] {
			t.Errorf("commands.tsv:%d: unknown reason %q", r.line, r.reason)
		}
		d := Rewrite(r.command)
		if d.Command != r.expected || d.Reason != r.reason {
			t.Errorf("commands.tsv:%d: Rewrite(%q)\n got  %s %q\n want %s %q", r.line, r.command, d.Reason, d.Command, r.reason, r.expected)
		}
		if d.Rewrite != (r.expected != r.command) {
			t.Errorf("commands.tsv:%d: Rewrite=%v for %q", r.line, d.Rewrite, r.command)
		}
		checkRoundTrip(t, r.command, d)
	}
}

// checkRoundTrip verifies the invariants every decision must hold.
func checkRoundTrip(t *testing.T, in string, d Decision) {
	t.Helper()
	if !d.Rewrite {
		if d.Command != in || len(d.Sites) != 0 {
			t.Errorf("unchanged decision for %q altered the command or has sites", in)
		}
		if d.Reason == ReasonWrapped {
			t.Errorf("unchanged decision for %q says %s", in, d.Reason)
		}
		return
	}
	if d.Reason != ReasonWrapped || len(d.Sites)+len(d.Chains) == 0 {
		t.Errorf("rewrite of %q: reason %s, %d sites, %d chains", in, d.Reason, len(d.Sites), len(d.Chains))
	}
	d = undoChains(t, in, d)
	if got := strings.ReplaceAll(d.Command, d.Prefix, ""); got != in {
		t.Errorf("removing %q from %q gives %q, want the input back", d.Prefix, d.Command, got)
	}
	if got := removeSites(d); got != in {
		t.Errorf("removing sites from %q gives %q, want %q", d.Command, got, in)
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(d.Command), ""); err != nil {
		t.Errorf("rewrite of %q does not parse: %v", in, err)
	}
	for i, s := range d.Sites {
		if i > 0 && s.Offset <= d.Sites[i-1].Offset {
			t.Errorf("sites of %q not in increasing order", in)
		}
		if s.Tool == "" || s.Family == "" {
			t.Errorf("site %d of %q lacks tool or family: %+v", i, in, s)
		}
	}
}

// undoChains checks each chain of d against in — its steps are the
// simple commands of in's span, in order, joined by && alone, and its
// ctx seq splits back into exactly those steps — and returns d with every
// chain's ctx seq put back to the span it replaced, so that the site checks
// apply.
func undoChains(t *testing.T, in string, d Decision) Decision {
	t.Helper()
	i := strings.LastIndex(d.Prefix, " run ")
	if i < 0 {
		t.Fatalf("prefix %q has no run", d.Prefix)
	}
	seqPrefix := d.Prefix[:i] + " seq " + d.Prefix[i+len(" run "):]
	for _, c := range d.Chains {
		span := in[c.Offset:c.End]
		rest := span
		for i, s := range c.Steps {
			j := strings.Index(rest, s)
			if j < 0 || (i == 0 && j != 0) || (i > 0 && strings.TrimSpace(rest[:j]) != "&&") {
				t.Errorf("chain of %q: step %d %q is not the next && operand of %q", in, i+1, s, span)
				break
			}
			rest = rest[j+len(s):]
		}
		if rest != "" {
			t.Errorf("chain of %q: %q left after the steps", in, rest)
		}
		seq := c.render(seqPrefix)
		words, err := cmdline.Split(seq)
		at := slices.Index(words, "--")
		if err != nil || at < 0 || !slices.Contains(words[:at], "seq") {
			t.Errorf("chain of %q renders as %q (%v)", in, seq, err)
			continue
		}
		var steps []string
		for i, w := range words[at+1:] {
			if (i%2 == 1) != (w == "--") {
				t.Errorf("chain of %q: %q does not alternate steps and --", in, seq)
			}
			if i%2 == 0 {
				steps = append(steps, w)
			}
		}
		if !slices.Equal(steps, c.Steps) {
			t.Errorf("chain of %q: ctx seq splits into %q, want %q", in, steps, c.Steps)
		}
		if !strings.Contains(d.Command, seq) {
			t.Errorf("rewrite %q lacks chain %q", d.Command, seq)
		}
		d.Command = strings.Replace(d.Command, seq, span, 1)
	}
	return d
}

// removeSites undoes the insertions using the offsets alone.
func removeSites(d Decision) string {
	out := d.Command
	for i := len(d.Sites) - 1; i >= 0; i-- {
		at := d.Sites[i].Offset + i*len(d.Prefix)
		if at+len(d.Prefix) > len(out) || out[at:at+len(d.Prefix)] != d.Prefix {
			return "<prefix not found at site>"
		}
		out = out[:at] + out[at+len(d.Prefix):]
	}
	return out
}

func TestRewriteOptions(t *testing.T) {
	tests := []struct {
		opt  Options
		in   string
		want string
	}{
		{Options{Program: "/usr/local/bin/ctx"}, "go test ./...", "/usr/local/bin/ctx run -- go test ./..."},
		{Options{Program: "/Users/me/My Tools/ctx"}, "go test", "'/Users/me/My Tools/ctx' run -- go test"},
		{Options{Program: "/opt/it's/ctx"}, "make", `'/opt/it'\''s/ctx' run -- make`},
		{Options{Session: "3f2a-9c"}, "FOO=1 go test", "FOO=1 CTX_SESSION=3f2a-9c ctx run -- go test"},
		{Options{Session: "bad id; rm -rf /"}, "go test", "ctx run -- go test"},
		{Options{RunArgs: []string{"--pipe", "--timeout=20m", "$(evil)", "--"}}, "make", "ctx run --pipe --timeout=20m -- make"},
		{Options{Session: "s1"}, "go test ./... && go vet ./...", "CTX_SESSION=s1 ctx seq -- 'go test ./...' -- 'go vet ./...'"},
		{Options{Session: "s1"}, "go test ./... || go vet ./...", "CTX_SESSION=s1 ctx run -- go test ./... || CTX_SESSION=s1 ctx run -- go vet ./..."},
		{Options{Program: "/opt/ctx", RunArgs: []string{"--pipe", "--timeout=20m"}}, "make && make test", "/opt/ctx seq --pipe --timeout=20m -- make -- 'make test'"},
		// ctx seq has no --max-output: the chain is wrapped command by command.
		{Options{RunArgs: []string{"--max-output=1M"}}, "make && make test", "ctx run --max-output=1M -- make && ctx run --max-output=1M -- make test"},
		{Options{Session: "s1"}, "time make", "time CTX_SESSION=s1 ctx run -- make"},
	}
	for _, tt := range tests {
		d := RewriteWith(tt.in, tt.opt)
		if d.Command != tt.want {
			t.Errorf("RewriteWith(%q, %+v) = %q, want %q", tt.in, tt.opt, d.Command, tt.want)
		}
		checkRoundTrip(t, tt.in, d)
	}
}

func TestDefaultPrefix(t *testing.T) {
	if got := (Options{}).prefix(); got != DefaultPrefix {
		t.Errorf("default prefix %q, want %q", got, DefaultPrefix)
	}
	if d := Rewrite("make"); d.Prefix != DefaultPrefix {
		t.Errorf("Rewrite prefix %q", d.Prefix)
	}
}

func TestRewriteTooLong(t *testing.T) {
	cmd := "go test ./... # " + strings.Repeat("x", MaxCommandBytes)
	if d := Rewrite(cmd); d.Rewrite || d.Reason != ReasonTooLong {
		t.Errorf("got %s %v, want too-long and unchanged", d.Reason, d.Rewrite)
	}
}

func TestRewriteAlreadyUsingPrefix(t *testing.T) {
	// A custom program name is recognised too, so the prefix stays unique.
	opt := Options{Program: "/opt/bin/ctx2"}
	in := "echo '/opt/bin/ctx2 run -- '; go test ./..."
	if d := RewriteWith(in, opt); d.Rewrite || d.Reason != ReasonAlreadyCtx {
		t.Errorf("got %s %q", d.Reason, d.Command)
	}
}

func FuzzRewrite(f *testing.F) {
	for _, r := range loadTable(f) {
		f.Add(r.command)
	}
	for _, s := range []string{
		"go test $(printf '%s' \"$x\") | tee >(cat) && { pytest; } 2>&1",
		"a=1 b=$'x\\ny' go test -- \"$@\"",
		"case $x in a) go test;; esac; go test",
		"cat <<-EOF\n\tgo test\n\tEOF\ngo test",
		"go test & go test; go test |& go test",
		"coproc go test; go test",
		"[[ -f x ]] && go test || (make; make)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d := Rewrite(in)
		checkRoundTrip(t, in, d)
		if d.Rewrite {
			// A rewrite never happens to text that was not valid Bash.
			if _, err := syntax.NewParser().Parse(strings.NewReader(in), ""); err != nil {
				t.Errorf("rewrote unparsable input %q", in)
			}
		}
	})
}

func BenchmarkRewrite(b *testing.B) {
	cmds := []string{
		"cd backend && go test ./... 2>&1",
		"git status",
		"npm run build && npm test && git diff --stat",
		"python -m pytest tests/ -v 2>&1 | head -100",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Rewrite(cmds[i%len(cmds)])
	}
}

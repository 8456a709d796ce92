package seq

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/storetest"
)

func newEnv(t testing.TB) (*runner.Env, string) {
	t.Helper()
	st, dir := storetest.Open(t)
	return &runner.Env{Store: st, Environ: []string{"PATH=" + os.Getenv("PATH")}, Host: "testhost", PID: 42, Version: "test"}, dir
}

func threeSteps(t *testing.T) []Step {
	t.Helper()
	steps, err := FromArgs([]string{
		`echo built`, "--",
		`echo "main.go:3:1: undefined: foo" >&2; exit 2`, "--",
		`echo linted`})
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

// TestFailingMiddleStep: the sequence exits with the failing step's status,
// lists the third step as skipped, keeps each ran step retrievable, and the
// same outcomes give the same digest bytes and the same seq: handle.
func TestFailingMiddleStep(t *testing.T) {
	env, dir := newEnv(t)
	rec, err := Run(context.Background(), env, threeSteps(t), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Exit != 2 {
		t.Errorf("exit %d, want the failing step's 2", rec.Exit)
	}
	states := []string{rec.Steps[0].State, rec.Steps[1].State, rec.Steps[2].State}
	if strings.Join(states, ",") != "ok,failed,skipped" {
		t.Errorf("states %v", states)
	}
	d := rec.Digest
	// Every byte the ran steps printed is shown (step 1's one line as its
	// row's headline, step 2's output under its row): the header says so
	// and there is no coverage line to pad it. Rows of sub-second steps
	// carry no bucket; step 2's default name is cut after its closing
	// quote, the words that tell it from the others; the skipped step is
	// listed on its row.
	for _, want := range []string{rec.Handle() + " [#N] · whole output\n",
		"\n#1 ok echo built · built\n", "\n#2 exit 2 echo \"main.go:3:1: undefined: foo\"…\n",
		"\nmain.go:3:1: undefined: foo\n", "\n#3 skipped echo linted\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("digest lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "coverage:") || strings.Count(d, "built") != 2 {
		t.Errorf("a whole digest with a coverage line, or step 1's output twice:\n%s", d)
	}
	if rec.Coverage.Ran != 2 || rec.Coverage.Skipped != 1 || rec.Coverage.Inline != rec.Coverage.Identities {
		t.Errorf("coverage %+v", rec.Coverage)
	}
	if _, err := Save(env.Store, rec); err != nil {
		t.Fatal(err)
	}
	ref, err := ParseRef(rec.Handle() + "#2#stderr")
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(env.Store, ref)
	if err != nil || back.Digest != d {
		t.Fatalf("load: %v, digest same %v", err, back != nil && back.Digest == d)
	}
	h, err := back.StepHandle(ref)
	if err != nil {
		t.Fatal(err)
	}
	sh, _ := store.ParseHandle(h)
	tg, err := env.Store.Resolve(sh)
	if err != nil || tg.Run == nil || tg.Run.Manifest.Exit != 2 {
		t.Fatalf("step 2 resolves to %+v, %v", tg, err)
	}
	// A row's #N is the run seq:ID#N names: the row prints the handle
	// relative to the sequence's.
	for i, r := range back.Steps[:2] {
		row := regexp.MustCompile(`\n(#\d+) [^\n]*`).FindAllStringSubmatch(d, -1)[i][1]
		rr, err := ParseRef(rec.Handle() + row)
		if err != nil {
			t.Fatal(err)
		}
		if h, err := back.StepHandle(rr); err != nil || h != "run:"+r.Run {
			t.Errorf("row %s of step %d resolves to %q, %v; want run:%s", row, i+1, h, err, r.Run)
		}
	}
	if _, err := back.StepHandle(Ref{Prefix: ref.Prefix, Step: 3}); !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "skipped") {
		t.Errorf("a skipped step's run: %v", err)
	}
	again, err := Run(context.Background(), env, threeSteps(t), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Digest != d || again.Handle() != rec.Handle() {
		t.Errorf("not deterministic:\n%s\n---\n%s", d, again.Digest)
	}
}

// TestContinueOnFailure: a step that may fail lets the next run; the exit
// status is still the first failure's, and both failures share one budget.
func TestContinueOnFailure(t *testing.T) {
	env, dir := newEnv(t)
	steps, err := FromTOML([]byte(`
[[step]]
name = "first"
shell = "echo 'a.go:1:1: first problem' >&2; exit 3"
continue_on_failure = true

[[step]]
name = "second"
argv = ["sh", "-c", "echo \"b.go:2:2: second problem $WHO\" >&2; exit 4"]
env = { WHO = "visible" }
timeout = "30s"
`))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true, Digest: digestBudget(200)})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Exit != 3 || rec.Coverage.Failed != 2 || rec.Coverage.Skipped != 0 {
		t.Errorf("exit %d coverage %+v", rec.Exit, rec.Coverage)
	}
	if !strings.Contains(rec.Digest, "first problem") || !strings.Contains(rec.Digest, "second problem visible") {
		t.Errorf("digest:\n%s", rec.Digest)
	}
}

// TestStartFailure: a step whose command does not exist fails with 127 and
// a hint, and stops the sequence; nothing before it is lost.
func TestStartFailure(t *testing.T) {
	env, dir := newEnv(t)
	steps := []Step{{Shell: "echo one"}, {Argv: []string{"no-such-command-ctx-test"}}, {Shell: "echo three"}}
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Exit != 127 || rec.Steps[0].Run == "" || rec.Steps[2].State != StateSkipped {
		t.Errorf("exit %d steps %+v", rec.Exit, rec.Steps)
	}
	if !strings.Contains(rec.Digest, "ctx: ") {
		t.Errorf("digest does not say why step 2 failed:\n%s", rec.Digest)
	}
	if h := rec.Steps[1].Error; strings.Contains(h, "--shell") || !strings.Contains(h, "shell = ") {
		t.Errorf("step 2's hint %q names a flag ctx seq does not have, not the step's shell field", h)
	}
}

func digestBudget(n int) (o digest.Options) {
	o.Budget = n
	return o
}

// TestBadSteps: each bad declaration is a clear error naming the problem.
func TestBadSteps(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown field", "[[step]]\nshell = \"true\"\nretries = 3\n", `line 3 column 1: unknown field "step.retries"`},
		{"empty", "", "no steps"},
		{"no command", "[[step]]\nname = \"x\"\n", "step 1: no command"},
		{"both", "[[step]]\nshell = \"true\"\nargv = [\"true\"]\n", "argv or shell, not both"},
		{"bad timeout", "[[step]]\nshell = \"true\"\ntimeout = \"soon\"\n", `timeout "soon"`},
		{"syntax", "[[step]\nshell = \"true\"\n", "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromTOML([]byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
	if _, err := FromArgs(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("no arguments: %v", err)
	}
	if _, err := FromLines(strings.NewReader("# only a comment\n\n")); !errors.Is(err, ErrEmpty) {
		t.Errorf("no lines: %v", err)
	}
	for _, h := range []string{"seq:", "seq:xyz123", "seq:abcdef#", "seq:abcdef#0", "seq:abcdef#2x", "run:abcdef"} {
		if _, err := ParseRef(h); !errors.Is(err, store.ErrBadHandle) {
			t.Errorf("ParseRef(%q): %v", h, err)
		}
	}
}

func TestFromArgs(t *testing.T) {
	steps, err := FromArgs([]string{"go build ./...", "--", "go", "vet", "./..."})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(steps[0].Command(), "|"); got != "sh|-c|go build ./..." {
		t.Errorf("step 1 %q", got)
	}
	if got := strings.Join(steps[1].Command(), "|"); got != "go|vet|./..." || steps[1].Name != "go vet ./..." {
		t.Errorf("step 2 %q name %q", got, steps[1].Name)
	}
}

func TestBucket(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "<1s", 999 * time.Millisecond: "<1s", time.Second: "<10s",
		30 * time.Second: "<1m", 5 * time.Minute: "<10m", time.Hour: ">10m"} {
		if got := Bucket(d); got != want {
			t.Errorf("Bucket(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestTimeoutAndInterrupt: a step past its timeout fails with 124 and stops
// the sequence; an interrupt during a step keeps what it captured, skips the
// rest, and the record is still made.
func TestTimeoutAndInterrupt(t *testing.T) {
	env, dir := newEnv(t)
	steps := []Step{{Shell: "echo started; sleep 20", Timeout: "500ms"}, {Shell: "echo never"}}
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Exit != 124 || rec.Steps[0].Status != "timeout" || rec.Steps[1].State != StateSkipped {
		t.Errorf("timeout: exit %d steps %+v", rec.Exit, rec.Steps)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	rec, err = Run(ctx, env, []Step{{Shell: "echo first"}, {Shell: "echo second; sleep 20"}, {Shell: "echo third"}},
		Options{Dir: dir, Pipe: true, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Steps[0].State != StateOK || rec.Steps[1].Run == "" || rec.Steps[1].State != StateFailed || rec.Steps[2].State != StateSkipped {
		t.Errorf("interrupt: %+v", rec.Steps)
	}
	if !strings.Contains(rec.Digest, "second") {
		t.Errorf("the interrupted step's output is not in the digest:\n%s", rec.Digest)
	}
}

// TestLongStepStoresTheOnesBefore: while a step runs past the linger, the
// finished step before it is already stored and readable by others (here
// the test, through the store), not held until the sequence ends. The
// second step waits for the test to have seen the first run (at most 5 s).
func TestLongStepStoresTheOnesBefore(t *testing.T) {
	env, dir := newEnv(t)
	seen := dir + "/seen"
	steps, err := FromArgs([]string{`echo first`, "--",
		`i=0; while [ ! -e seen ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; test -e seen`})
	if err != nil {
		t.Fatal(err)
	}
	found := make(chan bool, 1)
	go func() {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if execs, err := env.Store.Execs(0, nil); err == nil && len(execs) == 1 {
				found <- os.WriteFile(seen, nil, 0o600) == nil
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		found <- false
	}()
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true, Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !<-found {
		t.Fatal("the first step's run was not stored while the second ran")
	}
	if rec.Exit != 0 || rec.Steps[1].State != StateOK {
		t.Errorf("exit %d, second step %s: it should have seen the marker", rec.Exit, rec.Steps[1].State)
	}
	if execs, err := env.Store.Execs(0, nil); err != nil || len(execs) != 2 {
		t.Errorf("%d runs stored (%v), want 2", len(execs), err)
	}
}

// TestPartialDigest: when some output is left out, one coverage line
// accounts for all steps (a passing step's lines as retrievable through its
// run), a failing step that printed nothing says so on its row, and the
// step's findings keep a next: line whose command runs as printed.
func TestPartialDigest(t *testing.T) {
	env, dir := newEnv(t)
	steps := []Step{
		{Shell: `for i in $(seq 1 400); do echo "line $i of a long passing step"; done`},
		{Shell: "exit 3", ContinueOnFailure: true},
		{Shell: `for i in $(seq 1 300); do echo "noise $i"; done; echo "error: step three broke at line 301" >&2; exit 4`},
	}
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	d := rec.Digest
	if rec.Exit != 3 || strings.Contains(d, "whole output") || !strings.Contains(d, "\ncoverage: ") {
		t.Fatalf("exit %d, digest:\n%s", rec.Exit, d)
	}
	rows := regexp.MustCompile(`(?m)^#\d+ .*$`).FindAllString(d, -1)
	if len(rows) != 3 || !strings.HasSuffix(rows[0], " · line 1 of a long passing step") ||
		rows[1] != "#2 exit 3 exit 3 · no output" || !strings.HasPrefix(rows[2], "#3 exit 4 ") {
		t.Errorf("rows %q", rows)
	}
	if strings.Contains(d, "line 2 of a long") {
		t.Errorf("a passing step's output beyond its headline is shown:\n%s", d)
	}
	if !strings.Contains(d, "step three broke") {
		t.Errorf("step 3's finding is missing:\n%s", d)
	}
	c := rec.Coverage
	if c.Ran != 3 || c.Failed != 2 || c.BytesShown >= c.BytesCaptured || c.RequiredUnrepresented != 0 {
		t.Errorf("coverage %+v", c)
	}
	want := "shown " + contractSize(c.BytesShown) + " of " + contractSize(c.BytesCaptured)
	if !strings.Contains(d, want) {
		t.Errorf("the coverage line does not say %q:\n%s", want, d)
	}
	// The one next: line names a command that works as printed: a run:
	// handle, or seq:ID#N for the step.
	next := regexp.MustCompile(`(?m)^next: ctx get (\S+)`).FindAllStringSubmatch(d, -1)
	if len(next) != 1 {
		t.Fatalf("next lines %v:\n%s", next, d)
	}
	h := next[0][1]
	// Step 3's own next: line, its lines named relative to the sequence and
	// to the findings under its row (step 1's headline is above them too).
	if line := regexp.MustCompile(`(?m)^next: .*$`).FindString(d); !strings.Contains(line, " under #3 are lines of #3#std") ||
		strings.Contains(line[strings.Index(line, "  ("):], "run:") {
		t.Errorf("next line %q", line)
	}
	if strings.HasPrefix(h, "seq:") {
		ref, err := ParseRef(h)
		if err != nil {
			t.Fatal(err)
		}
		if h, err = rec.StepHandle(ref); err != nil {
			t.Fatal(err)
		}
	}
	sh, err := store.ParseHandle(h)
	if err != nil {
		t.Fatalf("next handle %q: %v", h, err)
	}
	if tg, err := env.Store.Resolve(sh); err != nil || tg.Run == nil || tg.Run.Manifest.Exit == 0 {
		t.Errorf("next %q resolves to %+v, %v", h, tg, err)
	}
}

func contractSize(n int64) string { return contract.Size(n) }

// TestRowLikeOutput: a failing step's output line that starts as a row does
// (docker build's "#5 [2/4] RUN …") is indented, so every line starting
// with #N is a row; the output is still shown whole.
func TestRowLikeOutput(t *testing.T) {
	env, dir := newEnv(t)
	rec, err := Run(context.Background(), env, []Step{{Shell: `echo "#1 [internal] load build definition"; echo "#2 ERROR: failed"; exit 1`}, {Shell: "true"}}, Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^#\d+ .*$`).FindAllString(rec.Digest, -1)
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "#1 exit 1 echo \"#1 [internal]") || rows[1] != "#2 skipped true" ||
		!strings.Contains(rec.Digest, "\n  #1 [internal] load build definition\n  #2 ERROR: failed\n") ||
		!strings.Contains(rec.Digest, " · whole output\n") {
		t.Errorf("rows %q:\n%s", rows, rec.Digest)
	}
}

// TestLabels: a default name is cut to the words that tell the step apart,
// at least two that are not options and never inside a shell quote; a name
// the steps file gave, or a command given twice, is printed whole.
func TestLabels(t *testing.T) {
	argv := func(name string, words ...string) StepResult {
		if name == "" {
			name = cutName(strings.Join(words, " "))
		}
		return StepResult{Name: name, Argv: words}
	}
	shell := func(line string) StepResult {
		return StepResult{Name: cutName(strings.Join(strings.Fields(line), " ")), Argv: []string{"sh", "-c", line}}
	}
	for _, tc := range []struct {
		steps []StepResult
		want  []string
	}{
		{[]StepResult{argv("", "go", "build", "./..."), argv("", "go", "test", "-count=1", "-v", "./..."), argv("", "go", "vet", "./...")},
			[]string{"go build…", "go test…", "go vet…"}},
		{[]StepResult{argv("", "go", "test", "./a/..."), argv("", "go", "test", "./b/...")}, []string{"go test ./a/...", "go test ./b/..."}},
		{[]StepResult{argv("", "make"), argv("", "make", "test"), argv("", "make", "lint", "-j4")}, []string{"make", "make test", "make lint…"}},
		{[]StepResult{argv("", "pytest", "-q", "tests/"), argv("", "go", "test", "-run", "X", "./...")}, []string{"pytest -q tests/", "go test…"}},
		{[]StepResult{argv("unit tests", "go", "test", "./..."), argv("", "go", "vet", "./...")}, []string{"unit tests", "go vet…"}},
		{[]StepResult{argv("", "go", "vet", "./..."), argv("", "go", "vet", "./...")}, []string{"go vet ./...", "go vet ./..."}},
		{[]StepResult{shell(`echo "a b c" d e`), shell("echo done")}, []string{`echo "a b c"…`, "echo done"}},
		{[]StepResult{argv("", "sh", "-c", "echo hi; exit 3")}, []string{"sh -c echo hi; exit 3"}},
		{[]StepResult{shell("go build ./..."), shell("go test ./... && go vet ./...")}, []string{"go build…", "go test…"}},
	} {
		if got := labels(tc.steps); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("labels %q, want %q", got, tc.want)
		}
	}
}

// TestRowBucket: a row shows the duration bucket of a step that took a
// second or more, and none for a quicker one.
func TestRowBucket(t *testing.T) {
	for _, tc := range []struct {
		r    StepResult
		want string
	}{
		{StepResult{N: 2, State: StateFailed, Exit: 1, Duration: "<10s"}, "#2 exit 1 <10s go test…"},
		{StepResult{N: 2, State: StateFailed, Exit: 124, Status: "timeout", Duration: "<1m"}, "#2 exit 124 (timeout) <1m go test…"},
		{StepResult{N: 1, State: StateOK, Duration: "<1s", Headline: "ok"}, "#1 ok go test… · ok"},
		{StepResult{N: 3, State: StateSkipped}, "#3 skipped go test…"},
	} {
		if got := row(&tc.r, "go test…", true); got != tc.want {
			t.Errorf("row %q, want %q", got, tc.want)
		}
	}
}

// TestPassingWholeOutput: a passing step's few lines, shown whole by its own
// digest, follow its row when that makes the sequence's every byte shown
// and costs no more than its headline and a coverage line; a passing step
// of many lines keeps to its headline, and the coverage line accounts for
// the rest.
func TestPassingWholeOutput(t *testing.T) {
	env, dir := newEnv(t)
	fail := Step{Shell: "echo 'x.go:1:1: broken' >&2; exit 1"}
	rec, err := Run(context.Background(), env, []Step{{Shell: "printf 'gen: warning one\\ngen: warning two\\n' >&2"}, fail}, Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	d := rec.Digest
	if !strings.HasSuffix(strings.SplitN(d, "\n", 2)[0], " [#N] · whole output") || strings.Contains(d, "coverage:") ||
		!regexp.MustCompile(`\n#1 ok printf [^\n]*…\ngen: warning one\ngen: warning two\n#2 exit 1 `).MatchString(d) {
		t.Errorf("a passing step's two lines are not shown whole under its row:\n%s", d)
	}
	if c := rec.Coverage; c.Inline != c.Identities || c.Retrievable != 0 {
		t.Errorf("coverage %+v: every item is shown", c)
	}
	long := Step{Shell: `for i in $(seq 1 20); do echo "line $i of a passing step that says a lot"; done`}
	rec, err = Run(context.Background(), env, []Step{long, fail}, Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	d = rec.Digest
	if strings.Contains(d, "whole output") || strings.Contains(d, "line 2 of") || !strings.Contains(d, " · line 1 of a passing step that says a lot\n") ||
		!strings.Contains(d, "\ncoverage: ") {
		t.Errorf("twenty passing lines shown whole, or not accounted for:\n%s", d)
	}
}

// A steps file's value of the wrong type names the step's key and what it
// wants, not the Go field it decodes into.
func TestFromTOMLTypeError(t *testing.T) {
	_, err := FromTOML([]byte("[[step]]\nshell = \"go test\"\ntimeout = 90\n"))
	if err == nil || !strings.Contains(err.Error(), `line 3 column 11: key "step.timeout": want a string`) || strings.Contains(err.Error(), "seq.Step") {
		t.Fatalf("timeout = 90: %v", err)
	}
}

// A step's stream and range are checked as the handle is parsed: the error
// names the handle as given, with the fix, never the run handle a step
// stands for (ctx get seq:ID#1#bogus named run:<64 hex digits>#bogus).
func TestParseRefChecksTheStepsStream(t *testing.T) {
	for _, c := range []struct{ h, why string }{
		{"seq:abcdef#1#bogus", `unknown stream "bogus"`},
		{"seq:abcdef#1#", "no stream after '#'"},
		{"seq:abcdef#1#stdout:", "nothing after ':'"},
		{"seq:abcdef#1:Lx", `"x" is not a number`},
		{"seq:abcdef#2#stderr:B5", "a byte range needs an end"},
	} {
		_, err := ParseRef(c.h)
		msg := fmt.Sprint(err)
		if !errors.Is(err, store.ErrBadHandle) || !strings.Contains(msg, strconv.Quote(c.h)) || !strings.Contains(msg, c.why) ||
			!strings.Contains(msg, "a step takes #stdout, #stderr or #merged, a range :L40-52 or :B0-4096, or both (seq:ID#2#stderr:L40-52)") || strings.Contains(msg, "run:") {
			t.Errorf("ParseRef(%q): %v, want the handle, %q and the forms", c.h, err, c.why)
		}
	}
	for _, h := range []string{"seq:abcdef#1", "seq:abcdef#1#stderr", "seq:abcdef#1#merged:L3-", "seq:abcdef#1:B0-10"} {
		if _, err := ParseRef(h); err != nil {
			t.Errorf("ParseRef(%q): %v", h, err)
		}
	}
}

// TestDefaultNameRedactsBeforeCut: a step named by its command, shell
// string or argv, is redacted before the name is cut to 40 characters: a
// credential cut in two no longer matches its rule and showed its first 30
// characters on the step's row.
func TestDefaultNameRedactsBeforeCut(t *testing.T) {
	tok := "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12"
	steps, err := FromArgs([]string{"echo " + tok, "--", "false", tok})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if strings.Contains(s.Name, "ghp_1a2B") || !strings.Contains(s.Name, "[REDACTED:") {
			t.Errorf("step name %q", s.Name)
		}
	}
}

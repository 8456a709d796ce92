package job

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func newJobDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeJSON(filepath.Join(dir, "job.json"), Spec{ID: "abcdef123456", Argv: []string{"sleep", "9"}, Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestState: a held lock is running; the same job with the lock free and no
// result is dead, never running; a result is done.
func TestState(t *testing.T) {
	dir := newJobDir(t)
	pid := os.Getpid()
	if err := writeJSON(filepath.Join(dir, "supervisor.json"), Supervisor{PID: pid, Ticks: startTicks(pid)}); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if j, _ := Read(dir); j.State != StateRunning || !j.Supervisor.alive() {
		t.Errorf("lock held: state %s alive %v", j.State, j.Supervisor.alive())
	}
	lock.Close() // the supervisor died: its lock is free
	if j, _ := Read(dir); j.State != StateDead {
		t.Errorf("lock free, no result: state %s", j.State)
	}
	// A recorded pid whose start time differs is another process.
	if (&Supervisor{PID: pid, Ticks: startTicks(pid) + 1}).alive() {
		t.Error("a reused pid passed for the supervisor")
	}
	if err := writeJSON(filepath.Join(dir, "result.json"), Result{Run: "run:0123456789ab", Exit: 3}); err != nil {
		t.Fatal(err)
	}
	if j, _ := Read(dir); j.State != StateDone || j.Result.Exit != 3 {
		t.Errorf("result: state %s", j.State)
	}
}

// TestTailNumbering: the live tail keeps the end of each stream, and its
// lines keep their numbers in the stream after the front is dropped.
func TestTailNumbering(t *testing.T) {
	dir := newJobDir(t)
	tl := newTail(filepath.Join(dir, "tail.json"))
	var out, errb bytes.Buffer
	w, ew := tl.Tap(&out), tl.Tap(&errb)
	line := strings.Repeat("x", 99) + "\n" // 100 bytes a line
	for i := 0; i < 2000; i++ {            // 200 KB: past the 64 KiB kept
		if _, err := w.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = w.Write([]byte("last line\n"))
	_, _ = ew.Write([]byte("err one\n"))
	tl.Stop()
	if out.Len() != 2000*100+10 {
		t.Fatalf("the tap lost bytes: %d", out.Len())
	}
	j, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, lines, err := Tail(j, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Stdout.Lines != 2001 || snap.Stdout.Bytes != int64(out.Len()) || len(snap.Stdout.Text) > tailKeep {
		t.Errorf("stdout %d lines %d bytes, %d kept", snap.Stdout.Lines, snap.Stdout.Bytes, len(snap.Stdout.Text))
	}
	if len(lines) != 3 || lines[1].N != 2001 || lines[1].Text != "last line" || lines[0].N != 2000 || lines[2].Stream != "stderr" || lines[2].N != 1 {
		t.Errorf("lines %+v", lines)
	}
	_, lines, _ = Tail(j, 5, regexp.MustCompile("^err"))
	if len(lines) != 1 || lines[0].Text != "err one" {
		t.Errorf("grep: %+v", lines)
	}
}

func TestParseID(t *testing.T) {
	for _, bad := range []string{"", "job:", "job:xyz", "job:0123456789abcdef", "run:abcdef"} {
		if _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
	if id, err := ParseID("job:abcdef123456"); err != nil || id != "abcdef123456" {
		t.Errorf("%q %v", id, err)
	}
}

// A job whose supervisor never recorded itself is dead with no pid to
// name: the listing says it never started, not "supervisor (pid 0)".
func TestDeadWithoutSupervisor(t *testing.T) {
	dir := t.TempDir()
	if err := writeJSON(filepath.Join(dir, "job.json"), Spec{ID: "abcdef123456", Argv: []string{"sleep", "9"}, Created: time.Now().UTC().Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	j, err := Read(dir)
	if err != nil || j.State != StateDead {
		t.Fatalf("state %v, err %v; want dead", j, err)
	}
	s := Summary(j)
	if strings.Contains(s, "pid 0") || !strings.Contains(s, "never started") || !strings.Contains(s, filepath.Join(dir, "supervisor.log")) {
		t.Errorf("summary %q: want it to say the supervisor never started and where its log is", s)
	}
	pid := os.Getpid()
	if err := writeJSON(filepath.Join(dir, "supervisor.json"), Supervisor{PID: pid, Ticks: startTicks(pid)}); err != nil {
		t.Fatal(err)
	}
	if j, _ = Read(dir); !strings.Contains(DeadNote(j), "(pid "+strconv.Itoa(pid)+") died") {
		t.Errorf("a supervisor that recorded itself: %q", DeadNote(j))
	}
}

// TestTailAndSummaryRedacted: a job's live tail and its command line reach
// the agent (ctx job tail, ctx get job:ID, ctx job ls/show, ctx run --bg),
// so a credential in either is redacted, and line numbers are kept.
func TestTailAndSummaryRedacted(t *testing.T) {
	const secret = "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"
	dir := t.TempDir()
	if err := writeJSON(filepath.Join(dir, "job.json"), Spec{ID: "abcdef123456", Argv: []string{"sh", "-c", "echo " + secret}, Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	snap := Snapshot{Stdout: Stream{Bytes: 60, Lines: 3, First: 1, Text: "one\ntoken " + secret + "\nthree\n"}}
	if err := writeJSON(filepath.Join(dir, "tail.json"), snap); err != nil {
		t.Fatal(err)
	}
	j, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTail(&b, j, 10, nil); err != nil {
		t.Fatal(err)
	}
	all := b.String() + "\n" + Summary(j) + "\n" + Command(j)
	if strings.Contains(all, secret) {
		t.Errorf("a job view prints the secret:\n%s", all)
	}
	if !strings.Contains(b.String(), "stdout:L2  token [REDACTED:github-pat:") || !strings.Contains(b.String(), "stdout:L3  three") {
		t.Errorf("the tail lost its lines or numbers:\n%s", b.String())
	}
}

package taskcmd

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/ledger"
	"github.com/ctxhq/ctx/store"
)

// TestListingEscapesStoredControls: a task row written before titles were
// bounded (or by another tool) may hold a newline and ESC sequences; ctx
// task ls and show print it escaped on its one line, so a title can neither
// forge a row of the listing nor drive the terminal. --json keeps it exact.
func TestListingEscapesStoredControls(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ctx")
	st, err := store.Open(store.Location{Dir: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	title := "fake\ntask:000000000000  done \x1b[2J"
	_, err = ledger.Log.AppendChecked(st, func(rows [][]byte, seq uint64) (string, map[string]any, error) {
		return ledger.KindTask, map[string]any{"v": ledger.Version, "task": "0123456789ab", "at": "2026-12-01T00:00:00.000000000Z",
			"title": title, "dir": ".", "accept": []string{"true"}, "turns": 0, "cost": 0, "wall": "0s"}, nil
	}, time.Now())
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CTX_STORE", dir)
	env := map[string]string{"CTX_STORE": dir}
	ios := func(out *bytes.Buffer) *cli.IO {
		return &cli.IO{In: strings.NewReader(""), Out: out, Err: out, Getwd: func() (string, error) { return t.TempDir(), nil },
			Getenv: func(k string) string { return env[k] }}
	}
	var ls, show, js bytes.Buffer
	if err := runTaskLs(ios(&ls), &taskShowOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := runTaskShow(ios(&show), &taskShowOptions{task: "task:0123456789ab"}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"ls": ls.String(), "show": show.String()} {
		if strings.Contains(out, "\x1b") || !strings.Contains(out, `fake\ntask:000000000000  done \e[2J`) {
			t.Errorf("%s prints the title unescaped:\n%q", name, out)
		}
	}
	if strings.Count(ls.String(), "\n") != 1 {
		t.Errorf("ls: one task, %d lines", strings.Count(ls.String(), "\n"))
	}
	if err := runTaskLs(ios(&js), &taskShowOptions{json: true}); err != nil || !strings.Contains(js.String(), `\u001b[2J`) {
		t.Errorf("--json: %v %s", err, js.String())
	}
}

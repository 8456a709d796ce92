package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/uicmd"
	"github.com/ctxhq/ctx/internal/testenv"
	"github.com/ctxhq/ctx/ui"
)

// TestUIInChromium drives ctx ui's page in a real headless Chromium over a
// real store: load the list of runs, open a run, jump to its failure (the
// page's own script, on #fail), click a line number to copy its handle, and
// take a screenshot.
func TestUIInChromium(t *testing.T) {
	chromium := testenv.Tool(t, "apt-get install chromium", "chromium", "chromium-browser", "google-chrome")
	work := t.TempDir()
	if err := exec.Command("git", "init", "-q", work).Run(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CTX_STORE", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(work, ".state"))
	run := exec.Command(ctxBinary(t), "run", "--shell", "--", `for i in $(seq 1 640); do echo "step $i ok"; done; printf '\033[31merror: widget 7 exploded\033[0m\n'; exit 1`)
	run.Dir, run.Env = work, append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(work, ".state"))
	digest, _ := run.Output()
	handle := regexp.MustCompile(`run:[0-9a-f]{12}`).FindString(string(digest))
	if handle == "" {
		t.Fatalf("no run handle in:\n%s", digest)
	}

	ios := &cli.IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{},
		Getwd: func() (string, error) { return work, nil }, Getenv: func(string) string { return "" }}
	mux := http.NewServeMux()
	mux.Handle("/", ui.Handler(uicmd.Source(ios)))
	// A harness page on the same origin clicks a line number inside the run
	// page, as a person would, and shows what the page's status bar says.
	mux.HandleFunc("/harness", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><body><pre id="result">pending</pre>
<iframe id="f" src="/run?h=%s&amp;page=1" width="800" height="600"></iframe>
<script>
var f = document.getElementById("f");
f.onload = function () {
  var d = f.contentDocument;
  d.querySelector("#L5 .n").click();
  setTimeout(function () {
    document.getElementById("result").textContent = "status=" + d.getElementById("status").textContent +
      " hash=" + f.contentWindow.location.hash + " current=" + d.querySelector(".current").id;
  }, 500);
};
</script></body></html>`, handle)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	browse := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
			"--user-data-dir=" + filepath.Join(work, ".chromium")}
		out, err := exec.CommandContext(ctx, chromium, append(base, args...)...).Output()
		if err != nil {
			t.Fatalf("chromium %v: %v", args, err)
		}
		return string(out)
	}

	// Load the page: the run is listed, marked failed, and links to itself.
	dom := browse("--dump-dom", srv.URL+"/")
	if !strings.Contains(dom, `<tr class="failed">`) || !strings.Contains(dom, ">"+handle+"</a>") {
		t.Fatalf("the list of runs lacks %s:\n%s", handle, dom)
	}
	// Open the run on page 2 and let the page jump to the failure.
	page := srv.URL + "/run?h=" + handle + "&page=2#fail"
	dom = browse("--dump-dom", page)
	cur := regexp.MustCompile(`<div class="l fail current" id="L641">.*?</div>`).FindString(dom)
	if !strings.Contains(cur, `<span class="fg1">error: widget 7 exploded</span>`) {
		t.Fatalf("the failure line is not the current line, in colour:\n%s", dom)
	}
	if !strings.Contains(dom, `<span id="status" role="status">`+handle+`#stdout:L641</span>`) {
		t.Errorf("the status bar does not show the failure's handle")
	}
	if !strings.Contains(dom, "$ sh -c") || !strings.Contains(dom, "exit 1") {
		t.Errorf("the digest is not on the page")
	}
	// Copy a handle: clicking line 5's number marks the line, puts its
	// handle in the URL and the status bar (copied, or shown to copy when
	// the browser refuses the clipboard).
	dom = browse("--dump-dom", "--virtual-time-budget=5000", srv.URL+"/harness")
	want := regexp.MustCompile(`status=(copied )?` + handle + `#stdout:L5 hash=#L5 current=L5`)
	if !want.MatchString(dom) {
		t.Errorf("clicking a line number did not offer its handle:\n%s", regexp.MustCompile(`(?s)<pre id="result">.*?</pre>`).FindString(dom))
	}
	// A screenshot, kept where CI can collect it when CTX_UI_SHOTS is set.
	dir := os.Getenv("CTX_UI_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	shot := filepath.Join(dir, "ctx-ui-failure.png")
	// Tall enough to hold the whole page: headless Chromium paints a blank
	// viewport after a scroll on load, and the page scrolls to the failure.
	browse("--screenshot="+shot, "--window-size=1200,4000", "--hide-scrollbars", page)
	png, err := os.ReadFile(shot)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10<<10 {
		t.Fatalf("screenshot %s: %d bytes, %v", shot, len(png), err)
	}
}

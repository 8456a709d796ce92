package continuitycmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/continuity"
	"github.com/ctxhq/ctx/internal/cli"
)

// TestContinuityCommandsBothForms: the text and --json forms of seal and
// verify say the same thing, with the run function called directly.
func TestContinuityCommandsBothForms(t *testing.T) {
	work := t.TempDir()
	t.Setenv("CTX_STORE", filepath.Join(work, ".ctx"))
	var out, errb bytes.Buffer
	ios := &cli.IO{In: strings.NewReader(`{"a":["x"],"b":["y"]}`), Out: &out, Err: &errb, Getwd: func() (string, error) { return work, nil },
		Getenv: func(string) string { return "" }}
	if err := runContinuitySeal(ios, &continuitySealOptions{path: "-", label: "l", idScheme: "index"}); err != nil {
		t.Fatal(err)
	}
	digest := strings.SplitN(out.String(), "\n", 2)[0]
	ios.In = strings.NewReader(`{"b":["y"],"a":["x"]}`)
	out.Reset()
	if err := runContinuitySeal(ios, &continuitySealOptions{path: "-", label: "l", idScheme: "index", json: true}); err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["digest"] != digest || rec["label"] != "l" || rec["created_at"] == "" {
		t.Fatalf("--json record %v, text digest %s", rec, digest)
	}
	if err := runContinuitySeal(ios, &continuitySealOptions{path: "-", idScheme: "position"}); err == nil || !strings.Contains(err.Error(), "want index or content") {
		t.Errorf("bad --id-scheme: %v", err)
	}
	handle := continuity.HandleOf(continuity.SnapScheme, digest)
	ios.In = strings.NewReader(`{"a:0":"x","b:0":"Y"}`)
	out.Reset()
	err := runContinuityVerify(ios, &continuityVerifyOptions{handle: handle, restated: "-"})
	if code, failed := cli.ExitOf(err); failed || code != ExitNotFaithful {
		t.Fatalf("divergent verify: %v", err)
	}
	if !strings.Contains(out.String(), `b:0 differs: declared "y", restated "Y"`) {
		t.Errorf("text verdict:\n%s", out.String())
	}
	ios.In = strings.NewReader(`{"a:0":"x","b:0":"Y"}`)
	out.Reset()
	_ = runContinuityVerify(ios, &continuityVerifyOptions{handle: handle, restated: "-", json: true})
	var v continuity.Verdict
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Faithful || v.Divergences[0].ID != "b:0" {
		t.Errorf("json verdict %+v (%v)", v, err)
	}
}

func TestBoundVerdict(t *testing.T) {
	v := continuity.Verdict{Faithful: false, Mode: "strict", BySeverity: map[string][]string{}, Notes: []string{"n"}}
	for i := range 2000 {
		v.Divergences = append(v.Divergences, continuity.Divergence{ID: fmt.Sprintf("f:%d", i), Field: "f", Declared: strings.Repeat("x", 50), Reason: "missing", Severity: "notable"})
	}
	var b bytes.Buffer
	if err := cli.WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= 64<<10 {
		t.Fatalf("test verdict is only %d bytes", b.Len())
	}
	out := boundVerdict(b.Bytes(), 64<<10)
	var got continuity.Verdict
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(out) > 64<<10 {
		t.Fatalf("bounded verdict: %d bytes, %v", len(out), err)
	}
	if len(got.Divergences) == 0 || len(got.Divergences) >= 2000 || !strings.Contains(got.Notes[len(got.Notes)-1], "of 2000 divergences") {
		t.Fatalf("bounded verdict lists %d divergences, notes %q", len(got.Divergences), got.Notes)
	}
	if small := boundVerdict([]byte(`{"faithful":true}`), 64<<10); small != `{"faithful":true}` {
		t.Errorf("a small verdict changed: %s", small)
	}
}

package gotest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// eventEdgeCases are lines on which a hand-written JSON reader is easy to
// get wrong.
var eventEdgeCases = []string{
	`{"Action":"run","Test":"TestA"}`,
	` {"Action" : "output", "Output":"a\tb\n\"q\" \\ \/ \b\f\r"} `,
	`{"Action":"output","Output":"\u00e9\ud83d\ude00"}`,
	`{"Action":"output","Output":"caf` + "\xc3\xa9" + `"}`,
	`{"Action":"output","Output":"bad ` + "\xff" + `"}`,
	`{"action":"run","Action":"pass"}`,
	`{"Action":"pass","action":"run"}`,
	`{"ACTION":"run"}`,
	`{"Action":"run","Action":"pass"}`,
	`{"Action":1}`,
	`{"Action":null,"Test":"T"}`,
	`{"Action":"run","Elapsed":0.01,"N":-1e+5,"Z":0}`,
	`{"Action":"run","Elapsed":01}`,
	`{"Action":"run","Elapsed":1.}`,
	`{"Action":"run","Extra":{"a":[1,true,null]}}`,
	`{"Action":"run",}`,
	`{"Action":"run"} x`,
	`{"Action":"run"`,
	`{"Action":"ru` + "\n" + `n"}`,
	`{"Action":"run\x"}`,
	`{"Action":"run","Time":"\0"}`,
	`{}`,
	`{"Test":"T"}`,
	`{"Action":"output","Package":"p","Output":"--- FAIL: TestX (0.00s)\n"}`,
	`{"Action":"build-output","ImportPath":"p [p.test]","Output":"# p\n"}`,
	`{"Action":"fail","Package":"p","FailedBuild":"p [p.test]"}`,
}

// TestScanEventMatchesJSON holds the direct scan to encoding/json: on every
// line it decodes itself (every line of the real outputs in testdata, the
// benchmark's and the shared corpus's), it must give what json.Unmarshal
// gives, and decodeEvent must agree with json.Unmarshal on every line.
func TestScanEventMatchesJSON(t *testing.T) {
	lines := append([]string(nil), eventEdgeCases...)
	var files []string
	for _, pat := range []string{"testdata/*.stdout", "testdata/*.stderr", "testdata/bench/*.gz", "testdata/realrun/*/stdout", "../../../shared/corpus/gotest/*.txt"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	fast := 0
	for _, f := range files {
		for _, l := range bytes.Split(profiletest.ReadCapture(t, f), []byte("\n")) {
			lines = append(lines, string(l))
		}
	}
	var prev event
	for _, l := range lines {
		if checkEvent(t, []byte(l), nil) {
			fast++
		}
		// Again with the event before, as the parser decodes: reusing its
		// strings must not change a value.
		checkEvent(t, []byte(l), &prev)
		if ev, ok := decodeEvent([]byte(l), &prev); ok {
			prev = ev
		}
	}
	if fast < 5000 {
		t.Fatalf("the scan decoded only %d of %d lines itself", fast, len(lines))
	}
}

// checkEvent compares scanEvent and decodeEvent (given prev) with
// encoding/json on one line and reports whether the scan decoded it.
func checkEvent(t *testing.T, line []byte, prev *event) bool {
	t.Helper()
	var want event
	err := json.Unmarshal(line, &want)
	got, fast := scanEvent(line, prev)
	if fast && (err != nil || got != want) {
		t.Errorf("scanEvent(%q) = %+v, json.Unmarshal = %+v (%v)", line, got, want, err)
	}
	dev, ok := decodeEvent(line, prev)
	if wantOK := err == nil && want.Action != ""; ok != wantOK || ok && dev != want {
		t.Errorf("decodeEvent(%q) = %+v, %v; want %+v, %v", line, dev, ok, want, wantOK)
	}
	return fast
}

// FuzzScanEvent holds the scan to encoding/json on arbitrary lines.
func FuzzScanEvent(f *testing.F) {
	for _, l := range eventEdgeCases {
		f.Add([]byte(l))
	}
	if b, err := os.ReadFile("testdata/json.stdout"); err == nil {
		for _, l := range bytes.Split(b, []byte("\n"))[:50] {
			f.Add(l)
		}
	}
	prev := event{Action: "output", Package: "p", Test: "TestA", Output: "x\n"}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkEvent(t, line, nil)
		checkEvent(t, line, &prev)
	})
}

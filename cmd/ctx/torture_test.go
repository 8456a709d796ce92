package main

import (
	"os/exec"
	"regexp"
	"testing"
)

// TestTortureShort runs a short version of bench/torture/torture.sh against
// this build: kill -9 injections in every phase, concurrent runs beside a
// gc/compact loop, then every listed run read back byte for byte and
// `ctx check --read-data`. The long version is the command in BENCHMARKS.md.
func TestTortureShort(t *testing.T) {
	cmd := exec.Command("sh", "../../bench/torture/torture.sh", "-n", "16", "-c", "8", "-b", "100000", "-s", "3")
	cmd.Env = append(cmd.Environ(), "CTX="+ctxBinary(t), "TMPDIR="+t.TempDir(), "CTX_STORE=", "CTX_SESSION=")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("torture: %v", err)
	}
	summary := regexp.MustCompile(`(?m)^torture: injections 16 killed ([0-9]+) spared ([0-9]+) concurrent 8/8 listed [0-9]+ lost 0 unreadable 0 wrong 0 duplicates 0 bad-exit 0 check ok$`)
	m := summary.FindSubmatch(out)
	if m == nil {
		t.Fatal("no clean summary line")
	}
	if string(m[1]) == "0" {
		t.Error("no injection was killed: the benchmark tested nothing")
	}
}

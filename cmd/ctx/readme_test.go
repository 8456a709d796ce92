package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/testenv"
)

// TestREADMEDigestReproduces: the showcase digest in the README is what the
// README's own ctx ingest command prints from the repository root, byte for
// byte, so the README never shows a digest ctx does not make.
func TestREADMEDigestReproduces(t *testing.T) {
	root := testenv.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\n(ctx ingest [^`]*?)\n```\n\n```\n(.*?)```").FindSubmatch(readme)
	if blocks == nil {
		t.Fatal("README has no ctx ingest example followed by its digest")
	}
	cmdline := strings.ReplaceAll(string(blocks[1]), "\\\n", " ")
	want := blocks[2]
	m := regexp.MustCompile(`^ctx ingest --as "([^"]+)" --exit (\d+)\s+(\S+)$`).FindStringSubmatch(strings.Join(strings.Fields(cmdline), " "))
	if m == nil {
		t.Fatalf("the README's command is not the shape this test reads: %q", cmdline)
	}
	t.Setenv("CTX_STORE", filepath.Join(t.TempDir(), ".ctx"))
	t.Setenv("CTX_SESSION", "")
	var out, errb bytes.Buffer
	ios := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getwd: func() (string, error) { return root, nil }, Getenv: os.Getenv}
	// The file is named from the repository root, as the README runs it.
	code := run(ios, []string{"ingest", "--as", m[1], "--exit", m[2], filepath.Join(root, m[3])})
	if code != 1 {
		t.Fatalf("exit %d, want the recorded 1\n%s", code, errb.String())
	}
	got := out.Bytes()
	if !bytes.Equal(got, want) {
		t.Errorf("the README's digest is not what ctx prints today; update README.md\n--- README\n%s\n--- ctx\n%s%s", want, got, errb.String())
	}
}

// TestREADMEStatesTheDefaultTimeout: the README names ctx run's default
// --timeout, and the number it names is the flag's default.
func TestREADMEStatesTheDefaultTimeout(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`ctx run` stops a command after (\\d+) minutes unless `--timeout`").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README does not state ctx run's default --timeout")
	}
	def := runcmd.NewRunCmd(&IO{Getenv: os.Getenv}).Flags().Lookup("timeout").DefValue
	if want := string(m[1]) + "m0s"; def != want {
		t.Errorf("README says %s minutes; the --timeout default is %s", m[1], def)
	}
}

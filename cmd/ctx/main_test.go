package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ctxhq/ctx/internal/ctxmcp"
	"github.com/ctxhq/ctx/internal/ctxremote"
	"github.com/ctxhq/ctx/internal/testenv"
)

func TestMain(m *testing.M) {
	// No background compaction outliving a test that runs the binary (it
	// would write into a temporary directory being removed); the tests
	// that exercise it turn it back on.
	os.Setenv("CTX_NO_COMPACT", "1")
	testscript.Main(isolatedM{m}, map[string]func(){
		"ctx": func() { os.Exit(Main()) },
		// The helper binaries, on the scripts' PATH as they would be
		// beside an installed ctx: ctx runs them in its place.
		"ctx-mcp":    func() { os.Exit(ctxmcp.Main()) },
		"ctx-remote": func() { os.Exit(ctxremote.Main()) },
		// gen writes test output that is hard to produce portably with a shell.
		"gen": func() { os.Exit(gen(os.Args[1:])) },
	})
}

// isolatedM runs the tests (never the ctx and gen commands the scripts
// start) with their own XDG_STATE_HOME, so no test's temporary store is
// registered in the developer's index of stores.
type isolatedM struct{ m *testing.M }

func (i isolatedM) Run() int {
	defer testenv.IsolateState()()
	return i.m.Run()
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// The per-user index of stores stays inside the script's work dir.
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state"))
			env.Setenv("CTX_SESSION", "")
			env.Setenv("CTX_PRESSURE", "")
			// No background compaction processes outliving a script; the
			// compaction script turns it back on.
			env.Setenv("CTX_NO_COMPACT", "1")
			return nil
		},
	})
}

// special is output with every byte value, invalid UTF-8, CRLF, ANSI colour, a
// carriage-return progress bar and, optionally, a huge line without a newline.
func special(hugeLine int) []byte {
	var b bytes.Buffer
	for i := range 256 {
		b.WriteByte(byte(i))
	}
	b.WriteString("\n\xff\xfe invalid \xc3\x28 utf-8\n")
	b.WriteString("crlf line\r\nanother\r\n")
	b.WriteString("\x1b[31mred\x1b[0m \x1b[1;32mbold green\x1b[0m\n")
	for p := 0; p <= 100; p += 25 {
		fmt.Fprintf(&b, "\rprogress %3d%%", p)
	}
	b.WriteString("\n")
	if hugeLine > 0 {
		b.Write(bytes.Repeat([]byte("0123456789"), hugeLine/10))
	}
	return b.Bytes()
}

func gen(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: gen special [HUGE] | lines N [PREFIX] | stderr-too")
		return 2
	}
	switch args[0] {
	case "special":
		huge := 0
		if len(args) > 1 {
			huge, _ = strconv.Atoi(args[1])
		}
		os.Stdout.Write(special(huge))
	case "lines":
		n, _ := strconv.Atoi(args[1])
		prefix := "line"
		if len(args) > 2 {
			prefix = args[2]
		}
		var b bytes.Buffer
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%s %d\n", prefix, i)
		}
		os.Stdout.Write(b.Bytes())
	case "both":
		// Pauses between the writes make their arrival order unambiguous.
		fmt.Fprintln(os.Stdout, "to stdout 1")
		time.Sleep(50 * time.Millisecond)
		fmt.Fprintln(os.Stderr, "to stderr 1")
		time.Sleep(50 * time.Millisecond)
		fmt.Fprintln(os.Stdout, "to stdout 2")
	case "failing":
		// A failing go test run long enough to need a digest.
		var b bytes.Buffer
		for i := range 40 {
			fmt.Fprintf(&b, "--- FAIL: TestCase%d (0.00s)\n    case_test.go:%d: first line of failure %d\n    second line\n    third line\n", i, i+10, i)
		}
		b.WriteString("FAIL\nFAIL\texample.com/m\t0.01s\nFAIL\n")
		os.Stdout.Write(b.Bytes())
		return 1
	case "isatty":
		for _, f := range []*os.File{os.Stdout, os.Stderr} {
			_, err := f.Stat()
			fi, _ := f.Stat()
			fmt.Fprintf(os.Stdout, "%v %v\n", err == nil, fi.Mode()&os.ModeCharDevice != 0)
		}
	default:
		fmt.Fprintln(os.Stderr, "gen: unknown", args[0])
		return 2
	}
	return 0
}

package gotest

import (
	"fmt"
	"math/rand"
	"strings"
)

// genRun writes a synthetic `go test -v ./...` output of about tests
// tests, shaped as go test prints them, drawn from seed: packages of
// top-level tests with subtest trees, parallel tests (PAUSE, CONT and
// interleaved logs), failures with log lines and continuations, skips,
// -count reruns, examples with got/want, benchmarks, panics with a
// goroutine dump, a build failure, output that runs into a result line,
// colour and carriage returns. The guard test parses it to hold a faster
// parser to the old one's graph on inputs no benchmark was tuned on.
func genRun(seed int64, tests int) (stdout, stderr string) {
	g := &gen{r: rand.New(rand.NewSource(seed))}
	for pkg := 0; g.n < tests; pkg++ {
		g.pkg(fmt.Sprintf("example.com/gen%d/p%d", seed, pkg), tests)
	}
	return g.out.String(), g.errs.String()
}

type gen struct {
	r         *rand.Rand
	out, errs strings.Builder
	n         int // tests written
}

func (g *gen) line(format string, args ...any) {
	fmt.Fprintf(&g.out, format+"\n", args...)
}

func (g *gen) pkg(pkg string, tests int) {
	switch g.r.Intn(40) {
	case 0:
		g.line("?   \t%s\t[no test files]", pkg)
		return
	case 1:
		fmt.Fprintf(&g.errs, "# %s\n%s/x.go:%d:%d: undefined: y\n", pkg, pkg, 3+g.r.Intn(40), 2+g.r.Intn(9))
		g.line("FAIL\t%s [build failed]", pkg)
		return
	}
	failed := false
	size := 1 + g.r.Intn(400)
	if g.r.Intn(8) == 0 {
		size = 2000 + g.r.Intn(4000)
	}
	for i := 0; i < size && g.n < tests; i++ {
		failed = g.test(fmt.Sprintf("Test%s%d", g.word(), i), 0) || failed
		if g.r.Intn(60) == 0 {
			g.line("stray output %d of the package", i)
		}
		if g.r.Intn(300) == 0 && g.panic(fmt.Sprintf("TestPanics%d", i)) {
			g.line("FAIL\t%s\t%.3fs", pkg, g.r.Float64())
			return
		}
	}
	if g.r.Intn(10) == 0 {
		g.examples()
	}
	if g.r.Intn(10) == 0 {
		failed = g.benchmarks() || failed
	}
	if failed {
		g.line("FAIL")
		g.line("FAIL\t%s\t%.3fs", pkg, g.r.Float64())
		return
	}
	g.line("PASS")
	switch g.r.Intn(5) {
	case 0:
		g.line("ok  \t%s\t(cached)", pkg)
	case 1:
		g.line("ok  \t%s\t%.3fs\tcoverage: %.1f%% of statements", pkg, g.r.Float64(), 100*g.r.Float64())
	default:
		g.line("ok  \t%s\t%.3fs", pkg, g.r.Float64())
	}
}

var genWords = []string{"Parse", "Read", "Write", "Encode", "Decode", "Split", "Join", "Map", "Index", "Cut", "Trim", "Ünïcode"}

func (g *gen) word() string { return genWords[g.r.Intn(len(genWords))] }

// test writes one test (and its subtests below depth 3) and reports
// whether it failed.
func (g *gen) test(name string, depth int) bool {
	g.n++
	ind := strings.Repeat("    ", depth)
	g.line("=== RUN   %s", name)
	parallel := depth == 0 && g.r.Intn(20) == 0
	if parallel {
		g.line("=== PAUSE %s", name)
		g.line("=== CONT  %s", name)
	}
	fail := g.r.Intn(50) == 0
	skip := !fail && g.r.Intn(40) == 0
	for k := g.r.Intn(3); k > 0 && g.r.Intn(3) == 0; k-- {
		g.line("%s    %s_test.go:%d: progress %d", ind, strings.ToLower(g.word()), 10+g.r.Intn(900), k)
	}
	if g.r.Intn(200) == 0 {
		g.out.WriteString("\x1b[32mcoloured\x1b[0m output\r\n")
	}
	if g.r.Intn(300) == 0 {
		g.out.WriteString("50%\r100%\n")
	}
	failedSub := false
	if depth < 3 && g.r.Intn(6) == 0 {
		for k := 0; k < 1+g.r.Intn(5); k++ {
			failedSub = g.test(fmt.Sprintf("%s/case_%d", name, k), depth+1) || failedSub
		}
	}
	if fail {
		g.line("%s    %s_test.go:%d: got %d, want %d", ind, strings.ToLower(g.word()), 10+g.r.Intn(900), g.r.Intn(9), g.r.Intn(9))
		if g.r.Intn(2) == 0 {
			g.line("%s        continued detail", ind)
		}
	}
	if skip {
		g.line("%s    %s_test.go:%d: skipping: not on this system", ind, strings.ToLower(g.word()), 5+g.r.Intn(90))
	}
	verb := "PASS"
	switch {
	case fail || failedSub:
		verb = "FAIL"
	case skip:
		verb = "SKIP"
	}
	d := fmt.Sprintf("%.2fs", g.r.Float64())
	if g.r.Intn(100) == 0 {
		g.out.WriteString("no newline from the test")
		g.line("--- %s: %s (%s)", verb, name, d)
	} else {
		g.line("%s--- %s: %s (%s)", ind, verb, name, d)
	}
	if depth == 0 && g.r.Intn(150) == 0 { // -count=2
		g.line("=== RUN   %s", name)
		g.line("--- PASS: %s (0.00s)", name)
	}
	return verb == "FAIL"
}

// panic writes a test that panics; it reports true (the binary exits).
func (g *gen) panic(name string) bool {
	g.n++
	g.line("=== RUN   %s", name)
	g.line("--- FAIL: %s (0.00s)", name)
	g.line("panic: runtime error: index out of range [%d] with length 0 [recovered]", g.r.Intn(9))
	g.line("\tpanic: runtime error: index out of range")
	g.line("")
	g.line("goroutine %d [running]:", 5+g.r.Intn(40))
	g.line("testing.tRunner.func1.2({0x5a1f20, 0xc000012345})")
	g.line("\t/usr/local/go/src/testing/testing.go:1632 +0x230")
	g.line("example.com/m.%s(0xc000110000)", name)
	g.line("\t/src/m/m_test.go:%d +0x1d", 10+g.r.Intn(90))
	g.line("exit status 2")
	return true
}

func (g *gen) examples() {
	g.n += 2
	g.line("=== RUN   ExampleGood")
	g.line("--- PASS: ExampleGood (0.00s)")
	g.line("=== RUN   ExampleBad")
	g.line("--- FAIL: ExampleBad (0.00s)")
	g.line("got:")
	g.line("hello %d", g.r.Intn(9))
	g.line("want:")
	g.line("bye")
}

// benchmarks writes -bench results; it reports false (they pass).
func (g *gen) benchmarks() bool {
	g.line("goos: linux")
	g.line("goarch: amd64")
	g.line("pkg: example.com/m")
	for k := 0; k < 1+g.r.Intn(4); k++ {
		g.n++
		name := fmt.Sprintf("Benchmark%s%d", g.word(), k)
		g.line("=== RUN   %s", name)
		g.line("%s", name)
		g.line("%s-8   \t%d\t%d ns/op\t%d B/op\t%d allocs/op", name, 1000+g.r.Intn(100000), g.r.Intn(5000), g.r.Intn(512), g.r.Intn(9))
	}
	return false
}

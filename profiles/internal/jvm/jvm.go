// Package jvm reads the shapes that JVM build tools share: Java exception
// lines, stack frames and javac/kotlinc diagnostics. The gradle and maven
// profiles use it; it extracts, it never decides what a line means in a
// build's flow.
package jvm

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Exception is a thrown exception as a test report prints it.
type Exception struct {
	Class   string // fully qualified, "org.opentest4j.AssertionFailedError"
	Message string // "expected: <1> but was: <0>", "" when none was printed
	File    string // gradle's short form names the location: "CalcTest.java"
	Line    int
}

// Short is the class's simple name ("AssertionFailedError").
func (e Exception) Short() string {
	s := e.Class
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

var (
	// "pkg.Class: message", "pkg.Class", "pkg.Outer$Inner: message"
	reException = lines.Lazy(`^((?:[A-Za-z_$][\w$]*\.)+[A-Z][\w$]*)(?:: ?(.*))?$`)
	// gradle's short form: "java.lang.AssertionError at CalcTest.java:8"
	reShort = lines.Lazy(`^((?:[A-Za-z_$][\w$]*\.)+[A-Z][\w$]*) at ([\w$.-]+\.\w+):(\d+)$`)
	// "at demo.CalcTest.addsWrong(CalcTest.java:8)", "at java.base/….(Native Method)"
	reFrame = lines.Lazy(`^at (?:[\w.$-]+/)?([\w$.<>]+)\(([^():]*)(?::(\d+))?\)$`)
)

// ParseException reads an exception line (trimmed of indentation). It accepts
// only names that look like throwables (…Error, …Exception, …Failure,
// Throwable, or any qualified name followed by ": "), so ordinary dotted
// words are not taken for exceptions.
func ParseException(s string) (Exception, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "Caused by: ") {
		return Exception{}, false
	}
	if m := reShort.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[3])
		return Exception{Class: m[1], File: m[2], Line: n}, true
	}
	m := reException.FindStringSubmatch(s)
	if m == nil {
		return Exception{}, false
	}
	e := Exception{Class: m[1], Message: m[2]}
	if !throwable(e.Short()) && !strings.Contains(s, ": ") {
		return Exception{}, false
	}
	return e, true
}

func throwable(name string) bool {
	for _, suf := range []string{"Error", "Exception", "Failure", "Throwable", "Failed"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// Frame is one stack frame.
type Frame struct {
	Method string // "demo.CalcTest.addsWrong"
	File   string // "CalcTest.java"
	Line   int
}

// ParseFrame reads "at pkg.Class.method(File.java:12)" (trimmed of indentation).
func ParseFrame(s string) (Frame, bool) {
	m := reFrame.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Frame{}, false
	}
	n, _ := strconv.Atoi(m[3])
	return Frame{Method: m[1], File: m[2], Line: n}, true
}

// Diagnostic is a compiler finding at a location.
type Diagnostic struct {
	File     string
	Line     int
	Col      int
	Severity string // "error" or "warning"
	Message  string
}

var (
	// javac: "src/demo/Calc.java:5: error: cannot find symbol"
	reJavac = lines.Lazy(`^(\S[^:]*\.(?:java|groovy|scala)):(\d+): (error|warning): (.+)$`)
	// maven-compiler-plugin: "/a/Calc.java:[5,47] cannot find symbol"
	reMavenJavac = lines.Lazy(`^(\S[^:]*\.(?:java|kt|groovy|scala)):\[(\d+),(\d+)\] (.+)$`)
	// kotlinc 1.x/2.x: "e: file:///a/B.kt:3:5 msg", "e: /a/B.kt: (3, 5): msg", "w: …"
	reKotlin = lines.Lazy(`^([ew]): (?:file://)?(\S[^:]*\.kts?):(?: \((\d+), (\d+)\):|(\d+):(\d+)) (.+)$`)
)

// ParseJavac reads a javac or kotlinc diagnostic line.
func ParseJavac(s string) (Diagnostic, bool) {
	if m := reJavac.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[2])
		return Diagnostic{File: m[1], Line: n, Severity: m[3], Message: m[4]}, true
	}
	if m := reKotlin.FindStringSubmatch(s); m != nil {
		line, col := m[3], m[4]
		if line == "" {
			line, col = m[5], m[6]
		}
		n, _ := strconv.Atoi(line)
		c, _ := strconv.Atoi(col)
		sev := "error"
		if m[1] == "w" {
			sev = "warning"
		}
		return Diagnostic{File: m[2], Line: n, Col: c, Severity: sev, Message: m[7]}, true
	}
	return Diagnostic{}, false
}

// ParseMavenJavac reads the maven-compiler-plugin's "file:[line,col] message";
// the severity comes from the line's [ERROR]/[WARNING] prefix, which the
// caller has removed.
func ParseMavenJavac(s string) (Diagnostic, bool) {
	m := reMavenJavac.FindStringSubmatch(s)
	if m == nil {
		return Diagnostic{}, false
	}
	n, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	return Diagnostic{File: m[1], Line: n, Col: c, Message: m[4]}, true
}

// Detail reports whether an indented line continues a javac diagnostic with
// a "symbol:", "location:", "required:", "found:" or "reason:" line, and
// returns it as "symbol: variable c".
func Detail(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == s || t == "" {
		return "", false
	}
	k, v, ok := strings.Cut(t, ":")
	if !ok {
		return "", false
	}
	switch k {
	case "symbol", "location", "required", "found", "reason":
		return k + ": " + strings.Join(strings.Fields(v), " "), true
	}
	return "", false
}

// Scan calls fn for every line of the source's streams (stdout, then
// stderr), cleaned of terminal decoration, with its stream and 1-based number.
func Scan(ctx context.Context, src *evidence.Source, fn func(stream string, n int, line string)) error {
	for _, st := range src.Streams {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return fmt.Errorf("open %s: %w", st.Name, err)
		}
		err = lines.Scan(ctx, rc, func(n int, line []byte, _ bool) error {
			fn(st.Name, n, string(lines.Clean(line)))
			return nil
		})
		rc.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", st.Name, err)
		}
	}
	return nil
}

// Argv reports whether argv runs one of the named programs, directly or as a
// wrapper script ("./gradlew", "mvnw.cmd").
func Argv(argv []string, names ...string) bool {
	if len(argv) == 0 {
		return false
	}
	return slices.Contains(names, cmdline.Program(argv[0]))
}

package gotest

import "strings"

// locate picks the location a trace points at: the first frame outside the
// Go distribution (the panic site, the racing access), or, for a timeout,
// the first such frame inside the timed-out test's own function. Paths are
// kept as printed (goroutine traces print absolute paths).
func (t *trace) locate(test string) (string, int) {
	if t == nil {
		return "", 0
	}
	root := gorootSrc(t.frames)
	if test != "" && t.kind == "timeout" {
		top, _, _ := strings.Cut(test, "/")
		for _, f := range t.frames {
			if !isStd(f, root) && funcOf(f.fn, top) {
				return f.file, f.line
			}
		}
	}
	for _, f := range t.frames {
		if !isStd(f, root) {
			return f.file, f.line
		}
	}
	return "", 0
}

// gorootSrc finds the GOROOT source directory ("/usr/local/go/src/") from a
// frame of package testing or runtime, so other frames can be told apart.
func gorootSrc(frames []frame) string {
	for _, f := range frames {
		fn := cleanFunc(f.fn)
		if !strings.HasPrefix(fn, "testing.") && !strings.HasPrefix(fn, "runtime.") {
			continue
		}
		for _, d := range [...]string{"/src/testing/", "/src/runtime/"} {
			if i := strings.Index(f.file, d); i >= 0 {
				return f.file[:i+len("/src/")]
			}
		}
	}
	return ""
}

// cleanFunc strips "created by " and " in goroutine N" from a frame's
// function line.
func cleanFunc(fn string) string {
	fn = strings.TrimPrefix(fn, "created by ")
	if i := strings.Index(fn, " in goroutine "); i > 0 {
		fn = fn[:i]
	}
	return fn
}

// stdRoots are the first path elements of standard-library packages that
// appear in test traces, for traces that show no GOROOT path.
var stdRoots = map[string]bool{
	"runtime": true, "testing": true, "time": true, "sync": true, "reflect": true,
	"internal": true, "os": true, "syscall": true, "fmt": true, "io": true,
	"net": true, "context": true, "errors": true, "strings": true, "bytes": true,
	"sort": true, "encoding": true, "log": true, "bufio": true, "math": true,
	"strconv": true, "unicode": true, "main": true,
}

func isStd(f frame, root string) bool {
	fn := cleanFunc(f.fn)
	if strings.HasPrefix(fn, "panic(") || strings.HasSuffix(f.file, "_testmain.go") {
		return true
	}
	if root != "" {
		return strings.HasPrefix(f.file, root)
	}
	path, _, _ := strings.Cut(fn, "(")
	seg := path
	prefix := ""
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		prefix, seg = path[:i], path[i+1:]
	}
	pkg, _, _ := strings.Cut(seg, ".")
	first := pkg
	if prefix != "" {
		first, _, _ = strings.Cut(prefix, "/")
	}
	if strings.Contains(first, ".") {
		return false
	}
	return stdRoots[first]
}

// funcOf reports whether a frame's function is test or one of its closures.
func funcOf(fn, test string) bool {
	path, _, _ := strings.Cut(cleanFunc(fn), "(")
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	_, rest, ok := strings.Cut(path, ".")
	if !ok {
		return false
	}
	return rest == test || strings.HasPrefix(rest, test+".")
}

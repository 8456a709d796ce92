package gotest

import "testing"

// TestParseResult covers the forms a result line's name and elapsed time
// take, and lines that only look like results: a name never holds a
// blank, and only a " (elapsed)" suffix after it is read as the time.
func TestParseResult(t *testing.T) {
	for _, c := range []struct {
		line  string
		ok    bool
		name  string
		timed bool
	}{
		{"--- PASS: TestA (0.06s)", true, "TestA", true},
		{"    --- FAIL: TestA/sub_1 (1.50s)", true, "TestA/sub_1", true},
		{"--- PASS: TestA (1.5 seconds)", true, "TestA", true},
		{"--- SKIP: TestA (0.00 s)", true, "TestA", true},
		{"--- BENCH: BenchmarkX-8", true, "BenchmarkX-8", false},
		{"--- PASS: TestA", true, "TestA", false},
		{"--- PASS: TestA()", true, "TestA()", false},
		{"--- PASS: TestA  (0.06s)", false, "", false},
		{"--- PASS: TestA\t(0.06s)", false, "", false},
		{"--- PASS: TestA ()", false, "", false},
		{"--- PASS: TestA (soon)", false, "", false},
		{"--- PASS: TestA (x (0.06s)", false, "", false},
		{"--- PASS: TestA (0.06s) extra", false, "", false},
		{"--- PASS: TestA and more", false, "", false},
		{"--- PASS:  TestA (0.06s)", false, "", false},
		{"--- PASS: ", false, "", false},
		{"--- DONE: TestA (0.06s)", false, "", false},
	} {
		r, ok := parseResult(c.line)
		if ok != c.ok || r.name != c.name || r.timed != c.timed {
			t.Errorf("parseResult(%q) = %q timed %v, %v; want %q timed %v, %v", c.line, r.name, r.timed, ok, c.name, c.timed, c.ok)
		}
	}
}

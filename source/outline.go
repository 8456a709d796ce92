package source

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Decl is one declaration of a source file.
type Decl struct {
	// Kind is one of function, method, type, class, interface, enum,
	// namespace, module.
	Kind string `json:"kind"`
	// Name is qualified by its enclosing declarations with the language's
	// separator: Store.Put, TestA.test_b, parser::Parser::new.
	Name string `json:"name"`
	// Start and End are 1-based inclusive lines of the whole declaration.
	Start int `json:"start"`
	End   int `json:"end"`
	// Test is the identity a test runner prints for this declaration when
	// it is a test: TestFoo (go test), tests/test_x.py::TestA::test_b
	// (pytest), tests::adds (cargo test). Empty otherwise.
	Test string `json:"test,omitempty"`
}

// Outline is what a file declares.
type Outline struct {
	Path    string   `json:"path"`
	Lang    string   `json:"lang"`
	Decls   []Decl   `json:"decls"`
	Imports []string `json:"imports"`
	// Partial is set when the facts are incomplete: the grammar is missing
	// from this build or the parse found errors. Note says which.
	Partial bool   `json:"partial,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Lang names the grammar for a file by its extension, or "" when ctx has
// none for it.
func Lang(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".mjs", ".cjs", ".jsx":
		return "javascript"
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "tsx"
	case ".rs":
		return "rust"
	case ".java":
		return "java"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx":
		return "cpp"
	}
	return ""
}

// GrammarsAvailable reports whether this build can parse languages other
// than Go (it was built with cgo). Without them those outlines are partial
// and say why; Go is outlined by go/parser in every build.
func GrammarsAvailable() bool { return grammarsAvailable }

// Parse outlines one file's content. path is the file's path relative to
// the repository (it names the file in test identities). Parsing is fail
// open: a missing grammar or a parse with errors yields partial facts and a
// note, never an error.
func Parse(path string, src []byte) *Outline {
	o := &Outline{Path: filepath.ToSlash(path), Lang: Lang(path), Decls: []Decl{}, Imports: []string{}}
	if o.Lang == "" {
		o.Partial, o.Note = true, fmt.Sprintf("no grammar for %q files", filepath.Ext(path))
		return o
	}
	if o.Lang == "go" {
		parseGo(o, src)
		return o
	}
	if !grammarsAvailable {
		o.Partial, o.Note = true, "grammars unavailable: this ctx was built without cgo (CGO_ENABLED=0)"
		return o
	}
	parse(o, src)
	return o
}

// Find returns the declaration named name (qualified, as in Decl.Name), or
// false. When several share the name (overloads, redeclarations) the first
// is returned.
func (o *Outline) Find(name string) (Decl, bool) {
	for _, d := range o.Decls {
		if d.Name == name {
			return d, true
		}
	}
	return Decl{}, false
}

// ForTest returns the declaration of the test a runner printed as id: the
// one whose Test is id, else the one whose Test id extends with a subtest
// or a parameter the runner appends (TestFoo/sub for TestFoo in go test,
// tests/t.py::test_b[1] for tests/t.py::test_b in pytest, "outer › works
// › case" for "outer › works" in jest). The longest such test wins.
func (o *Outline) ForTest(id string) (Decl, bool) {
	var best Decl
	for _, d := range o.Decls {
		if d.Test == "" || len(d.Test) <= len(best.Test) {
			continue
		}
		rest, ok := strings.CutPrefix(id, d.Test)
		if ok && (rest == "" || rest[0] == '/' || rest[0] == '[' || strings.HasPrefix(rest, " › ") || strings.HasPrefix(rest, "::")) {
			best = d
		}
	}
	return best, best.Test != ""
}

// At returns the innermost declaration whose range holds line, or false.
func (o *Outline) At(line int) (Decl, bool) {
	var best Decl
	found := false
	for _, d := range o.Decls {
		if d.Start <= line && line <= d.End && (!found || d.End-d.Start < best.End-best.Start) {
			best, found = d, true
		}
	}
	return best, found
}

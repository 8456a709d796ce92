//go:build cgo

package source

import (
	"context"
	"fmt"
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// walker collects one file's declarations.
type walker struct {
	o   *Outline
	src []byte
	sep string // qualifier separator of the language
}

// scope is where a node sits: the qualified names around it.
type scope struct {
	names   []string // enclosing declarations, outermost first
	inClass bool     // directly inside a class-like body
	mods    []string // Rust: enclosing modules (test paths use only these)
	tests   []string // Python/JS: enclosing test classes or describe blocks
	noTests bool     // inside something that is not a test container
}

func (s scope) push(name string) scope {
	s.names = append(s.names[:len(s.names):len(s.names)], name)
	s.inClass = false
	return s
}

func parse(o *Outline, src []byte) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(grammar(o.Lang))
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil || tree == nil {
		o.Partial, o.Note = true, fmt.Sprintf("the parser gave up on this file: %v", err)
		return
	}
	defer tree.Close()
	root := tree.RootNode()
	w := &walker{o: o, src: src, sep: "."}
	if o.Lang == "rust" || o.Lang == "cpp" || o.Lang == "c" {
		w.sep = "::"
	}
	w.children(root, scope{})
	if root.HasError() {
		o.Partial, o.Note = true, fmt.Sprintf("parse errors from line %d; declarations there may be missing", firstError(root))
	}
}

// firstError returns the 1-based line of the first error or missing node.
func firstError(n *sitter.Node) int {
	if n.IsError() || n.IsMissing() {
		return int(n.StartPoint().Row) + 1
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c != nil && (c.HasError() || c.IsMissing()) {
			return firstError(c)
		}
	}
	return int(n.StartPoint().Row) + 1
}

func (w *walker) children(n *sitter.Node, s scope) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c != nil {
			w.node(c, s)
		}
	}
}

func (w *walker) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(w.src)
}

func (w *walker) field(n *sitter.Node, name string) string {
	return w.text(n.ChildByFieldName(name))
}

// add records a declaration and returns its qualified name.
func (w *walker) add(n *sitter.Node, kind, name string, s scope) string {
	q := strings.Join(append(s.names[:len(s.names):len(s.names)], name), w.sep)
	w.o.Decls = append(w.o.Decls, Decl{Kind: kind, Name: q,
		Start: int(n.StartPoint().Row) + 1, End: endLine(n)})
	return q
}

// endLine is the last line a node covers (a node ending at column 0 ends
// on the previous line).
func endLine(n *sitter.Node) int {
	e := n.EndPoint()
	if e.Column == 0 && e.Row > n.StartPoint().Row {
		return int(e.Row)
	}
	return int(e.Row) + 1
}

func (w *walker) markTest(id string) {
	w.o.Decls[len(w.o.Decls)-1].Test = id
}

func (w *walker) node(n *sitter.Node, s scope) {
	switch w.o.Lang {
	case "python":
		w.pyNode(n, s)
	case "javascript", "typescript", "tsx":
		w.jsNode(n, s)
	case "rust":
		w.rustNode(n, s)
	case "java":
		w.javaNode(n, s)
	case "c", "cpp":
		w.cNode(n, s)
	}
}

func (w *walker) isPyTestFile() bool {
	b := path.Base(w.o.Path)
	return strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py")
}

func (w *walker) pyNode(n *sitter.Node, s scope) {
	switch n.Type() {
	case "function_definition":
		kind := "function"
		if s.inClass {
			kind = "method"
		}
		name := w.field(n, "name")
		w.add(n, kind, name, s)
		w.o.Decls[len(w.o.Decls)-1].End = pyEnd(n)
		if !s.noTests && strings.HasPrefix(name, "test") && w.isPyTestFile() && (len(s.tests) > 0 || len(s.names) == 0) {
			w.markTest(strings.Join(append([]string{w.o.Path}, append(s.tests, name)...), "::"))
		}
		in := s.push(name)
		in.noTests = true
		w.children(n, in)
	case "class_definition":
		name := w.field(n, "name")
		w.add(n, "class", name, s)
		w.o.Decls[len(w.o.Decls)-1].End = pyEnd(n)
		in := s.push(name)
		in.inClass = true
		if strings.HasPrefix(name, "Test") && !s.noTests && len(s.tests) == len(s.names) {
			in.tests = append(s.tests[:len(s.tests):len(s.tests)], name)
		} else {
			in.noTests = true
		}
		if b := n.ChildByFieldName("body"); b != nil {
			w.children(b, in)
		}
	case "import_statement":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if c.Type() == "aliased_import" {
				c = c.ChildByFieldName("name")
			}
			w.o.Imports = append(w.o.Imports, w.text(c))
		}
	case "import_from_statement":
		w.o.Imports = append(w.o.Imports, w.field(n, "module_name"))
	case "block", "decorated_definition", "if_statement", "else_clause", "elif_clause",
		"try_statement", "except_clause", "finally_clause", "with_statement", "for_statement", "while_statement", "match_statement", "case_clause":
		keep := s.inClass
		w.children(n, s)
		s.inClass = keep
	default:
		if s.inClass && (n.Type() == "decorated_definition") {
			w.children(n, s)
		}
	}
}

// pyCompound are the Python nodes whose last line is that of their last
// statement: tree-sitter counts comments after it into the block, Python's
// ast (and pyclbr) does not.
var pyCompound = map[string]bool{"block": true, "function_definition": true, "class_definition": true,
	"decorated_definition": true, "if_statement": true, "elif_clause": true, "else_clause": true,
	"for_statement": true, "while_statement": true, "try_statement": true, "except_clause": true,
	"except_group_clause": true, "finally_clause": true, "with_statement": true, "match_statement": true, "case_clause": true}

// pyEnd is the last line of a compound statement's last statement.
func pyEnd(n *sitter.Node) int {
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		c := n.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		if pyCompound[c.Type()] {
			return pyEnd(c)
		}
		return endLine(c)
	}
	return endLine(n)
}

var jsTestCalls = map[string]bool{"describe": true, "it": true, "test": true}

func (w *walker) jsNode(n *sitter.Node, s scope) {
	switch n.Type() {
	case "function_declaration", "generator_function_declaration":
		w.add(n, "function", w.field(n, "name"), s)
	case "class_declaration", "abstract_class_declaration", "class":
		name := w.field(n, "name")
		if name == "" {
			return
		}
		w.add(n, "class", name, s)
		in := s.push(name)
		in.inClass = true
		if b := n.ChildByFieldName("body"); b != nil {
			w.children(b, in)
		}
	case "method_definition", "abstract_method_signature":
		if s.inClass {
			w.add(n, "method", w.field(n, "name"), s)
		}
	case "interface_declaration":
		w.add(n, "interface", w.field(n, "name"), s)
	case "type_alias_declaration":
		w.add(n, "type", w.field(n, "name"), s)
	case "enum_declaration":
		w.add(n, "enum", w.field(n, "name"), s)
	case "lexical_declaration", "variable_declaration":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			d := n.NamedChild(i)
			if d.Type() != "variable_declarator" {
				continue
			}
			if v := d.ChildByFieldName("value"); v != nil {
				switch v.Type() {
				case "arrow_function", "function_expression", "function", "generator_function":
					w.add(n, "function", w.field(d, "name"), s)
				}
			}
		}
	case "import_statement":
		w.o.Imports = append(w.o.Imports, strings.Trim(w.field(n, "source"), "'\"`"))
	case "export_statement", "program", "statement_block", "expression_statement", "arguments",
		"arrow_function", "function_expression", "internal_module", "module":
		w.children(n, s)
	case "call_expression":
		w.jsTest(n, s)
	}
}

// jsTest records describe/it/test blocks under the names jest and vitest
// print ("outer › inner › case").
func (w *walker) jsTest(n *sitter.Node, s scope) {
	fn := w.field(n, "function")
	fn, _, _ = strings.Cut(fn, ".") // it.each, test.only, describe.skip
	args := n.ChildByFieldName("arguments")
	if !jsTestCalls[fn] || args == nil || args.NamedChildCount() == 0 {
		w.children(n, s)
		return
	}
	first := args.NamedChild(0)
	if t := first.Type(); t != "string" && t != "template_string" {
		w.children(n, s)
		return
	}
	name := strings.Trim(w.text(first), "'\"`")
	w.add(n, "test", name, scope{names: s.tests})
	w.markTest(strings.Join(append(s.tests[:len(s.tests):len(s.tests)], name), " › "))
	if fn == "describe" {
		in := s
		in.tests = append(s.tests[:len(s.tests):len(s.tests)], name)
		w.children(args, in)
	}
}

func (w *walker) rustNode(n *sitter.Node, s scope) {
	switch n.Type() {
	case "function_item", "function_signature_item":
		kind := "function"
		if s.inClass {
			kind = "method"
		}
		name := w.field(n, "name")
		w.add(n, kind, name, s)
		if w.rustIsTest(n) {
			w.markTest(strings.Join(append(s.mods[:len(s.mods):len(s.mods)], name), "::"))
		}
	case "struct_item", "union_item", "type_item":
		w.add(n, "type", w.field(n, "name"), s)
	case "enum_item":
		w.add(n, "enum", w.field(n, "name"), s)
	case "trait_item":
		name := w.field(n, "name")
		w.add(n, "interface", name, s)
		w.rustBody(n, s.push(name))
	case "impl_item":
		t := w.field(n, "type")
		if i := strings.IndexByte(t, '<'); i >= 0 {
			t = t[:i]
		}
		w.rustBody(n, s.push(t))
	case "mod_item":
		name := w.field(n, "name")
		w.add(n, "module", name, s)
		in := s.push(name)
		in.mods = append(s.mods[:len(s.mods):len(s.mods)], name)
		if b := n.ChildByFieldName("body"); b != nil {
			w.children(b, in)
		}
	case "use_declaration":
		w.o.Imports = append(w.o.Imports, w.field(n, "argument"))
	}
}

func (w *walker) rustBody(n *sitter.Node, in scope) {
	in.inClass = true
	if b := n.ChildByFieldName("body"); b != nil {
		w.children(b, in)
	}
}

// rustIsTest reports whether the attributes before a function mark it a
// test (#[test], #[tokio::test], #[rstest]).
func (w *walker) rustIsTest(n *sitter.Node) bool {
	for p := n.PrevNamedSibling(); p != nil && p.Type() == "attribute_item"; p = p.PrevNamedSibling() {
		a := strings.TrimSpace(strings.Trim(w.text(p), "#[]"))
		if a == "test" || strings.HasSuffix(a, "::test") || a == "rstest" {
			return true
		}
	}
	return false
}

func (w *walker) javaNode(n *sitter.Node, s scope) {
	switch n.Type() {
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
		kind := map[string]string{"interface_declaration": "interface", "enum_declaration": "enum", "annotation_type_declaration": "interface"}[n.Type()]
		if kind == "" {
			kind = "class"
		}
		name := w.field(n, "name")
		w.add(n, kind, name, s)
		in := s.push(name)
		in.inClass = true
		if b := n.ChildByFieldName("body"); b != nil {
			w.children(b, in)
		}
	case "method_declaration", "constructor_declaration":
		q := w.add(n, "method", w.field(n, "name"), s)
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "modifiers" && strings.Contains(w.text(c), "@Test") {
				w.markTest(q)
			}
		}
	case "import_declaration":
		t := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(w.text(n), "import")), ";")
		w.o.Imports = append(w.o.Imports, strings.TrimSpace(t))
	case "enum_body_declarations":
		w.children(n, s)
	}
}

func (w *walker) cNode(n *sitter.Node, s scope) {
	switch n.Type() {
	case "function_definition":
		name := w.cDeclName(n.ChildByFieldName("declarator"))
		if name == "" {
			return
		}
		kind := "function"
		if s.inClass || strings.Contains(name, "::") {
			kind = "method"
		}
		w.add(n, kind, name, s)
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		name := w.field(n, "name")
		body := n.ChildByFieldName("body")
		if name == "" || body == nil {
			return
		}
		kind := "type"
		switch n.Type() {
		case "class_specifier":
			kind = "class"
		case "enum_specifier":
			kind = "enum"
		}
		w.add(n, kind, name, s)
		if w.o.Lang == "cpp" {
			in := s.push(name)
			in.inClass = true
			w.children(body, in)
		}
	case "type_definition":
		w.children(n, s) // a struct defined inside the typedef
		if d := n.ChildByFieldName("declarator"); d != nil && d.Type() == "type_identifier" {
			w.add(n, "type", w.text(d), s)
		}
	case "namespace_definition":
		name := w.field(n, "name")
		in := s
		if name != "" {
			w.add(n, "namespace", name, s)
			in = s.push(name)
		}
		if b := n.ChildByFieldName("body"); b != nil {
			w.children(b, in)
		}
	case "preproc_include":
		w.o.Imports = append(w.o.Imports, strings.Trim(w.field(n, "path"), "<>\""))
	case "declaration", "field_declaration":
		// struct/class definitions inside a declaration: struct s {…} v;
		if t := n.ChildByFieldName("type"); t != nil {
			w.cNode(t, s)
		}
	case "template_declaration", "linkage_specification", "declaration_list", "field_declaration_list",
		"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "access_specifier":
		w.children(n, s)
	}
}

// cDeclName digs the declared name out of a C declarator chain
// (pointer_declarator → function_declarator → identifier).
func (w *walker) cDeclName(d *sitter.Node) string {
	for d != nil {
		switch d.Type() {
		case "identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name", "type_identifier":
			return w.text(d)
		}
		d = d.ChildByFieldName("declarator")
	}
	return ""
}

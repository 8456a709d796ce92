//go:build cgo

package source

import (
	"slices"
	"strings"
	"testing"
)

// decls renders an outline as "kind name start-end [test]" rows.
func decls(o *Outline) []string {
	var out []string
	for _, d := range o.Decls {
		r := d.Kind + " " + d.Name + " " + itoa(d.Start) + "-" + itoa(d.End)
		if d.Test != "" {
			r += " test=" + d.Test
		}
		out = append(out, r)
	}
	return out
}

func TestOutlineLanguages(t *testing.T) {
	cases := []struct {
		path, src string
		want      []string
		imports   []string
	}{
		{"pkg/x_test.go", "package x\n\nimport (\n\t\"testing\"\n\tfoo \"a/b\"\n)\n\ntype (\n\tA int\n\tB struct{}\n)\n\nfunc (b *B[K]) Put() {}\n\nfunc TestPut(t *testing.T) {\n\tt.Run(\"sub\", nil)\n}\n\nfunc helper() {}\n",
			[]string{"type A 9-9", "type B 10-10", "method B.Put 13-13", "function TestPut 15-17 test=TestPut", "function helper 19-19"},
			[]string{"testing", "a/b"}},
		{"tests/test_x.py", "import os, json as j\nfrom a.b import c\n\nclass TestA:\n    def test_b(self):\n        pass\n\n    @staticmethod\n    def helper():\n        def test_inner():\n            pass\n\ndef test_top():\n    pass\n",
			[]string{"class TestA 4-11", "method TestA.test_b 5-6 test=tests/test_x.py::TestA::test_b", "method TestA.helper 9-11", "function TestA.helper.test_inner 10-11", "function test_top 13-14 test=tests/test_x.py::test_top"},
			[]string{"os", "json", "a.b"}},
		{"src/a.test.ts", "import { x } from './x';\ninterface I { a: number }\ntype T = string;\nexport class C {\n  m(): void {}\n}\nexport const f = (a: number) => a;\ndescribe('outer', () => {\n  it('works', () => {});\n});\n",
			[]string{"interface I 2-2", "type T 3-3", "class C 4-6", "method C.m 5-5", "function f 7-7", "test outer 8-10 test=outer", "test outer.works 9-9 test=outer › works"},
			[]string{"./x"}},
		{"web/a.jsx", "import React from 'react';\nfunction App() { return <div/>; }\nclass B extends React.Component {\n  render() { return null; }\n}\n",
			[]string{"function App 2-2", "class B 3-5", "method B.render 4-4"},
			[]string{"react"}},
		{"src/lib.rs", "use std::io;\npub struct P;\nimpl P {\n    pub fn new() -> P { P }\n}\nenum E { A }\ntrait Tr { fn t(&self); }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {}\n}\n",
			[]string{"type P 2-2", "method P::new 4-4", "enum E 6-6", "interface Tr 7-7", "method Tr::t 7-7", "module tests 9-12", "function tests::adds 11-11 test=tests::adds"},
			[]string{"std::io"}},
		{"src/FooTest.java", "package p;\nimport org.junit.Test;\npublic class FooTest {\n  @Test\n  public void adds() {}\n  FooTest() {}\n  interface In {}\n}\n",
			[]string{"class FooTest 3-8", "method FooTest.adds 4-5 test=FooTest.adds", "method FooTest.FooTest 6-6", "interface FooTest.In 7-7"},
			[]string{"org.junit.Test"}},
		{"c/a.c", "#include <stdio.h>\n#include \"a.h\"\nstruct s { int a; };\ntypedef struct { int b; } T;\nstatic int *f(int x) {\n  return 0;\n}\n",
			[]string{"type s 3-3", "type T 4-4", "function f 5-7"},
			[]string{"stdio.h", "a.h"}},
		{"c/a.cpp", "#include <vector>\nnamespace n {\nclass K {\n public:\n  void m() {}\n};\nvoid K::o() {}\n}\n",
			[]string{"namespace n 2-8", "class n::K 3-6", "method n::K::m 5-5", "method n::K::o 7-7"},
			[]string{"vector"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			o := Parse(c.path, []byte(c.src))
			if o.Partial {
				t.Errorf("partial: %s", o.Note)
			}
			if got := decls(o); !slices.Equal(got, c.want) {
				t.Errorf("decls\n got: %q\nwant: %q", got, c.want)
			}
			if !slices.Equal(o.Imports, c.imports) {
				t.Errorf("imports %q, want %q", o.Imports, c.imports)
			}
		})
	}
}

func TestOutlineFailOpen(t *testing.T) {
	o := Parse("a.go", []byte("package a\n\nfunc ok() {}\n\nfunc broken( {\n"))
	if !o.Partial || !strings.Contains(o.Note, "parse errors from line") {
		t.Errorf("broken Go: partial=%v note=%q", o.Partial, o.Note)
	}
	if _, ok := o.Find("ok"); !ok {
		t.Errorf("the declaration before the error is lost: %v", decls(o))
	}
	o = Parse("notes.txt", []byte("hello"))
	if !o.Partial || !strings.Contains(o.Note, "no grammar") {
		t.Errorf("unknown extension: partial=%v note=%q", o.Partial, o.Note)
	}
}

func TestOutlineAt(t *testing.T) {
	o := Parse("x.py", []byte("class A:\n    def f(self):\n        return 1\n"))
	if d, ok := o.At(3); !ok || d.Name != "A.f" {
		t.Errorf("At(3) = %v %v, want A.f", d, ok)
	}
	if _, ok := o.At(9); ok {
		t.Error("At(9) found a declaration past the end")
	}
}

// TestForTest maps the identities test runners print, subtests and
// parameters included, to the declaring test.
func TestForTest(t *testing.T) {
	o := Parse("calc_test.go", []byte("package calc\n\nimport \"testing\"\n\nfunc TestDiv(t *testing.T) {\n\tt.Run(\"zero\", nil)\n}\n\nfunc TestDivide(t *testing.T) {}\n"))
	for id, want := range map[string]string{"TestDiv": "TestDiv", "TestDiv/zero": "TestDiv", "TestDiv/zero/deeper": "TestDiv", "TestDivide": "TestDivide", "TestDivideX": "", "TestSub": ""} {
		d, ok := o.ForTest(id)
		if d.Name != want || ok != (want != "") {
			t.Errorf("ForTest(%q) = %q %v, want %q", id, d.Name, ok, want)
		}
	}
	if GrammarsAvailable() {
		py := Parse("tests/test_x.py", []byte("class TestA:\n    def test_b(self, n):\n        pass\n"))
		if d, ok := py.ForTest("tests/test_x.py::TestA::test_b[2-3]"); !ok || d.Name != "TestA.test_b" {
			t.Errorf("pytest parameter: %q %v", d.Name, ok)
		}
	}
	dir := t.TempDir()
	writeFile(t, dir, "calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestDiv(t *testing.T) {\n\tt.Run(\"zero\", nil)\n}\n")
	a, _ := ParseAddress("repo:calc_test.go#TestDiv/zero")
	if r, err := Resolve(dir, a); err != nil || r.Address.From != 5 || r.Address.To != 7 {
		t.Errorf("repo:calc_test.go#TestDiv/zero: %v %v", r, err)
	}
}

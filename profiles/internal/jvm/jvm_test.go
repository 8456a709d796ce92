package jvm

import "testing"

func TestParseException(t *testing.T) {
	for _, c := range []struct {
		in        string
		ok        bool
		class     string
		msg, file string
	}{
		{"org.opentest4j.AssertionFailedError: expected: <1> but was: <0>", true, "org.opentest4j.AssertionFailedError", "expected: <1> but was: <0>", ""},
		{"java.lang.AssertionError at CalcTest.java:8", true, "java.lang.AssertionError", "", "CalcTest.java"},
		{"java.lang.NullPointerException", true, "java.lang.NullPointerException", "", ""},
		{"com.acme.Outer$Inner: boom", true, "com.acme.Outer$Inner", "boom", ""},
		{"demo.CalcTest", false, "", "", ""},       // a class, not a throwable
		{"see docs.gradle.Org", false, "", "", ""}, // words
		{"Caused by: java.io.IOException: x", false, "", "", ""},
	} {
		e, ok := ParseException(c.in)
		if ok != c.ok || e.Class != c.class || e.Message != c.msg || e.File != c.file {
			t.Errorf("ParseException(%q) = %+v %v", c.in, e, ok)
		}
	}
}

func TestParseFrame(t *testing.T) {
	f, ok := ParseFrame("\tat demo.CalcTest.addsWrong(CalcTest.java:8)")
	if !ok || f.Method != "demo.CalcTest.addsWrong" || f.File != "CalcTest.java" || f.Line != 8 {
		t.Errorf("frame %+v %v", f, ok)
	}
	f, ok = ParseFrame("at java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)")
	if !ok || f.Line != 0 || f.File != "Native Method" {
		t.Errorf("native frame %+v %v", f, ok)
	}
}

func TestParseJavac(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Diagnostic
	}{
		{"/a/src/Calc.java:5: error: cannot find symbol", Diagnostic{File: "/a/src/Calc.java", Line: 5, Severity: "error", Message: "cannot find symbol"}},
		{"src/A.java:12: warning: [deprecation] x", Diagnostic{File: "src/A.java", Line: 12, Severity: "warning", Message: "[deprecation] x"}},
		{"e: file:///w/src/main/kotlin/App.kt:3:5 Unresolved reference: foo", Diagnostic{File: "/w/src/main/kotlin/App.kt", Line: 3, Col: 5, Severity: "error", Message: "Unresolved reference: foo"}},
		{"w: /w/App.kt: (7, 9): Parameter 'x' is never used", Diagnostic{File: "/w/App.kt", Line: 7, Col: 9, Severity: "warning", Message: "Parameter 'x' is never used"}},
	} {
		d, ok := ParseJavac(c.in)
		if !ok || d != c.want {
			t.Errorf("ParseJavac(%q) = %+v %v", c.in, d, ok)
		}
	}
	d, ok := ParseMavenJavac("/tmp/m/src/main/java/demo/Calc.java:[5,47] cannot find symbol")
	if !ok || d.Line != 5 || d.Col != 47 || d.Message != "cannot find symbol" {
		t.Errorf("maven %+v", d)
	}
	if s, ok := Detail("  symbol:   variable c"); !ok || s != "symbol: variable c" {
		t.Errorf("detail %q %v", s, ok)
	}
	if _, ok := Detail("symbol: x"); ok {
		t.Error("an unindented line is no detail")
	}
}

package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

func TestPointer(t *testing.T) {
	doc := readTestdata(t, "kube.json")
	pretty := readTestdata(t, "jq-plain.txt")
	color := readTestdata(t, "jq-color.txt")
	for _, tc := range []struct {
		ptr  string
		want string
	}{
		{"", strings.TrimSpace(string(doc))},
		{"/kind", `"List"`},
		{"/items/2/error", `"CrashLoopBackOff: back-off 5m0s restarting failed container"`},
		{"/items/2/status/restarts", `7`},
		{"/items/4/status", `{"phase":"Running","restarts":0,"ready":true}`},
		{"/items/0/metadata/labels/tier", `"front/end"`},
		{"/metadata/a~0b/c~1d", `[1, 2.5e3, -0, null, "\u00e9\ud83d\ude00"]`},
		{"/metadata/a~0b/c~1d/1", `2.5e3`},
		{"/metadata/a~0b/c~1d/4", `"\u00e9\ud83d\ude00"`},
		{"/metadata/resourceVersion", `""`},
	} {
		var out bytes.Buffer
		if err := Pointer(bytes.NewReader(doc), tc.ptr, &out); err != nil {
			t.Errorf("Pointer(%q): %v", tc.ptr, err)
			continue
		}
		if out.String() != tc.want {
			t.Errorf("Pointer(%q) = %s, want %s", tc.ptr, out.String(), tc.want)
		}
		// The pretty and coloured forms give the same value, as jq printed it.
		for _, in := range [][]byte{pretty, color} {
			out.Reset()
			if err := Pointer(bytes.NewReader(in), tc.ptr, &out); err != nil {
				t.Errorf("Pointer(%q) on pretty form: %v", tc.ptr, err)
				continue
			}
			if !sameJSON(t, out.Bytes(), []byte(tc.want)) {
				t.Errorf("Pointer(%q) on pretty form = %s", tc.ptr, out.String())
			}
			if !bytes.Contains(pretty, out.Bytes()) {
				t.Errorf("Pointer(%q) = %q is not a run of the input's bytes", tc.ptr, out.String())
			}
		}
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Errorf("not JSON: %q: %v", a, err)
		return false
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Errorf("not JSON: %q: %v", b, err)
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func TestPointerErrors(t *testing.T) {
	doc := readTestdata(t, "kube.json")
	for _, tc := range []struct {
		ptr     string
		segment string
		at      string
		reason  string
	}{
		{"/nope", "nope", "", "no such key"},
		{"/items/9", "9", "/items", "index out of range (5 elements)"},
		{"/items/2/metadata/uid", "uid", "/items/2/metadata", "no such key"},
		{"/kind/x", "x", "/kind", "not an object or array (string)"},
		{"/items/-", "-", "/items", `"-" names the element after the last`},
		{"/items/01", "01", "/items", "not an array index"},
		{"/metadata/a~0b/c~1d/7", "7", "/metadata/a~0b/c~1d", "index out of range (5 elements)"},
	} {
		err := Pointer(bytes.NewReader(doc), tc.ptr, &bytes.Buffer{})
		var pe *PointerError
		if !errors.As(err, &pe) {
			t.Errorf("Pointer(%q) error = %v, want a PointerError", tc.ptr, err)
			continue
		}
		if pe.Segment != tc.segment || pe.At != tc.at || !strings.HasPrefix(pe.Reason, tc.reason) {
			t.Errorf("Pointer(%q) = %+v, want segment %q at %q: %s", tc.ptr, pe, tc.segment, tc.at, tc.reason)
		}
		if !strings.Contains(err.Error(), strconv.Quote(tc.segment)) {
			t.Errorf("error %q does not name the segment", err)
		}
	}
	for _, ptr := range []string{"items", "/a~2", "/a~"} {
		if err := Pointer(bytes.NewReader(doc), ptr, &bytes.Buffer{}); err == nil {
			t.Errorf("Pointer(%q) accepted a malformed pointer", ptr)
		}
	}
	if err := Pointer(strings.NewReader(`{"a": [1, 2`), "/a", &bytes.Buffer{}); err == nil {
		t.Error("Pointer on a truncated document succeeded")
	}
}

func TestRecords(t *testing.T) {
	in := readTestdata(t, "jq-items.jsonl")
	lines := strings.Split(strings.TrimSpace(string(in)), "\n")
	for _, tc := range []struct{ from, to int }{{1, 1}, {2, 3}, {1, 5}, {5, 5}} {
		var out bytes.Buffer
		if err := Records(bytes.NewReader(in), tc.from, tc.to, &out); err != nil {
			t.Fatalf("Records(%d, %d): %v", tc.from, tc.to, err)
		}
		want := strings.Join(lines[tc.from-1:tc.to], "\n") + "\n"
		if out.String() != want {
			t.Errorf("Records(%d, %d) = %q, want %q", tc.from, tc.to, out.String(), want)
		}
	}
	var out bytes.Buffer
	err := Records(bytes.NewReader(in), 4, 9, &out)
	var re *RangeError
	if !errors.As(err, &re) || re.Records != 5 || !strings.Contains(err.Error(), "holds 5 records") {
		t.Errorf("Records(4, 9) error = %v, want a RangeError saying 5 records", err)
	}
	if out.String() != lines[3]+"\n"+lines[4]+"\n" {
		t.Errorf("Records(4, 9) wrote %q, want records 4 and 5", out.String())
	}
	out.Reset()
	if err := Records(bytes.NewReader(in), 6, 7, &out); !errors.As(err, &re) || out.Len() != 0 {
		t.Errorf("Records(6, 7) = %v, wrote %q", err, out.String())
	}
	for _, r := range [][2]int{{0, 1}, {3, 2}} {
		if err := Records(bytes.NewReader(in), r[0], r[1], &out); err == nil {
			t.Errorf("Records(%d, %d) accepted a bad range", r[0], r[1])
		}
	}
}

// Records and the profile agree: the record a record item names is the one
// Records returns, and it sits on the lines of the item's span.
func TestRecordsAgreeWithItems(t *testing.T) {
	in := []byte("banner line\n" + string(genJSONL(40, map[int]string{13: `{"odd":13}`, 31: `{"level":"fatal","msg":"x"}`})))
	g := parseOut(t, nil, 0, in, nil)
	lines := strings.Split(string(in), "\n")
	checked := 0
	for _, it := range g.Items {
		if it.Kind != evidence.KindRecord && it.Kind != evidence.KindAnomaly {
			continue
		}
		n, _ := strconv.Atoi(it.Attrs["record"])
		var out bytes.Buffer
		if err := Records(bytes.NewReader(in), n, n, &out); err != nil {
			t.Fatal(err)
		}
		if got, want := out.String(), lines[it.Span.From-1]+"\n"; got != want {
			t.Errorf("record %d = %q, its span's line = %q", n, got, want)
		}
		checked++
	}
	if checked != 3 {
		t.Errorf("checked %d items, want 3 (two minority records, one error)", checked)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"a":1}` + "\n" + `{"a":2}`,
		"[1, 2, {\"x\": null}]",
		"{\n \"a\": [true, false]\n}\n{\"b\": \"\\u00e9\"}\n",
		"\x1b[1;39m{\x1b[0m\"a\":1}",
		"not json\n{\"a\":1}\n",
		`{"level":"error","error":{"code":1}}`,
		"[[[[[[]]]]]]",
		`{"a":"\ud800"}`,
		`[{"s":"OPEN","n":"a"},{"s":"OPEN","n":"b"},{"s":"OPEN","n":"c"},{"s":"OPEN","n":"d"},{"s":"CLOSED","n":"e"},{"s":true,"n":"f"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		g1, err1 := parseTwice(nil, 0, in, nil)
		if err1 == nil {
			for _, it := range g1.Items {
				if it.Span.IsZero() && it.Kind != evidence.KindSummary {
					t.Errorf("item without span: %+v", it)
				}
			}
		}
		// A valid JSON document always parses.
		if json.Valid(in) && err1 != nil {
			t.Errorf("valid JSON %q failed: %v", in, err1)
		}
		_ = Profile.Content(evidence.BytesSource(nil, 0, in, nil))
	})
}

// Pointer returns exact input bytes that are the value encoding/json finds
// at the same place.
func FuzzPointer(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,2,{"c~d/e":"x"}]}}`), "/a/b/2/c~0d~1e")
	f.Add([]byte(`[0, [1, [2]]]`), "/1/1/0")
	f.Add([]byte(`{"":{"":3}}`), "//")
	f.Fuzz(func(t *testing.T, doc []byte, ptr string) {
		var out bytes.Buffer
		err := Pointer(bytes.NewReader(doc), ptr, &out)
		if !json.Valid(doc) {
			return
		}
		want, ok := walk(doc, ptr)
		if ok != (err == nil) {
			t.Fatalf("Pointer(%q, %q) error %v, encoding/json finds it: %v", doc, ptr, err, ok)
		}
		if err != nil {
			return
		}
		if !bytes.Contains(doc, out.Bytes()) {
			t.Fatalf("Pointer(%q, %q) = %q is not input bytes", doc, ptr, out.Bytes())
		}
		var got any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("Pointer(%q, %q) = %q is not JSON", doc, ptr, out.Bytes())
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if !bytes.Equal(a, b) {
			t.Fatalf("Pointer(%q, %q) = %s, encoding/json finds %s", doc, ptr, a, b)
		}
	})
}

// walk resolves ptr with encoding/json, taking the first of duplicate keys
// as Pointer does.
func walk(doc []byte, ptr string) (any, bool) {
	segs, err := parsePointer(ptr)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	for _, seg := range segs {
		switch strings.TrimLeft(string(v), " \t\r\n")[0] {
		case '{':
			d := json.NewDecoder(bytes.NewReader(v))
			d.Token()
			found := false
			for d.More() {
				k, _ := d.Token()
				var val json.RawMessage
				d.Decode(&val)
				if k.(string) == seg {
					v, found = val, true
					break
				}
			}
			if !found {
				return nil, false
			}
		case '[':
			var arr []json.RawMessage
			json.Unmarshal(v, &arr)
			i, err := arrayIndex(seg)
			if err != nil || i >= len(arr) {
				return nil, false
			}
			v = arr[i]
		default:
			return nil, false
		}
	}
	var out any
	json.Unmarshal(v, &out)
	return out, true
}

func FuzzRecords(f *testing.F) {
	f.Add([]byte("{\"a\":1}\nx\n[2]\n{\n}\n"), 1, 3)
	f.Fuzz(func(t *testing.T, in []byte, from, to int) {
		if from < 1 || from > 50 || to < from || to > 50 {
			return
		}
		var a, b bytes.Buffer
		errA := Records(bytes.NewReader(in), from, to, &a)
		errB := Records(bytes.NewReader(in), from, to, &b)
		if (errA == nil) != (errB == nil) || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatal("Records is not deterministic")
		}
		// Every record written is JSON.
		if errA == nil {
			dec := json.NewDecoder(&a)
			for dec.More() {
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("Records wrote non-JSON %q: %v", a.String(), err)
				}
			}
		}
	})
}

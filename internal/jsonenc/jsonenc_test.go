package jsonenc

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/ctxhq/ctx/internal/jsonenc/jsontest"
)

var samples = []string{"", "go", "a b", `q"uote`, `back\slash`, "a<b", "x>y", "&", "tab\t", "nl\n", "\r\b\f", "\x00\x1f\x7f",
	"héllo", "日本", "\u2028\u2029", "bad\xffutf8", "\xc3", "emoji 🙂", "~"}

func same(t *testing.T, v any, got []byte) {
	t.Helper()
	jsontest.Same(t, fmt.Sprintf("%#v", v), got, v)
}

func TestMatchesEncodingJSON(t *testing.T) {
	for _, s := range samples {
		same(t, s, String(nil, s))
	}
	same(t, []string(nil), Strings[string](nil, nil))
	same(t, []string{}, Strings(nil, []string{}))
	same(t, samples, Strings(nil, samples))
	same(t, map[string]string(nil), StringMap(nil, nil))
	m := map[string]string{}
	same(t, m, StringMap(nil, m))
	for i, s := range samples {
		m[s] = samples[len(samples)-1-i]
	}
	same(t, m, StringMap(nil, m))
	for _, n := range []int64{0, 1, -1, 1 << 62, -1 << 63} {
		same(t, n, Int(nil, n))
	}
	for _, tm := range []time.Time{
		{},
		time.Date(2026, 12, 2, 5, 40, 1, 123456789, time.UTC),
		time.Date(2026, 12, 2, 5, 40, 1, 0, time.FixedZone("x", -5*3600-30*60)),
		time.Date(1, 1, 1, 0, 0, 0, 1000, time.FixedZone("y", 23*3600+59*60)),
		time.Now(),
	} {
		got, ok := Time(nil, tm)
		if !ok {
			t.Errorf("%v refused", tm)
		}
		same(t, tm, got)
	}
	for _, tm := range []time.Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("z", 24*3600))} {
		if _, err := json.Marshal(tm); err == nil {
			t.Fatalf("encoding/json marshals %v", tm)
		}
		if _, ok := Time(nil, tm); ok {
			t.Errorf("%v accepted, which encoding/json refuses", tm)
		}
	}
}

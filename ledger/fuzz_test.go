package ledger

import (
	"testing"

	"github.com/ctxhq/ctx/continuity"
)

// FuzzValidate: any JSON row is either refused with a SchemaError or, when
// accepted, decodes into a Row of its kind; nothing panics.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"kind":"claim","task":"0123456789ab","by":"w","at":"2026-01-02T03:04:05Z","lease_until":"2026-01-02T04:04:05Z"}`,
		`{"v":1,"kind":"handback","task":"0123456789ab","by":"w","at":"2026-01-02T03:04:05Z","handback":"failed","failure_kind":"none","checkpoint":"","turns":1,"cost":0.5,"evidence":[]}`,
		`{"v":2,"kind":"task"}`, `{"kind":"verdict","pass":"yes"}`, `[]`, `{"v":1,"kind":"inbox","task":"X","from":"","at":"","text":""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := continuity.ParseJSON(data)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		if err := validate(m, false); err != nil {
			if _, ok := err.(*SchemaError); !ok {
				t.Fatalf("validate returned %T %v", err, err)
			}
			return
		}
		if _, ok := schema[m["kind"].(string)]; !ok {
			t.Fatalf("accepted a row of kind %v", m["kind"])
		}
	})
}

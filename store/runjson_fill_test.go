package store

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/ctxhq/ctx/internal/jsonenc/jsontest"
)

// TestHandJSONCoversEveryField: with every exported field of a run, an
// execution and a spool's meta set (jsontest.Fill walks the types, so a
// field added later is set too), the hand-written encodings are
// encoding/json's bytes. A field added to one of these types and not to its
// encoder fails here.
func TestHandJSONCoversEveryField(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50; i++ {
		var run Run
		jsontest.Fill(&run, r)
		same(t, "run", run.appendJSON(nil), run)
		var e Exec
		jsontest.Fill(&e, r)
		got, err := e.marshal()
		if err != nil {
			t.Fatal(err)
		}
		same(t, "execution", got, e)
		var m SpoolMeta
		jsontest.Fill(&m, r)
		if got, err = m.marshal(); err != nil {
			t.Fatal(err)
		}
		same(t, "spool meta", got, m)
	}
}

func same(t *testing.T, what string, got []byte, v any) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: the hand-written encoding differs from encoding/json's:\n got %s\nwant %s", what, got, want)
	}
}

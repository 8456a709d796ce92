package store

import (
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
		jsontest.Same(t, "run", run.appendJSON(nil), run)
		var e Exec
		jsontest.Fill(&e, r)
		got, err := e.marshal()
		if err != nil {
			t.Fatal(err)
		}
		jsontest.Same(t, "execution", got, e)
		var m SpoolMeta
		jsontest.Fill(&m, r)
		if got, err = m.marshal(); err != nil {
			t.Fatal(err)
		}
		jsontest.Same(t, "spool meta", got, m)
	}
}

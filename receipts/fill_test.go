package receipts

import (
	"math/rand/v2"
	"testing"

	"github.com/ctxhq/ctx/internal/jsonenc/jsontest"
)

// TestMarshalCoversEveryField: a receipt with every exported field set
// (jsontest.Fill walks the types, so a field added to Receipt, plan.Plan or
// contract.Coverage later is set too), less the redactions and losses that
// send it through encoding/json, marshals by hand to encoding/json's bytes.
// A field added to one of these types and not to its encoder fails here.
func TestMarshalCoversEveryField(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 50; i++ {
		var rc Receipt
		jsontest.Fill(&rc, r)
		rc.Secrets.Redacted = nil
		rc.Coverage.Losses = nil
		if i%2 == 0 {
			rc.Census, rc.Anchors = "", nil // the omitted forms
		}
		got, err := rc.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		jsontest.Same(t, "receipt", got, &rc)
	}
}

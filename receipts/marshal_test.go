package receipts

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/plan"
)

// TestMarshalIsEncodingJSON holds the hand-written receipt, plan and
// coverage encodings to encoding/json's bytes over receipts with every field
// set and unset, and strings that need escapes.
func TestMarshalIsEncodingJSON(t *testing.T) {
	strs := []string{"", "digest", "pytest/1", "a<b", "x>y&", `q"\`, "tab\t", "héllo", "\u2028", "bad\xff", "run:0123abcd"}
	r := rand.New(rand.NewPCG(3, 4))
	pick := func() string { return strs[r.IntN(len(strs))] }
	n := func() int { return r.IntN(3) * r.IntN(1<<30) }
	for i := 0; i < 1000; i++ {
		p := plan.Plan{ID: pick(), Profile: pick(), Contract: pick(), Outcome: pick(), Mode: pick(), Budget: n() - 5, Pressure: pick(), Level: n(), Epoch: pick()}
		if i%3 > 0 {
			p.Reasons = []plan.Reason{}
			for j := r.IntN(4); j > 0; j-- {
				p.Reasons = append(p.Reasons, plan.Reason(pick()))
			}
		}
		cov := contract.Coverage{Identities: n(), Inline: n(), Retrievable: n(), Unrepresented: n(), RequiredTotal: n(), RequiredInline: n(),
			RequiredCensus: n(), RequiredUnrepresented: n(), ElasticOmitted: n(), BytesCaptured: int64(n()) << 20, BytesStored: int64(n()),
			BytesShown: int64(n()), LinesShown: int64(n()), LinesTotal: int64(n())}
		if i%7 == 0 {
			cov.Losses = []evidence.Loss{{Code: pick(), Detail: pick()}}
		}
		rec := Receipt{Kind: pick(), Version: n(), Run: pick(), Plan: p, Coverage: cov, Digest: pick(), Census: pick(), Secrets: Secrets{Rules: pick()}}
		switch i % 4 {
		case 1:
			rec.Refs = []string{pick(), pick()}
			rec.Anchors = map[string]string{pick(): pick(), pick(): pick()}
		case 2:
			rec.Secrets.Redacted = map[string]int{pick(): n()}
			rec.Anchors = map[string]string{}
		case 3:
			rec.Secrets.Redacted = map[string]int{}
			rec.Refs = []string{}
		}
		want, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := rec.Marshal(); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("receipt %d:\n got %s (%v)\nwant %s", i, got, err, want)
		}
		wantP, _ := json.Marshal(p)
		if got := p.AppendJSON(nil); !bytes.Equal(got, wantP) {
			t.Fatalf("plan %d:\n got %s\nwant %s", i, got, wantP)
		}
	}
}

package contract

import (
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/jsonenc"
)

// Coverage is what a digest kept of a graph, computed over typed items from the
// set of items the renderer showed — never by reading the rendered text.
type Coverage struct {
	Identities    int `json:"identities"`    // items that name something: tests, diagnostics, templates, files…
	Inline        int `json:"inline"`        // identities shown in the digest
	Retrievable   int `json:"retrievable"`   // identities not shown but reachable by a handle
	Unrepresented int `json:"unrepresented"` // identities neither shown nor reachable
	// RequiredTotal and RequiredUnrepresented count REQUIRED items; the second
	// must be 0 or the digest says why.
	RequiredTotal         int `json:"required_total"`
	RequiredInline        int `json:"required_inline"`
	RequiredCensus        int `json:"required_census"` // listed in a census blob (flood mode)
	RequiredUnrepresented int `json:"required_unrepresented"`
	// ElasticOmitted counts ELASTIC items left out (all retrievable by handle).
	ElasticOmitted int `json:"elastic_omitted"`
	// Bytes: what the command wrote, what the store kept (the cap may drop some)
	// and what the digest shows.
	BytesCaptured int64 `json:"bytes_captured"`
	BytesStored   int64 `json:"bytes_stored"`
	BytesShown    int64 `json:"bytes_shown"`
	// LinesShown counts output lines shown verbatim, of LinesTotal.
	LinesShown int64 `json:"lines_shown"`
	LinesTotal int64 `json:"lines_total"`
	// Losses are labelled: the graph's (parser fallbacks, caps) and the
	// capture's (bytes dropped at the cap).
	Losses []evidence.Loss `json:"losses,omitempty"`
}

// AppendJSON appends the coverage as json.Marshal writes it, by hand (a
// run encodes it in its receipt; receipts.TestMarshalIsEncodingJSON holds the two
// equal). It reports false, appending nothing, when there are losses, which
// it leaves to encoding/json.
func (c *Coverage) AppendJSON(b []byte) ([]byte, bool) {
	if len(c.Losses) > 0 {
		return b, false
	}
	for i, f := range [...]struct {
		key string
		v   int64
	}{{"identities", int64(c.Identities)}, {"inline", int64(c.Inline)}, {"retrievable", int64(c.Retrievable)}, {"unrepresented", int64(c.Unrepresented)},
		{"required_total", int64(c.RequiredTotal)}, {"required_inline", int64(c.RequiredInline)}, {"required_census", int64(c.RequiredCensus)},
		{"required_unrepresented", int64(c.RequiredUnrepresented)}, {"elastic_omitted", int64(c.ElasticOmitted)},
		{"bytes_captured", c.BytesCaptured}, {"bytes_stored", c.BytesStored}, {"bytes_shown", c.BytesShown},
		{"lines_shown", c.LinesShown}, {"lines_total", c.LinesTotal}} {
		if i == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), f.key...), `":`...)
		b = jsonenc.Int(b, f.v)
	}
	return append(b, '}'), true
}

// IsIdentity reports whether an item names a thing a reader may ask about (as
// opposed to a region of output or a summary).
func IsIdentity(it *evidence.Item) bool {
	switch it.Kind {
	case evidence.KindRegion, evidence.KindSummary, evidence.KindBinary, evidence.KindShape:
		return false
	}
	return true
}

// Measure computes coverage. inline and census are item indexes into g.Items
// (what the digest showed, and what it listed in a census blob).
func (c *Contract) Measure(g *evidence.Graph, inline, census map[int]bool) Coverage {
	var cov Coverage
	for i := range g.Items {
		it := &g.Items[i]
		class := c.ClassOf(it)
		shown := inline[i]
		listed := census[i]
		reachable := !it.Span.IsZero() || !it.Detail.IsZero() || listed
		if IsIdentity(it) {
			cov.Identities++
			switch {
			case shown:
				cov.Inline++
			case reachable:
				cov.Retrievable++
			default:
				cov.Unrepresented++
			}
		}
		switch class {
		case Required:
			cov.RequiredTotal++
			switch {
			case shown:
				cov.RequiredInline++
			case listed:
				cov.RequiredCensus++
			default:
				cov.RequiredUnrepresented++
			}
		case Elastic:
			if !shown {
				cov.ElasticOmitted++
			}
		}
	}
	cov.Losses = append(cov.Losses, g.Losses...)
	return cov
}

// String is the one-line receipt the digest prints.
func (cov Coverage) String() string {
	var parts []string
	if cov.Identities > 0 {
		parts = append(parts, fmt.Sprintf("identities %s · inline %s · retrievable %s",
			Num(int64(cov.Identities)), Num(int64(cov.Inline)), Num(int64(cov.Retrievable))))
	}
	if cov.LinesShown > 0 {
		parts = append(parts, fmt.Sprintf("lines %s/%s", Num(cov.LinesShown), Num(cov.LinesTotal)))
	}
	req := fmt.Sprintf("unrepresented required %d", cov.RequiredUnrepresented)
	if cov.RequiredCensus > 0 {
		req = fmt.Sprintf("required %d inline + %d in census · unrepresented required %d", cov.RequiredInline, cov.RequiredCensus, cov.RequiredUnrepresented)
	}
	parts = append(parts, req)
	parts = append(parts, fmt.Sprintf("shown %s of %s", Size(cov.BytesShown), Size(cov.BytesCaptured)))
	return strings.Join(parts, " · ")
}

// Num formats an integer with thousands separators.
func Num(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Size formats a byte count: "512 B", "48.2 KiB", "1.0 GiB".
func Size(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

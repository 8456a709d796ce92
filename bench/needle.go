package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/receipts"
)

// NeedleLog generates a log of lines-1 busy lines from a few templates, with
// varying timestamps, ids, numbers and paths, and one quiet INFO line unlike
// any other at a seeded position. It returns the log, the needle and its
// 1-based line number.
func NeedleLog(seed uint64, lines int) (log []byte, needle string, at int) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	at = 1 + lines/3 + rng.IntN(lines/3)
	var b bytes.Buffer
	hex := func(n int) string {
		const digits = "0123456789abcdef"
		s := make([]byte, n)
		for i := range s {
			s[i] = digits[rng.IntN(16)]
		}
		return string(s)
	}
	for i := 1; i <= lines; i++ {
		ts := fmt.Sprintf("2026-11-29T%02d:%02d:%02d.%03dZ", 8+i/36000%12, i/600%60, i/10%60, rng.IntN(1000))
		if i == at {
			needle = fmt.Sprintf("%s INFO  [main] schema migration skipped: replica lag above threshold, operator override in effect", ts)
			b.WriteString(needle)
			b.WriteByte('\n')
			continue
		}
		switch k := rng.IntN(100); {
		case k < 40:
			fmt.Fprintf(&b, "%s INFO  [http-%d] request %s GET /api/v2/items/%d status=200 bytes=%d duration=%dms\n",
				ts, rng.IntN(32), hex(16), rng.IntN(100000), 200+rng.IntN(90000), 1+rng.IntN(900))
		case k < 65:
			fmt.Fprintf(&b, "%s DEBUG [pool-%d] connection %d returned to pool (active=%d idle=%d)\n",
				ts, rng.IntN(8), 1000+rng.IntN(9000), rng.IntN(64), rng.IntN(64))
		case k < 85:
			fmt.Fprintf(&b, "%s INFO  [scheduler] job %s-%d completed in %d.%03ds\n",
				ts, hex(8), rng.IntN(1000), rng.IntN(60), rng.IntN(1000))
		case k < 95:
			fmt.Fprintf(&b, "%s WARN  [cache] evicted %d entries from shard %d (pressure %d%%)\n",
				ts, 1+rng.IntN(5000), rng.IntN(32), 50+rng.IntN(50))
		default:
			fmt.Fprintf(&b, "%s INFO  [auth] user u%06d logged in from 10.%d.%d.%d\n",
				ts, rng.IntN(1000000), rng.IntN(256), rng.IntN(256), rng.IntN(256))
		}
	}
	return b.Bytes(), needle, at
}

// NeedleResult is what the needle benchmark measured.
type NeedleResult struct {
	Seed         uint64  `json:"seed"`
	Lines        int     `json:"lines"`
	NeedleLine   int     `json:"needle_line"`
	RawTokens    int     `json:"raw_tokens"`
	DigestTokens int     `json:"digest_tokens"`
	Ratio        float64 `json:"ratio"`
	Inline       bool    `json:"needle_inline_verbatim"`
	Handle       string  `json:"needle_handle,omitempty"`
	Retrievable  bool    `json:"needle_retrievable"`
	Run          string  `json:"run"`
	Profile      string  `json:"profile"`
	Digest       string  `json:"digest"`
}

// RunNeedle digests a needle log and checks the needle is inline, verbatim,
// with a handle that returns it.
func RunNeedle(ctx context.Context, seed uint64, lines int) (*NeedleResult, error) {
	log, needle, at := NeedleLog(seed, lines)
	sc, err := NewScratch("")
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	res, err := sc.Digest(ctx, []string{"cat", "app.log"}, 0, log, nil, receipts.Options{})
	if err != nil {
		return nil, err
	}
	r := &NeedleResult{Seed: seed, Lines: lines, NeedleLine: at, Run: res.Run.Handle(), Profile: res.Plan.Profile,
		Digest: string(res.Digest.Text)}
	if r.RawTokens, err = Tokens(log); err != nil {
		return nil, err
	}
	if r.DigestTokens, err = Tokens(res.Digest.Text); err != nil {
		return nil, err
	}
	r.Ratio = float64(r.RawTokens) / float64(max(r.DigestTokens, 1))
	r.Inline = bytes.Contains(res.Digest.Text, []byte(needle))
	for i := range res.Graph.Items {
		it := &res.Graph.Items[i]
		if it.Kind == evidence.KindAnomaly && it.Text == needle && !it.Span.IsZero() {
			r.Handle = it.Span.Handle()
			break
		}
	}
	if r.Handle != "" {
		got, err := sc.Lines(r.Handle)
		if err != nil {
			return nil, err
		}
		r.Retrievable = strings.TrimSuffix(string(got), "\n") == needle
	}
	return r, nil
}

// WriteText prints the needle figures.
func (r *NeedleResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "needle log\tseed %d, %d lines, needle at L%d\n", r.Seed, r.Lines, r.NeedleLine)
	fmt.Fprintf(tw, "raw tokens\t%d\n", r.RawTokens)
	fmt.Fprintf(tw, "digest tokens\t%d (%s)\n", r.DigestTokens, r.Profile)
	fmt.Fprintf(tw, "ratio\t%.0f×\n", r.Ratio)
	fmt.Fprintf(tw, "needle inline verbatim\t%v\n", r.Inline)
	fmt.Fprintf(tw, "needle handle\t%s (returns the needle: %v)\n", r.Handle, r.Retrievable)
	return tw.Flush()
}

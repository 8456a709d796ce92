package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/ctxhq/ctx/digest"
)

// DigestInput is one captured output to digest.
type DigestInput struct {
	Name string   // file name or handle
	Argv []string // the command that produced it, when known
	Exit int
	Data []byte
}

// DigestRow is one output's figures.
type DigestRow struct {
	Name                  string  `json:"name"`
	Profile               string  `json:"profile"`
	Mode                  string  `json:"mode"`
	RawBytes              int     `json:"raw_bytes"`
	RawTokens             int     `json:"raw_tokens"`
	DigestTokens          int     `json:"digest_tokens"`
	Ratio                 float64 `json:"ratio"`
	Identities            int     `json:"identities"`
	Inline                int     `json:"inline"`
	Retrievable           int     `json:"retrievable"`
	RequiredTotal         int     `json:"required_total"`
	RequiredKept          int     `json:"required_kept"` // inline or in a census blob
	RequiredUnrepresented int     `json:"required_unrepresented"`
}

// RunDigest digests each input and measures it in real tokens.
func RunDigest(ctx context.Context, inputs []DigestInput) ([]DigestRow, error) {
	sc, err := NewScratch("")
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	var rows []DigestRow
	for _, in := range inputs {
		res, err := sc.Digest(ctx, in.Argv, in.Exit, in.Data, nil, digest.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		row := DigestRow{Name: in.Name, Profile: res.Plan.Profile, Mode: res.Plan.Mode, RawBytes: len(in.Data)}
		if row.RawTokens, err = Tokens(in.Data); err != nil {
			return nil, err
		}
		if row.DigestTokens, err = Tokens(res.Digest.Text); err != nil {
			return nil, err
		}
		row.Ratio = float64(row.RawTokens) / float64(max(row.DigestTokens, 1))
		cov := res.Digest.Coverage
		row.Identities, row.Inline, row.Retrievable = cov.Identities, cov.Inline, cov.Retrievable
		row.RequiredTotal, row.RequiredKept, row.RequiredUnrepresented = cov.RequiredTotal, cov.RequiredInline+cov.RequiredCensus, cov.RequiredUnrepresented
		rows = append(rows, row)
	}
	return rows, nil
}

// ReadDigestInputs reads files; the command line is unknown, so the profile is
// detected from the content.
func ReadDigestInputs(paths []string) ([]DigestInput, error) {
	var out []DigestInput
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, DigestInput{Name: filepath.Base(p), Data: b})
	}
	return out, nil
}

// WriteDigestText prints the digest figures.
func WriteDigestText(w io.Writer, rows []DigestRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "output\tprofile\tmode\traw tokens\tdigest tokens\tratio\tidentities inline/retrievable\trequired kept")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.1f×\t%d/%d of %d\t%d/%d\n", r.Name, r.Profile, r.Mode, r.RawTokens, r.DigestTokens, r.Ratio,
			r.Inline, r.Retrievable, r.Identities, r.RequiredKept, r.RequiredTotal)
	}
	return tw.Flush()
}

package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/internal/realrun"
)

// RealRunFixture is one recorded run of a real tool (see internal/realrun for
// the layouts).
type RealRunFixture = realrun.Fixture

// LoadRealRuns reads every real-run fixture under root (the repository).
func LoadRealRuns(root string) ([]RealRunFixture, error) { return realrun.Load(root) }

// RealRunRow is one fixture's figures.
type RealRunRow struct {
	Name                  string  `json:"name"`
	Profile               string  `json:"profile"`
	Mode                  string  `json:"mode"`
	Exit                  int     `json:"exit"`
	RawBytes              int     `json:"raw_bytes"`
	DigestBytes           int     `json:"digest_bytes"`
	RawTokens             int     `json:"raw_tokens"`
	DigestTokens          int     `json:"digest_tokens"`
	Ratio                 float64 `json:"ratio"` // digest / raw tokens
	RequiredTotal         int     `json:"required_total"`
	RequiredUnrepresented int     `json:"required_unrepresented"`
	Larger                bool    `json:"larger"`         // the digest is larger than the output plus one header line
	StatesFailure         bool    `json:"states_failure"` // for a failing run: the header states its exit status
}

// RealRunResult is the suite's result.
type RealRunResult struct {
	Rows          []RealRunRow `json:"rows"`
	Over2000      int          `json:"over_2000"`    // fixtures whose output is over 2,000 tokens
	MedianRatio   float64      `json:"median_ratio"` // digest/raw tokens over those
	Larger        int          `json:"larger"`
	Unrepresented int          `json:"unrepresented"` // REQUIRED items, all fixtures
	Required      int          `json:"required"`
	Failing       int          `json:"failing"`
	FailingStated int          `json:"failing_stated"`
}

// RunRealRun digests every fixture and measures it in real o200k_base tokens.
func RunRealRun(ctx context.Context, fixtures []RealRunFixture) (*RealRunResult, error) {
	sc, err := NewScratch("")
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	res := &RealRunResult{}
	var ratios []float64
	for _, f := range fixtures {
		r, err := sc.Digest(ctx, f.Argv, f.Exit, f.Stdout, f.Stderr, digest.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		raw := append(append([]byte{}, f.Stdout...), f.Stderr...)
		row := RealRunRow{Name: f.Name, Profile: r.Plan.Profile, Mode: r.Plan.Mode, Exit: f.Exit, RawBytes: len(raw), DigestBytes: len(r.Digest.Text)}
		if row.RawTokens, err = Tokens(raw); err != nil {
			return nil, err
		}
		if row.DigestTokens, err = Tokens(r.Digest.Text); err != nil {
			return nil, err
		}
		row.Ratio = float64(row.DigestTokens) / float64(max(row.RawTokens, 1))
		cov := r.Digest.Coverage
		row.RequiredTotal, row.RequiredUnrepresented = cov.RequiredTotal, cov.RequiredUnrepresented
		header, _, _ := bytes.Cut(r.Digest.Text, []byte("\n"))
		// DESIGN §10a: never larger than the output plus one header line
		// (and the stdout:/stderr: labels of a whole output). The ctx:
		// lines a whole output adds for facts it does not spell out count
		// against it: they are digest bytes like any other.
		row.Larger = len(r.Digest.Text) > len(raw)+len(header)+1+len("stdout:\nstderr:\n")
		if f.Exit != 0 {
			res.Failing++
			first := strings.Join(strings.SplitN(string(r.Digest.Text), "\n", 3)[:min(2, strings.Count(string(r.Digest.Text), "\n"))], " ")
			row.StatesFailure = strings.Contains(first, fmt.Sprintf("exit %d", f.Exit)) && r.Plan.Outcome != "pass"
			if row.StatesFailure {
				res.FailingStated++
			}
		}
		if row.RawTokens > 2000 {
			res.Over2000++
			ratios = append(ratios, row.Ratio)
		}
		if row.Larger {
			res.Larger++
		}
		res.Unrepresented += row.RequiredUnrepresented
		res.Required += row.RequiredTotal
		res.Rows = append(res.Rows, row)
	}
	res.MedianRatio = median(ratios)
	return res, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Gates are the figures issue 10 asks for.
func (r *RealRunResult) Gates() []Gate {
	return []Gate{
		NewGate("real-run fixtures", float64(len(r.Rows)), 40, "fixtures", "higher"),
		NewGate("REQUIRED items unrepresented", float64(r.Unrepresented), 0, "items", "lower"),
		NewGate("digests larger than the output", float64(r.Larger), 0, "digests", "lower"),
		NewGate("failing runs whose digest states the failure", float64(r.FailingStated), float64(r.Failing), "runs", "higher"),
		NewGate("median digest/raw tokens, outputs over 2,000 tokens", r.MedianRatio, 0.15, "ratio", "lower"),
	}
}

// WriteText prints the table and the totals.
func (r *RealRunResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "fixture\tprofile\tmode\texit\traw tokens\tdigest tokens\tdigest/raw\trequired\tunrepresented")
	for _, row := range r.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%.3f\t%d\t%d\n", row.Name, row.Profile, row.Mode, row.Exit, row.RawTokens, row.DigestTokens,
			row.Ratio, row.RequiredTotal, row.RequiredUnrepresented)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d fixtures · REQUIRED %d, unrepresented %d · larger than raw %d · failing runs stating failure %d/%d · median digest/raw %.3f over %d outputs > 2,000 tokens\n",
		len(r.Rows), r.Required, r.Unrepresented, r.Larger, r.FailingStated, r.Failing, r.MedianRatio, r.Over2000)
	return err
}

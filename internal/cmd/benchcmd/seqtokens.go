package benchcmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/bench"
	"github.com/ctxhq/ctx/internal/cli"
)

func benchSeqTokensCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var reps int
	var only []string
	var keep string
	c := &cobra.Command{
		Use:   "seq-tokens",
		Short: "A ctx seq digest against the separate ctx run digests of its steps, in o200k tokens",
		Long: `Write scratch Go modules (bench.SeqShapes: design shapes and held-out ones),
run the real go build, go test and go vet on each, once as three ctx run
commands and once as ctx seq (with --keep-going, and stopping at the first
failure), each in a fresh workspace with its own store, and count the digests
ctx printed in o200k_base tokens. Repeated --reps times (a test's time and a
step's duration bucket vary the counts a little): medians and ranges.

The gates: ctx seq --keep-going costs fewer tokens than the three ctx run
digests, in the median over the design shapes and over the held-out ones,
and in the worst shape of each.`,
		Example: "  ctx bench seq-tokens --reps 5\n  ctx bench seq-tokens --shape small --keep /tmp/seqtok",
		Args:    cli.ExactArgs(0, "ctx bench seq-tokens"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := exec.LookPath("go"); err != nil {
				return fmt.Errorf("ctx bench seq-tokens runs the real go command: %w", err)
			}
			res, err := SeqTokens(cmd.Context(), o.prog, reps, only, keep)
			if err != nil {
				return err
			}
			r := bench.NewReceipt("seq-tokens", cli.Version, map[string]any{"reps": reps, "shapes": only})
			var gates []bench.Gate
			for _, held := range []bool{false, true} {
				set := "design shapes"
				if held {
					set = "held-out shapes"
				}
				if rs := res.ratios(held); len(rs) > 0 {
					gates = append(gates, gateOf("seq --keep-going / three run digests, median over "+set, bench.SpreadOf(rs).Median/1000, 1, "ratio", "lower"),
						gateOf("seq --keep-going / three run digests, worst of the "+set, bench.SpreadOf(rs).Max/1000, 1, "ratio", "lower"))
				}
			}
			r.Finish(res, gates...)
			return finishBench(ios, o, r, res.print)
		},
	}
	c.Flags().IntVar(&reps, "reps", 5, "repetitions of each shape")
	c.Flags().StringSliceVar(&only, "shape", nil, "run only these shapes (default: all)")
	c.Flags().StringVar(&keep, "keep", "", "write every digest under this directory (default: not kept)")
	return c
}

// SeqTokensResult is the suite's result: a row per shape.
type SeqTokensResult struct {
	Rows []bench.SeqTokens `json:"rows"`
}

// SeqTokens measures every shape (or those named in only) reps times
// through prog; keep, when set, receives each digest as a file.
func SeqTokens(ctx context.Context, prog Program, reps int, only []string, keep string) (*SeqTokensResult, error) {
	root, err := os.MkdirTemp("", "ctx-bench-seq-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(root)
	res := &SeqTokensResult{}
	shapes := bench.SeqShapes()
	for _, name := range only {
		if !slices.ContainsFunc(shapes, func(s bench.SeqShape) bool { return s.Name == name }) {
			return nil, cli.Usagef("--shape %s: no such shape (see bench.SeqShapes)", name)
		}
	}
	for _, shape := range shapes {
		if len(only) > 0 && !slices.Contains(only, shape.Name) {
			continue
		}
		if len(shape.Steps) != 3 {
			return nil, fmt.Errorf("shape %s has %d steps: the suite compares three", shape.Name, len(shape.Steps))
		}
		row := bench.SeqTokens{Shape: shape.Name, About: shape.About, Holdout: shape.Holdout}
		for rep := range reps {
			m := seqMeasure{ctx: ctx, prog: prog, shape: shape, dir: filepath.Join(root, fmt.Sprintf("%s-%d", shape.Name, rep)), keep: keep}
			if err := m.run(&row); err != nil {
				return nil, fmt.Errorf("shape %s: %w", shape.Name, err)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// seqMeasure is one repetition of one shape.
type seqMeasure struct {
	ctx   context.Context
	prog  Program
	shape bench.SeqShape
	dir   string
	keep  string
}

// run measures the three arms in fresh workspaces and adds them to row.
func (m *seqMeasure) run(row *bench.SeqTokens) error {
	var runs [3]int
	ran := 0
	for i, step := range m.shape.Steps {
		out, code, err := m.ctxIn("runs", append([]string{"run", "--"}, step...), fmt.Sprintf("run%d", i+1))
		if err != nil {
			return err
		}
		if runs[i], err = bench.Tokens(out); err != nil {
			return err
		}
		row.Steps[i] = append(row.Steps[i], runs[i])
		if ran == 0 && code != 0 {
			ran = i + 1
		}
	}
	if ran == 0 {
		ran = len(m.shape.Steps)
	}
	row.Ran = ran
	seqArgs := []string{"seq"}
	for _, step := range m.shape.Steps {
		seqArgs = append(append(seqArgs, "--"), step...)
	}
	for _, arm := range []struct {
		name string
		args []string
		into *[]int
	}{{"keep", append([]string{seqArgs[0], "--keep-going"}, seqArgs[1:]...), &row.Keep}, {"stop", seqArgs, &row.Stop}} {
		out, _, err := m.ctxIn(arm.name, arm.args, "seq")
		if err != nil {
			return err
		}
		n, err := bench.Tokens(out)
		if err != nil {
			return err
		}
		*arm.into = append(*arm.into, n)
	}
	row.Runs = append(row.Runs, runs[0]+runs[1]+runs[2])
	sum := 0
	for _, n := range runs[:ran] {
		sum += n
	}
	row.RanOnly = append(row.RanOnly, sum)
	return nil
}

// ctxIn runs ctx with args in the arm's workspace (made on first use: the
// module, a git repository, a store) and returns what it printed on stdout.
func (m *seqMeasure) ctxIn(arm string, args []string, file string) ([]byte, int, error) {
	ws := filepath.Join(m.dir, arm)
	if _, err := os.Stat(ws); os.IsNotExist(err) {
		if err := m.workspace(ws); err != nil {
			return nil, 0, err
		}
	}
	env := map[string]string{"CTX_NO_COMPACT": "1"}
	var out, errb bytes.Buffer
	ios := &cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb,
		Getwd: func() (string, error) { return ws, nil }, Getenv: func(k string) string { return env[k] }}
	code := m.prog.Run(ios, args)
	if code == cli.ExitFailed || code == cli.ExitUsage {
		return nil, code, fmt.Errorf("ctx %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	if m.keep != "" {
		p := filepath.Join(m.keep, filepath.Base(m.dir), arm+"-"+file+".txt")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, 0, err
		}
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			return nil, 0, err
		}
	}
	return out.Bytes(), code, nil
}

// workspace writes the shape's module into ws as a committed git
// repository (as an agent's work tree is) with a .ctx store of its own.
func (m *seqMeasure) workspace(ws string) error {
	if err := os.MkdirAll(filepath.Join(ws, ".ctx"), 0o700); err != nil {
		return err
	}
	if err := m.shape.Write(ws); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(ws, ".gitignore"), []byte(".ctx/\n"), 0o644); err != nil {
		return err
	}
	for _, argv := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "shape"}} {
		cmd := exec.CommandContext(m.ctx, "git", argv...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", argv[0], err, out)
		}
	}
	return nil
}

// ratios are each design (or held-out) shape's median seq --keep-going
// tokens over its median three run digests, in thousandths (ints, for
// SpreadOf).
func (r *SeqTokensResult) ratios(holdout bool) []int {
	var ratios []int
	for _, row := range r.Rows {
		if row.Holdout == holdout {
			ratios = append(ratios, int(1000*bench.SpreadOf(row.Keep).Median/bench.SpreadOf(row.Runs).Median+0.5))
		}
	}
	return ratios
}

func (r *SeqTokensResult) print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "shape\tthree ctx run digests\tseq --keep-going\tratio\tseq (stops)\truns of the steps it ran\tratio")
	for _, held := range []bool{false, true} {
		for _, row := range r.Rows {
			if row.Holdout != held {
				continue
			}
			name := row.Shape
			if held {
				name += " (held out)"
			}
			runs, keep, stop, ran := bench.SpreadOf(row.Runs), bench.SpreadOf(row.Keep), bench.SpreadOf(row.Stop), bench.SpreadOf(row.RanOnly)
			fmt.Fprintf(tw, "%s\t%s = %s + %s + %s\t%s\t%.2f\t%s\t%s (%d steps)\t%.2f\n", name, runs,
				bench.SpreadOf(row.Steps[0]), bench.SpreadOf(row.Steps[1]), bench.SpreadOf(row.Steps[2]),
				keep, keep.Median/runs.Median, stop, ran, row.Ran, stop.Median/ran.Median)
		}
	}
	return tw.Flush()
}

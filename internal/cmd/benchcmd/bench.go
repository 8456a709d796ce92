// Package benchcmd is ctx bench: each benchmark suite of package bench as a
// command that prints a table (or JSON) and stores a benchmark receipt. The
// suites are package bench's; this is their command-line face.
package benchcmd

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/bench"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/profiles/logs"
	"github.com/ctxhq/ctx/store"
)

// defaultCorpus is where the external corpora live relative to the project root.
const defaultCorpus = "../shared/corpus"

type benchOptions struct {
	json bool
	prog Program
}

// NewCmd is the ctx bench command group; prog is ctx itself, which the
// secrets suite drives.
func NewCmd(ios *cli.IO, prog Program) *cobra.Command {
	o := &benchOptions{prog: prog}
	c := &cobra.Command{
		Use:   "bench",
		Short: "Measure ctx: template mining, profile recall, digest size, capture speed, determinism",
		Long: `Run a benchmark suite. Each suite prints a table (or JSON with --json) and
stores a benchmark receipt (machine facts, ctx version, corpus digests,
parameters, results and the figures' gates) whose receipt: handle it prints.
Timings alternate ctx with its baseline and report medians and spread.

Exit status: 0 the suite ran and every gate was met; 1 a gate was missed or an
input is missing; 2 usage error; 125 the store is locked or damaged.`,
		Example: `  ctx bench loghub --leave-out
  ctx bench corpus
  ctx bench needle --seed 7
  ctx bench problems
  ctx bench digest build.log pytest.out
  ctx bench realrun
  ctx bench capture --size 256M
  ctx bench latency
  ctx bench replay
  ctx bench seq-tokens`,
	}
	c.PersistentFlags().BoolVar(&o.json, "json", false, "print the benchmark receipt as JSON")
	c.AddCommand(
		benchLoghubCmd(ios, o),
		benchCorpusCmd(ios, o),
		benchNeedleCmd(ios, o),
		benchProblemsCmd(ios, o),
		benchDigestCmd(ios, o),
		benchRealRunCmd(ios, o),
		benchCaptureCmd(ios, o),
		benchLatencyCmd(ios, o),
		benchStoreCmd(ios, o),
		benchScaleCmd(ios, o),
		benchReplayCmd(ios, o),
		benchSecretsCmd(ios, o),
		benchSeqTokensCmd(ios, o),
		benchReaderCmd(),
	)
	return c
}

// finishBench stores the receipt, prints the table or the JSON, and turns a
// missed gate into exit status 1.
func finishBench(ios *cli.IO, o *benchOptions, r *bench.Receipt, text func(io.Writer) error) error {
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := r.Save(st)
	if err != nil {
		return err
	}
	if o.json {
		if err := cli.WriteJSON(ios.Out, map[string]any{"receipt": h, "body": r}); err != nil {
			return err
		}
	} else {
		if err := text(ios.Out); err != nil {
			return err
		}
		for _, g := range r.Gates {
			mark := "met"
			if !g.Met {
				mark = "MISSED"
			}
			cmp := "≥"
			if g.Better == "lower" {
				cmp = "≤"
			}
			fmt.Fprintf(ios.Out, "gate %s: %.4g %s (target %s %.4g) %s\n", g.Name, g.Measured, g.Unit, cmp, g.Target, mark)
		}
		fmt.Fprintf(ios.Out, "receipt: %s\n", h)
	}
	if !r.Pass {
		return &cli.ExitError{Code: cli.ExitBad}
	}
	return nil
}

func corpusDir(ios *cli.IO, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	cwd, err := ios.Getwd()
	if err != nil {
		return "", err
	}
	// The corpus sits beside the project: find the project root first.
	loc, err := store.Locate(cwd)
	if err != nil {
		return "", err
	}
	return filepath.Join(loc.Root, defaultCorpus), nil
}

func benchLoghubCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var data []string
	var leaveOut bool
	var opts logs.Options
	var off []string
	var miner string
	c := &cobra.Command{
		Use:   "loghub [--data DIR]... [--leave-out] [--off RULE]... [--miner ctx|drain]",
		Short: "Grouping accuracy of the template miner on loghub-format systems",
		Long: `Mine every loghub-format system under each --data folder (a subfolder with one
*.log and one *_structured*.csv, either gzipped or not, whatever it is named;
a --data folder may itself be one system) on its Content column and on its
raw lines, and score the grouping against the EventTemplate column.

With --leave-out, each system is also scored with every choice the miner
makes chosen on the other systems alone: its merge and cluster thresholds,
and each of its rules kept or switched off. --off RULE scores the miner with
a rule switched off (the names are those of the ablation table). The held-out mean is reported beside the
all-in mean (the shipped miner), with an ablation table: every system's score
with each rule switched off in turn. --miner drain scores the Drain baseline
(He et al. 2017: depth 4, similarity 0.5, 100 children, tokens with a digit
masked, nothing per system) instead of ctx's miner.`,
		Example: `  ctx bench loghub
  ctx bench loghub --data ../shared/corpus/loghub2k --data ../shared/corpus/loghub2k-orig --leave-out
  ctx bench loghub --data bench/testdata/heldout --data bench/testdata/heldout2
  ctx bench loghub --data bench/testdata/heldout4 --off cluster
  ctx bench loghub --miner drain --data bench/testdata/heldout4`,
		Args: cli.ExactArgs(0, "ctx bench loghub [--data DIR]... [--leave-out] [--off RULE]... [--miner ctx|drain]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs := data
			if len(dirs) == 0 {
				root, err := corpusDir(ios, "")
				if err != nil {
					return err
				}
				dirs = []string{filepath.Join(root, "loghub2k"), filepath.Join(root, "loghub2k-orig")}
			}
			for _, name := range off {
				r, ok := logs.RuleNamed(name)
				if !ok {
					return fmt.Errorf("bench loghub: no miner rule %q: --off takes one of %s", name, strings.Join(logs.RuleList(), ", "))
				}
				opts.Off |= r
			}
			rep, err := bench.RunLoghub(cmd.Context(), bench.LoghubConfig{Dirs: dirs, LeaveOut: leaveOut, Options: opts, Miner: miner})
			if err != nil {
				return err
			}
			names := make([]string, len(dirs))
			for i, d := range dirs {
				names[i] = filepath.Base(d)
			}
			r := bench.NewReceipt("loghub", cli.Version, map[string]any{"data": names, "leave_out": leaveOut,
				"max_templates": logs.DefaultMaxTemplates, "merge_values": logs.DefaultMergeValues, "keyed_merge_values": logs.DefaultKeyedMergeValues,
				"similarity": opts.Similarity, "cluster_values": opts.ClusterValues, "off": off, "miner": miner})
			r.Corpus = map[string]string{}
			for _, d := range dirs {
				ds, _ := bench.DigestFiles(d, nil)
				for k, v := range ds {
					r.Corpus[filepath.Base(d)+"/"+k] = v
				}
			}
			gates := []bench.Gate{
				gateOf("mean GA on Content", rep.MeanContent.GA, 0.95, "", "higher"),
				gateOf("mean GA on raw lines", rep.MeanRaw.GA, 0.92, "", "higher"),
			}
			if rep.RawLinesPerCPUSec > 0 {
				// On a shared machine CPU time says what one core does.
				gates = append(gates, gateOf("mining speed on raw lines per CPU second", rep.RawLinesPerCPUSec, 500000, "lines/s", "higher"))
			} else {
				gates = append(gates, gateOf("mining speed on raw lines", rep.RawLinesPerSec, 500000, "lines/s", "higher"))
			}
			if leaveOut {
				gates = append(gates,
					gateOf("leave-one-system-out mean GA on Content", rep.LeaveOutContent.GA, 0.95, "", "higher"),
					gateOf("leave-one-system-out mean GA on raw lines", rep.LeaveOutRaw.GA, 0.92, "", "higher"))
			}
			r.Finish(rep, gates...)
			return finishBench(ios, o, r, rep.WriteText)
		},
	}
	c.Flags().StringArrayVar(&data, "data", nil, "a folder of loghub-format systems; repeat for more (default ../shared/corpus/loghub2k and loghub2k-orig beside the project)")
	c.Flags().BoolVar(&leaveOut, "leave-out", false, "also score each system with thresholds and rules chosen on the others alone, and print the ablation")
	c.Flags().Float64Var(&opts.Similarity, "similarity", 0, "Drain-style clustering: join a cluster when this share of constant elements agree (0: the default)")
	c.Flags().IntVar(&opts.ClusterValues, "cluster-values", 0, "distinct words that make a cluster position variable (0: the default)")
	c.Flags().StringVar(&miner, "miner", bench.MinerCtx, "the miner to score: ctx, or drain for the Drain baseline")
	c.Flags().StringArrayVar(&off, "off", nil, "switch a miner rule off (frame, merge, cluster, …; repeat for more), to score the miner without it")
	return c
}

func gateOf(name string, measured, target float64, unit, better string) bench.Gate {
	return bench.NewGate(name, measured, target, unit, better)
}

func benchCorpusCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var dir string
	var peerFlags []string
	c := &cobra.Command{
		Use:     "corpus",
		Short:   "Recall and precision of the go test and diagnostics profiles on the external corpora",
		Example: "  ctx bench corpus\n  ctx bench corpus --corpus /path/to/corpus",
		Args:    cli.ExactArgs(0, "ctx bench corpus [--corpus DIR]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := corpusDir(ios, dir)
			if err != nil {
				return err
			}
			var peers []bench.Peer
			for _, f := range peerFlags {
				p, err := bench.ParsePeer(f)
				if err != nil {
					return cli.Usagef("--peer: %v", err)
				}
				peers = append(peers, p)
			}
			res, err := bench.RunCorpus(cmd.Context(), root)
			if err != nil {
				return err
			}
			if res.Peers, err = bench.RunPeers(cmd.Context(), peers, res.Fixtures); err != nil {
				return err
			}
			r := bench.NewReceipt("corpus", cli.Version, map[string]any{"corpus": "gotest, diagnostics", "peers": peerFlags})
			r.Corpus, _ = bench.DigestFiles(root, func(p string) bool {
				return strings.Contains(p, "/gotest/") || strings.Contains(p, "/diagnostics/")
			})
			names := 0.0
			if res.GoTest.DigestNamesAll {
				names = 1
			}
			r.Finish(res,
				gateOf("go test failing identities recovered", res.GoTest.Recall, 1, "", "higher"),
				gateOf("go test package counts agreeing", float64(res.GoTest.CountsAgree)/float64(max(res.GoTest.Packages, 1)), 1, "", "higher"),
				gateOf("go test digests name every failing test", names, 1, "", "higher"),
				gateOf("diagnostics recovered", res.Diagnostics.Recall, 0.98, "", "higher"))
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().StringVar(&dir, "corpus", "", "the corpus folder (default ../shared/corpus beside the project)")
	c.Flags().StringArrayVar(&peerFlags, "peer", nil, "NAME=COMMAND: also run another output reducer on the go test fixtures ({file} is the fixture's path, else it reads stdin)")
	return c
}

func benchNeedleCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var seed uint64
	var lines, seeds int
	var gen string
	c := &cobra.Command{
		Use:   "needle [--seed N --generator NAME | --seeds N]",
		Short: "Digest a generated log with one quiet line among busy ones",
		Long: `Digest a generated log with one quiet line (the needle) among busy ones and
check that the needle is inline and verbatim, with a handle that returns it.
With --seeds N, run every generator (` + strings.Join(bench.NeedleGenerators, ", ") + `: different busy templates,
timestamp formats and needle levels) on seeds 1..N and gate on the largest
digest.`,
		Example: "  ctx bench needle --seed 7\n  ctx bench needle --generator syslog\n  ctx bench needle --seeds 10",
		Args:    cli.ExactArgs(0, "ctx bench needle [--seed N --generator NAME | --seeds N]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if lines < 100 {
				return cli.Usagef("--lines %d: want at least 100", lines)
			}
			if seeds > 0 {
				res, err := bench.RunNeedles(cmd.Context(), seeds, lines)
				if err != nil {
					return err
				}
				r := bench.NewReceipt("needle", cli.Version, map[string]any{"seeds": seeds, "lines": lines, "generators": bench.NeedleGenerators})
				n := float64(len(res.Runs))
				r.Finish(res,
					gateOf("largest digest", float64(res.MaxDigestTokens), 300, "tokens", "lower"),
					gateOf("runs with the needle inline verbatim", float64(res.Inline)/n, 1, "", "higher"),
					gateOf("runs with the needle retrievable by its handle", float64(res.Retrievable)/n, 1, "", "higher"))
				return finishBench(ios, o, r, res.WriteText)
			}
			res, err := bench.RunNeedle(cmd.Context(), gen, seed, lines)
			if err != nil {
				return cli.Usagef("%v", err)
			}
			r := bench.NewReceipt("needle", cli.Version, map[string]any{"seed": seed, "lines": lines, "generator": gen})
			inline, found := 0.0, 0.0
			if res.Inline {
				inline = 1
			}
			if res.Retrievable {
				found = 1
			}
			r.Finish(res,
				gateOf("digest tokens", float64(res.DigestTokens), 300, "tokens", "lower"),
				gateOf("needle inline verbatim", inline, 1, "", "higher"),
				gateOf("needle retrievable by its handle", found, 1, "", "higher"))
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of the generated log")
	c.Flags().StringVar(&gen, "generator", "app", "shape of the generated log: "+strings.Join(bench.NeedleGenerators, ", "))
	c.Flags().IntVar(&seeds, "seeds", 0, "run every generator on seeds 1..N instead of one log")
	c.Flags().IntVar(&lines, "lines", 20001, "lines in the log, the needle included")
	return c
}

func benchProblemsCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var seeds, perLog int
	c := &cobra.Command{
		Use:   "problems [--seeds N] [--per-log N]",
		Short: "Recall of the logs profile on real logs with problem lines inserted",
		Long: `Insert generated problem lines (failures as services, package managers,
runtimes, databases, web servers and the kernel print them) into small real
logs collected on a Debian machine (dpkg, apt, a web server, a JVM, a database
server; embedded in ctx), and score the logs profile's anomalies: the share of
inserted lines reported, and the share of ordinary lines flagged as problems
(error level or failure phrasing; rare-template hints are counted apart).`,
		Example: "  ctx bench problems\n  ctx bench problems --seeds 20",
		Args:    cli.ExactArgs(0, "ctx bench problems [--seeds N] [--per-log N]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if seeds < 1 || perLog < 1 {
				return cli.Usagef("--seeds %d --per-log %d: want at least 1 of each", seeds, perLog)
			}
			res, err := bench.RunProblems(cmd.Context(), seeds, perLog)
			if err != nil {
				return err
			}
			r := bench.NewReceipt("problems", cli.Version, map[string]any{"seeds": seeds, "per_log": perLog})
			r.Finish(res,
				gateOf("inserted problems found", res.Recall, 0.95, "", "higher"),
				gateOf("ordinary lines flagged", res.FlagRate, 0.01, "", "lower"))
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().IntVar(&seeds, "seeds", 5, "insert the problems this many times per log, each with its own seed")
	c.Flags().IntVar(&perLog, "per-log", 20, "problem lines inserted into each log per seed")
	return c
}

func benchDigestCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "digest FILE|HANDLE...",
		Short: "Raw tokens against digest tokens for captured outputs",
		Long: `Digest each file (profile detected from the content) or stored run (run:ID,
with its command line) and compare raw and digest size in real o200k_base
tokens, with the identities shown and the REQUIRED facts kept.`,
		Example: "  ctx bench digest build.log pytest.out run:ba3d1020ee8f",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			inputs, err := digestInputs(ios, args)
			if err != nil {
				return err
			}
			rows, err := bench.RunDigest(cmd.Context(), inputs)
			if err != nil {
				return err
			}
			r := bench.NewReceipt("digest", cli.Version, map[string]any{"inputs": args})
			var gates []bench.Gate
			for _, row := range rows {
				gates = append(gates, gateOf(row.Name+": REQUIRED items unrepresented", float64(row.RequiredUnrepresented), 0, "items", "lower"))
			}
			r.Finish(rows, gates...)
			return finishBench(ios, o, r, func(w io.Writer) error { return bench.WriteDigestText(w, rows) })
		},
	}
	return c
}

func benchRealRunCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var root string
	c := &cobra.Command{
		Use:   "realrun",
		Short: "Digest every real-run fixture of the repository and check issue 10's figures",
		Long: `Digest every real-run fixture (profiles/*/testdata/realrun/NAME: cmd, exit,
stdout, stderr) under --root and report, in real o200k_base tokens, each
digest against its output; gates: REQUIRED items unrepresented 0, digests
larger than the output 0, every failing run's digest states the failure,
median digest/raw ≤ 0.15 over outputs above 2,000 tokens, at least 40
fixtures.`,
		Example: "  ctx bench realrun --root .",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fixtures, err := bench.LoadRealRuns(root)
			if err != nil {
				return err
			}
			if len(fixtures) == 0 {
				return fmt.Errorf("no real-run fixtures under %s/profiles/*/testdata/realrun: run from the repository root or pass --root", root)
			}
			res, err := bench.RunRealRun(cmd.Context(), fixtures)
			if err != nil {
				return err
			}
			r := bench.NewReceipt("realrun", cli.Version, map[string]any{"root": root, "fixtures": len(fixtures)})
			r.Finish(res, res.Gates()...)
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().StringVar(&root, "root", ".", "the repository holding the fixtures")
	return c
}

// digestInputs reads files, or a stored run's stdout (and its command line and
// exit status) for a run handle.
func digestInputs(ios *cli.IO, args []string) ([]bench.DigestInput, error) {
	var out []bench.DigestInput
	var st *store.Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	for _, a := range args {
		if _, err := os.Stat(a); err == nil {
			in, err := bench.ReadDigestInputs([]string{a})
			if err != nil {
				return nil, err
			}
			out = append(out, in...)
			continue
		}
		h, err := store.ParseHandle(a)
		if err != nil {
			return nil, fmt.Errorf("%s is neither a file nor a handle: %w", a, err)
		}
		if st == nil {
			if st, err = cli.OpenStore(ios, false); err != nil {
				return nil, err
			}
		}
		t, err := st.Resolve(h)
		if err != nil {
			return nil, err
		}
		if t.Kind != "run" {
			return nil, cli.Usagef("%s: want a run handle", a)
		}
		b, err := st.Blob(t.Run.Manifest.Stdout.Blob)
		if err != nil {
			return nil, err
		}
		data, err := b.ReadAll()
		if err != nil {
			return nil, err
		}
		out = append(out, bench.DigestInput{Name: t.Run.Handle(), Argv: t.Run.Manifest.Argv, Exit: t.Run.Manifest.Exit, Data: data})
	}
	return out, nil
}

func benchCaptureCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var size, rssSize string
	var runs int
	c := &cobra.Command{
		Use:     "capture",
		Short:   "Capture throughput against bare pipe and pty readers, and peak memory",
		Example: "  ctx bench capture --size 256M --rss-size 1G\n  ctx bench capture --size 8M --rss-size 0 --runs 3",
		Args:    cli.ExactArgs(0, "ctx bench capture"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := cli.ParseSize(size)
			if err != nil {
				return cli.Usagef("--size: %v", err)
			}
			var rss int64
			if rssSize != "0" {
				if rss, err = cli.ParseSize(rssSize); err != nil {
					return cli.Usagef("--rss-size: %v", err)
				}
			}
			self, scratch, cleanup, err := benchSelf()
			if err != nil {
				return err
			}
			defer cleanup()
			res, err := bench.RunCapture(cmd.Context(), bench.CaptureOptions{Ctx: self, Size: n, RSSSize: rss, Runs: runs, Scratch: scratch})
			if err != nil {
				return err
			}
			r := bench.NewReceipt("capture", cli.Version, map[string]any{"size": n, "rss_size": rss, "runs": runs})
			gates := []bench.Gate{
				gateOf("pipe capture throughput / bare pipe reader", res.Pipe.Ratio, 0.5, "", "higher"),
				gateOf("pty capture throughput / bare raw pty reader", res.Pty.Ratio, 0.7, "", "higher"),
			}
			if res.PeakRSS > 0 {
				gates = append(gates, gateOf(fmt.Sprintf("peak RSS capturing %s", rssSize), float64(res.PeakRSS)/1024, 100, "MiB", "lower"))
			}
			r.Finish(res, gates...)
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().StringVar(&size, "size", "256M", "output size of the throughput runs")
	c.Flags().StringVar(&rssSize, "rss-size", "1G", "output size of the peak-memory run (0 to skip)")
	c.Flags().IntVar(&runs, "runs", 5, "runs of each side, alternating")
	return c
}

func benchLatencyCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var runs int
	var getSize string
	c := &cobra.Command{
		Use:     "latency",
		Short:   "Start-up overhead of ctx run against the bare command, and ctx get from a large output",
		Example: "  ctx bench latency\n  ctx bench latency --get-size 0 --runs 20",
		Args:    cli.ExactArgs(0, "ctx bench latency"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var gs int64
			if getSize != "0" {
				var err error
				if gs, err = cli.ParseSize(getSize); err != nil {
					return cli.Usagef("--get-size: %v", err)
				}
			}
			self, scratch, cleanup, err := benchSelf()
			if err != nil {
				return err
			}
			defer cleanup()
			res, err := bench.RunLatency(cmd.Context(), bench.LatencyOptions{Ctx: self, Runs: runs, GetSize: gs, Scratch: scratch})
			if err != nil {
				return err
			}
			r := bench.NewReceipt("latency", cli.Version, map[string]any{"runs": runs, "get_size": gs})
			// Issue 21's targets: the physical floor is a Go process start
			// (about 1 ms) plus one fsync'd commit (about 1.2 ms).
			gates := []bench.Gate{
				gateOf("ctx run -- true over bare true (median)", res.Overhead, 3, "ms", "lower"),
				gateOf("ctx version (median)", res.Version.MedianMS, 1.5, "ms", "lower"),
				gateOf("pre-tool-use hook per command (median)", res.Hook.MedianMS, 2, "ms", "lower"),
			}
			if res.Get != nil {
				gates = append(gates, gateOf(fmt.Sprintf("ctx get 13 lines from the middle of %s, over ctx version (medians)", getSize),
					res.GetOverVersion, 2, "ms", "lower"))
			}
			r.Finish(res, gates...)
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().IntVar(&runs, "runs", 40, "runs of each side, alternating")
	c.Flags().StringVar(&getSize, "get-size", "1G", "size of the stored output ctx get reads from (0 to skip)")
	return c
}

func benchScaleCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var runs, stored int
	c := &cobra.Command{
		Use:     "scale",
		Short:   "ctx run, ctx ls and handle resolution against a store of one run and one of many",
		Example: "  ctx bench scale\n  ctx bench scale --stored 10000 --runs 10",
		Args:    cli.ExactArgs(0, "ctx bench scale"),
		RunE: func(cmd *cobra.Command, args []string) error {
			self, scratch, cleanup, err := benchSelf()
			if err != nil {
				return err
			}
			defer cleanup()
			res, err := bench.RunScale(cmd.Context(), bench.ScaleOptions{Ctx: self, Runs: runs, Stored: stored, Scratch: scratch})
			if err != nil {
				return err
			}
			r := bench.NewReceipt("scale", cli.Version, map[string]any{"runs": runs, "stored": stored})
			var gates []bench.Gate
			for _, c := range res.Commands {
				gates = append(gates, gateOf(c.Command+": large store over small (CPU time, medians)", c.CPURatio, 1.10, "×", "lower"))
			}
			r.Finish(res, gates...)
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().IntVar(&runs, "runs", 20, "timings of each side, alternating")
	c.Flags().IntVar(&stored, "stored", 100000, "runs in the large store")
	return c
}

func benchStoreCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var lines int
	var dir string
	c := &cobra.Command{
		Use:   "store [--corpus DIR]",
		Short: "Stored size of repetitive logs against their raw size",
		Long: `Store logs with ctx ingest's path and compare the store's size with the raw
size: the real loghub service logs (every raw system log, concatenated; the
gate), and a generated log with random request ids (reported beside it).`,
		Example: "  ctx bench store\n  ctx bench store --lines 500000",
		Args:    cli.ExactArgs(0, "ctx bench store"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := corpusDir(ios, dir)
			if err != nil {
				return err
			}
			var real []byte
			systems, err := bench.FindLoghubSystems(filepath.Join(root, "loghub2k"))
			if err != nil {
				return fmt.Errorf("the loghub logs are needed for this figure: %w", err)
			}
			for _, sys := range systems {
				logs, _ := filepath.Glob(filepath.Join(sys, "*.log"))
				for _, l := range logs {
					b, err := os.ReadFile(l)
					if err != nil {
						return fmt.Errorf("the loghub logs are needed for this figure: %w", err)
					}
					real = append(real, b...)
				}
			}
			logRes, err := bench.RunStoreSize(cmd.Context(), "loghub raw logs (7 systems)", real)
			if err != nil {
				return err
			}
			gen, _, _ := bench.NeedleLog(42, lines)
			genRes, err := bench.RunStoreSize(cmd.Context(), fmt.Sprintf("generated log, %d lines with random ids", lines), gen)
			if err != nil {
				return err
			}
			res := []*bench.StoreSizeResult{logRes, genRes}
			r := bench.NewReceipt("store", cli.Version, map[string]any{"lines": lines})
			r.Corpus, _ = bench.DigestFiles(filepath.Join(root, "loghub2k"), func(p string) bool { return strings.HasSuffix(p, ".log") })
			r.Finish(res, gateOf("stored size / raw size of the loghub logs", logRes.Ratio, 0.2, "", "lower"))
			return finishBench(ios, o, r, func(w io.Writer) error {
				for _, x := range res {
					if err := x.WriteText(w); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	c.Flags().IntVar(&lines, "lines", 500000, "lines of the generated log")
	c.Flags().StringVar(&dir, "corpus", "", "the corpus folder (default ../shared/corpus beside the project)")
	return c
}

func benchReplayCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "replay",
		Short: "Re-render every stored digest receipt and prove the bytes match",
		Long: `Re-render every stored digest receipt from the stored run, under the receipt's
own plan and the current contract, and compare with the stored digest byte for
byte: the determinism gate across versions.`,
		Example: "  ctx bench replay",
		Args:    cli.ExactArgs(0, "ctx bench replay"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cli.OpenStore(ios, false)
			if err != nil {
				return err
			}
			res, err := bench.RunReplay(cmd.Context(), st, filepath.Join(st.Dir(), "contracts"))
			st.Close()
			if err != nil {
				return err
			}
			r := bench.NewReceipt("replay", cli.Version, map[string]any{})
			r.Finish(res, gateOf("digest receipts replayed byte-identical", float64(res.Matched), float64(res.Receipts), "receipts", "higher"))
			return finishBench(ios, o, r, res.WriteText)
		},
	}
}

// benchReaderCmd is the bare reader the capture benchmark compares ctx with.
func benchReaderCmd() *cobra.Command {
	var usePty bool
	c := &cobra.Command{
		Use:    "reader [--pty] -- CMD [ARGS...]",
		Short:  "Read a command's stdout and discard it (the capture baseline)",
		Hidden: true,
		Args:   cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := bench.BareRead(args, usePty)
			return err
		},
	}
	c.Flags().BoolVar(&usePty, "pty", false, "read through a raw-mode pseudo-terminal")
	c.Flags().SetInterspersed(false)
	return c
}

// benchSelf returns this binary's path and a scratch directory.
func benchSelf() (string, string, func(), error) {
	// The program as invoked (resolved on PATH), not os.Executable: a ctx
	// reached through a link keeps its name.
	self, err := exec.LookPath(os.Args[0])
	if err != nil {
		if self, err = os.Executable(); err != nil {
			return "", "", nil, err
		}
	}
	if !filepath.IsAbs(self) {
		if self, err = filepath.Abs(self); err != nil {
			return "", "", nil, err
		}
	}
	self = helper.Ctx(self) // the bench runs in ctx-mcp; its subject is ctx
	dir, err := os.MkdirTemp("", "ctx-bench-")
	if err != nil {
		return "", "", nil, err
	}
	return self, dir, func() { os.RemoveAll(dir) }, nil
}

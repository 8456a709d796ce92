package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/bench"
	"github.com/ctxhq/ctx/profiles/logs"
	"github.com/ctxhq/ctx/store"
)

// defaultCorpus is where the external corpora live relative to the project root.
const defaultCorpus = "../shared/corpus"

type benchOptions struct {
	json bool
}

func newBenchCmd(ios *IO) *cobra.Command {
	o := &benchOptions{}
	c := &cobra.Command{
		Use:   "bench",
		Short: "Measure ctx: template mining, profile recall, digest size, capture speed, determinism",
		Long: `Run a benchmark suite. Each suite prints a table (or JSON with --json) and
stores a benchmark receipt (machine facts, ctx version, corpus digests,
parameters, results and the figures' gates) whose receipt: handle it prints.
Timings alternate ctx with its baseline and report medians and spread.

Exit status: 0 the suite ran and every gate was met; 1 a gate was missed or an
input is missing; 2 usage error; 125 the store is locked or damaged.`,
		Example: `  ctx bench loghub --data ../shared/corpus/loghub2k
  ctx bench corpus
  ctx bench needle --seed 7
  ctx bench digest build.log pytest.out
  ctx bench capture --size 256M
  ctx bench latency
  ctx bench replay`,
	}
	c.PersistentFlags().BoolVar(&o.json, "json", false, "print the benchmark receipt as JSON")
	c.AddCommand(
		benchLoghubCmd(ios, o),
		benchCorpusCmd(ios, o),
		benchNeedleCmd(ios, o),
		benchDigestCmd(ios, o),
		benchCaptureCmd(ios, o),
		benchLatencyCmd(ios, o),
		benchStoreCmd(ios, o),
		benchReplayCmd(ios, o),
		benchSecretsCmd(ios, o),
		benchReaderCmd(),
	)
	return c
}

// finishBench stores the receipt, prints the table or the JSON, and turns a
// missed gate into exit status 1.
func finishBench(ios *IO, o *benchOptions, r *bench.Receipt, text func(io.Writer) error) error {
	st, err := openStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := r.Save(st)
	if err != nil {
		return err
	}
	if o.json {
		if err := writeJSON(ios.Out, map[string]any{"receipt": h, "body": r}); err != nil {
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
		return &exitError{code: exitBad}
	}
	return nil
}

func corpusDir(ios *IO, flag string) (string, error) {
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

func benchLoghubCmd(ios *IO, o *benchOptions) *cobra.Command {
	var data string
	c := &cobra.Command{
		Use:     "loghub",
		Short:   "Grouping accuracy of the template miner on the loghub systems",
		Example: "  ctx bench loghub --data ../shared/corpus/loghub2k",
		Args:    exactArgs(0, "ctx bench loghub [--data DIR]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := data
			if dir == "" {
				root, err := corpusDir(ios, "")
				if err != nil {
					return err
				}
				dir = filepath.Join(root, "loghub2k")
			}
			rep, err := bench.RunLoghub(cmd.Context(), dir, logs.Options{})
			if err != nil {
				return err
			}
			r := bench.NewReceipt("loghub", Version, map[string]any{"data": filepath.Base(dir), "max_templates": logs.DefaultMaxTemplates})
			r.Corpus, _ = bench.DigestFiles(dir, nil)
			r.Finish(rep,
				gateOf("mean GA on Content", rep.MeanContent.GA, 0.95, "", "higher"),
				gateOf("mean GA on raw lines", rep.MeanRaw.GA, 0.90, "", "higher"),
				gateOf("mining speed on raw lines", rep.RawLinesPerSec, 200000, "lines/s", "higher"))
			return finishBench(ios, o, r, rep.WriteText)
		},
	}
	c.Flags().StringVar(&data, "data", "", "the loghub2k folder (default ../shared/corpus/loghub2k beside the project)")
	return c
}

func gateOf(name string, measured, target float64, unit, better string) bench.Gate {
	return bench.NewGate(name, measured, target, unit, better)
}

func benchCorpusCmd(ios *IO, o *benchOptions) *cobra.Command {
	var dir string
	var peerFlags []string
	c := &cobra.Command{
		Use:     "corpus",
		Short:   "Recall and precision of the go test and diagnostics profiles on the external corpora",
		Example: "  ctx bench corpus\n  ctx bench corpus --corpus /path/to/corpus",
		Args:    exactArgs(0, "ctx bench corpus [--corpus DIR]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := corpusDir(ios, dir)
			if err != nil {
				return err
			}
			var peers []bench.Peer
			for _, f := range peerFlags {
				p, err := bench.ParsePeer(f)
				if err != nil {
					return usagef("--peer: %v", err)
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
			r := bench.NewReceipt("corpus", Version, map[string]any{"corpus": "gotest, diagnostics", "peers": peerFlags})
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

func benchNeedleCmd(ios *IO, o *benchOptions) *cobra.Command {
	var seed uint64
	var lines int
	c := &cobra.Command{
		Use:     "needle",
		Short:   "Digest a generated log with one quiet line among busy ones",
		Example: "  ctx bench needle --seed 7",
		Args:    exactArgs(0, "ctx bench needle [--seed N]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if lines < 100 {
				return usagef("--lines %d: want at least 100", lines)
			}
			res, err := bench.RunNeedle(cmd.Context(), seed, lines)
			if err != nil {
				return err
			}
			r := bench.NewReceipt("needle", Version, map[string]any{"seed": seed, "lines": lines})
			inline, found := 0.0, 0.0
			if res.Inline {
				inline = 1
			}
			if res.Retrievable {
				found = 1
			}
			r.Finish(res,
				gateOf("digest tokens", float64(res.DigestTokens), 400, "tokens", "lower"),
				gateOf("needle inline verbatim", inline, 1, "", "higher"),
				gateOf("needle retrievable by its handle", found, 1, "", "higher"))
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of the generated log")
	c.Flags().IntVar(&lines, "lines", 20001, "lines in the log, the needle included")
	return c
}

func benchDigestCmd(ios *IO, o *benchOptions) *cobra.Command {
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
			r := bench.NewReceipt("digest", Version, map[string]any{"inputs": args})
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

// digestInputs reads files, or a stored run's stdout (and its command line and
// exit status) for a run handle.
func digestInputs(ios *IO, args []string) ([]bench.DigestInput, error) {
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
			if st, err = openStore(ios, false); err != nil {
				return nil, err
			}
		}
		t, err := st.Resolve(h)
		if err != nil {
			return nil, err
		}
		if t.Kind != "run" {
			return nil, usagef("%s: want a run handle", a)
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

func benchCaptureCmd(ios *IO, o *benchOptions) *cobra.Command {
	var size, rssSize string
	var runs int
	c := &cobra.Command{
		Use:     "capture",
		Short:   "Capture throughput against bare pipe and pty readers, and peak memory",
		Example: "  ctx bench capture --size 256M --rss-size 1G\n  ctx bench capture --size 8M --rss-size 0 --runs 3",
		Args:    exactArgs(0, "ctx bench capture"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(size)
			if err != nil {
				return usagef("--size: %v", err)
			}
			var rss int64
			if rssSize != "0" {
				if rss, err = parseSize(rssSize); err != nil {
					return usagef("--rss-size: %v", err)
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
			r := bench.NewReceipt("capture", Version, map[string]any{"size": n, "rss_size": rss, "runs": runs})
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

func benchLatencyCmd(ios *IO, o *benchOptions) *cobra.Command {
	var runs int
	var getSize string
	c := &cobra.Command{
		Use:     "latency",
		Short:   "Start-up overhead of ctx run against the bare command, and ctx get from a large output",
		Example: "  ctx bench latency\n  ctx bench latency --get-size 0 --runs 20",
		Args:    exactArgs(0, "ctx bench latency"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var gs int64
			if getSize != "0" {
				var err error
				if gs, err = parseSize(getSize); err != nil {
					return usagef("--get-size: %v", err)
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
			r := bench.NewReceipt("latency", Version, map[string]any{"runs": runs, "get_size": gs})
			gates := []bench.Gate{
				gateOf("ctx run -- true over bare true (median)", res.Overhead, 10, "ms", "lower"),
				gateOf("pre-tool-use hook per command (median)", res.Hook.MedianMS, 5, "ms", "lower"),
			}
			if res.Get != nil {
				gates = append(gates, gateOf(fmt.Sprintf("ctx get 13 lines from the middle of %s", getSize), res.Get.MedianMS, 20, "ms", "lower"))
			}
			r.Finish(res, gates...)
			return finishBench(ios, o, r, res.WriteText)
		},
	}
	c.Flags().IntVar(&runs, "runs", 40, "runs of each side, alternating")
	c.Flags().StringVar(&getSize, "get-size", "1G", "size of the stored output ctx get reads from (0 to skip)")
	return c
}

func benchStoreCmd(ios *IO, o *benchOptions) *cobra.Command {
	var lines int
	var dir string
	c := &cobra.Command{
		Use:   "store [--corpus DIR]",
		Short: "Stored size of repetitive logs against their raw size",
		Long: `Store logs with ctx ingest's path and compare the store's size with the raw
size: the real loghub service logs (every raw system log, concatenated; the
gate), and a generated log with random request ids (reported beside it).`,
		Example: "  ctx bench store\n  ctx bench store --lines 500000",
		Args:    exactArgs(0, "ctx bench store"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := corpusDir(ios, dir)
			if err != nil {
				return err
			}
			var real []byte
			for _, sys := range bench.LoghubSystems {
				b, err := os.ReadFile(filepath.Join(root, "loghub2k", sys, sys+"_2k.log"))
				if err != nil {
					return fmt.Errorf("the loghub logs are needed for this figure: %w", err)
				}
				real = append(real, b...)
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
			r := bench.NewReceipt("store", Version, map[string]any{"lines": lines})
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

func benchReplayCmd(ios *IO, o *benchOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "replay",
		Short: "Re-render every stored digest receipt and prove the bytes match",
		Long: `Re-render every stored digest receipt from the stored run, under the receipt's
own plan and the current contract, and compare with the stored digest byte for
byte: the determinism gate across versions.`,
		Example: "  ctx bench replay",
		Args:    exactArgs(0, "ctx bench replay"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(ios, false)
			if err != nil {
				return err
			}
			res, err := bench.RunReplay(cmd.Context(), st, filepath.Join(st.Dir(), "contracts"))
			st.Close()
			if err != nil {
				return err
			}
			r := bench.NewReceipt("replay", Version, map[string]any{})
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
	dir, err := os.MkdirTemp("", "ctx-bench-")
	if err != nil {
		return "", "", nil, err
	}
	return self, dir, func() { os.RemoveAll(dir) }, nil
}

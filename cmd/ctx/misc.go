package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/store"
)

func newVersionCmd(ios *IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "version",
		Short:   "Print the version of ctx",
		Example: "  ctx version\n  ctx version --json",
		Args:    exactArgs(0, "ctx version"),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]string{"version": Version, "go": runtime.Version(), "policy_epoch": plan.Epoch,
				"platform": runtime.GOOS + "/" + runtime.GOARCH}
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						v["revision"] = s.Value
					}
				}
			}
			if asJSON {
				return writeJSON(ios.Out, v)
			}
			fmt.Fprintln(ios.Out, versionLine())
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// versionLine is the one-line answer of ctx version and ctx --version.
func versionLine() string {
	return fmt.Sprintf("ctx %s (%s, %s, policy epoch %s)", Version, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH, plan.Epoch)
}

func newGCCmd(ios *IO) *cobra.Command {
	var (
		dryRun    bool
		keep      time.Duration
		asJSON    bool
		noCompact bool
	)
	c := &cobra.Command{
		Use:   "gc",
		Short: "Delete old executions and the output only they referenced",
		Long: `Mark everything reachable from executions newer than --keep, from pins and from
standalone receipts, and delete the rest. Pinned runs (ctx pin) are always kept.

Exit status: 0 done; 125 the store is locked or damaged.`,
		Example: "  ctx gc --dry-run\n  ctx gc --keep 168h",
		Args:    exactArgs(0, "ctx gc"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			rep, err := st.GC(store.GCOptions{Keep: keep, DryRun: dryRun, Compact: !noCompact})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(ios.Out, rep)
			}
			verb := "deleted"
			if dryRun {
				verb = "would delete"
			}
			fmt.Fprintf(ios.Out, "%s %d executions, %d runs, %d receipts, %d blobs (%d frames, %d pack files, %s stored); kept %d runs, %d blobs\n",
				verb, rep.Execs, rep.Runs, rep.Receipts, rep.Blobs, rep.Frames, rep.Packs, contract.Size(rep.Bytes), rep.Kept.Runs, rep.Kept.Blobs)
			if rep.Compacted > 0 {
				fmt.Fprintf(ios.Out, "compressed the frames a flood had stored raw in %d blobs, saving %s\n", rep.Compacted, contract.Size(rep.CompactedBytes))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&dryRun, "dry-run", false, "report what would be deleted, delete nothing")
	c.Flags().BoolVar(&noCompact, "no-compact", false, "do not compress frames that a fast flood left stored raw")
	c.Flags().DurationVar(&keep, "keep", 30*24*time.Hour, "keep executions younger than this (0 keeps all)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newPinCmd(ios *IO) *cobra.Command {
	var note string
	var asJSON bool
	c := &cobra.Command{
		Use:     "pin HANDLE",
		Short:   "Keep a run, blob or receipt through gc",
		Example: "  ctx pin run:ba3d1020ee8f --note 'baseline before the refactor'",
		Args:    exactArgs(1, "ctx pin HANDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, t, err := resolveArg(ios, args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			p, err := st.PutPin(t, note)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(ios.Out, p)
			}
			fmt.Fprintf(ios.Out, "pinned %s\n", p.Handle)
			return nil
		},
	}
	c.Flags().StringVar(&note, "note", "", "why it is pinned")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newUnpinCmd(ios *IO) *cobra.Command {
	return &cobra.Command{
		Use:     "unpin HANDLE",
		Short:   "Let gc collect a pinned record again",
		Example: "  ctx unpin run:ba3d1020ee8f",
		Args:    exactArgs(1, "ctx unpin HANDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, t, err := resolveArg(ios, args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			found, err := st.DeletePin(t.ID)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("%s:%s is not pinned: %w", t.Kind, t.ID.Short(), store.ErrNotFound)
			}
			fmt.Fprintf(ios.Out, "unpinned %s:%s\n", t.Kind, t.ID.Short())
			return nil
		},
	}
}

func resolveArg(ios *IO, arg string) (*store.Store, *store.Target, error) {
	h, err := store.ParseHandle(arg)
	if err != nil {
		return nil, nil, err
	}
	st, err := openStore(ios, false)
	if err != nil {
		return nil, nil, err
	}
	t, err := st.Resolve(h)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, t, nil
}

func newReceiptsCmd(ios *IO) *cobra.Command {
	var asJSON bool
	var n int
	c := &cobra.Command{
		Use:   "receipts",
		Short: "List stored receipts",
		Long: `List the receipts of recent digests: the run, the plan (profile, outcome, mode,
budget) and the coverage each digest achieved.

Exit status: 0 listed; 125 the store is locked or damaged.`,
		Example: "  ctx receipts\n  ctx receipts --json",
		Args:    exactArgs(0, "ctx receipts"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			execs, err := st.Execs(0, func(e *store.Exec) bool { return !e.Receipt.IsZero() })
			if err != nil {
				return err
			}
			type row struct {
				Receipt string            `json:"receipt"`
				Run     string            `json:"run"`
				Start   time.Time         `json:"start"`
				Body    *receipts.Receipt `json:"body"`
			}
			var rows []row
			seen := map[store.ID]bool{}
			for _, ex := range execs {
				if seen[ex.Receipt] || (n > 0 && len(rows) >= n) {
					continue
				}
				seen[ex.Receipt] = true
				data, err := st.Receipt(ex.Receipt)
				if err != nil {
					continue
				}
				r, err := receipts.Decode(data)
				if err != nil {
					continue
				}
				rows = append(rows, row{"receipt:" + ex.Receipt.Short(), ex.Handle(), ex.Start, r})
			}
			if asJSON {
				if rows == nil {
					rows = []row{}
				}
				return writeJSON(ios.Out, rows)
			}
			tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RECEIPT\tRUN\tPROFILE\tOUTCOME\tMODE\tCOVERAGE")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Receipt, r.Run, r.Body.Plan.Profile, r.Body.Plan.Outcome, r.Body.Plan.Mode, r.Body.Coverage.String())
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().IntVarP(&n, "number", "n", 20, "how many receipts (0 for all)")
	return c
}

func newContractCmd(ios *IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "contract",
		Short: "Inspect evidence contracts",
	}
	var outcome string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show PROFILE",
		Short: "Print the effective contract of a profile and where each part came from",
		Long: `Print the effective evidence contract of a profile for an outcome: which item
classes are REQUIRED, ELASTIC and RETRIEVABLE, loss severities, the token floor
and ceiling, and for each part the file it came from (embedded defaults, or
the project's .ctx/contracts/).

Exit status: 0 printed; 1 unknown profile or a contract file that cannot be
used; 2 usage error.`,
		Example: "  ctx contract show pytest\n  ctx contract show gotest --outcome pass --json",
		Args:    exactArgs(1, "ctx contract show PROFILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if _, ok := profiles.Lookup(name); !ok {
				return fmt.Errorf("unknown profile %q (known: %v)", name, profiles.Names())
			}
			dir := ""
			if st, err := openStore(ios, false); err == nil {
				dir = st.Dir() + "/contracts"
				st.Close()
			}
			ct, err := contract.Load(name, outcome, dir)
			if err != nil {
				return err
			}
			if asJSON {
				b, _ := json.Marshal(ct)
				var v map[string]any
				_ = json.Unmarshal(b, &v)
				v["hash"] = ct.Hash()
				return writeJSON(ios.Out, v)
			}
			tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "contract %s (outcome %s, hash %s)\n", name, outcome, ct.Hash())
			fmt.Fprintf(tw, "REQUIRED\t%v\t%s\n", ct.Required, ct.Sources["required"])
			fmt.Fprintf(tw, "ELASTIC\t%v\t%s\n", ct.Elastic, ct.Sources["elastic"])
			fmt.Fprintf(tw, "RETRIEVABLE\t%v\t%s\n", ct.Retrievable, ct.Sources["retrievable"])
			fmt.Fprintf(tw, "floor\t%d tokens\t%s\n", ct.Floor, ct.Sources["floor"])
			fmt.Fprintf(tw, "ceiling\t%d tokens\t%s\n", ct.Ceiling, ct.Sources["ceiling"])
			for _, sel := range evidence.SortedKeys(ct.Loss) {
				fmt.Fprintf(tw, "loss %s\t%s\t%s\n", sel, ct.Loss[sel], ct.Sources["loss."+sel])
			}
			return tw.Flush()
		},
	}
	show.Flags().StringVar(&outcome, "outcome", "fail", "the outcome: pass, fail or error")
	show.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.AddCommand(show)
	return c
}

// newCompactCmd is the background job ctx run starts after a flood.
func newCompactCmd(ios *IO) *cobra.Command {
	return &cobra.Command{
		Use:    "compact",
		Short:  "Compress frames that a fast flood left stored raw",
		Hidden: true,
		Args:   exactArgs(0, "ctx compact"),
		RunE: func(cmd *cobra.Command, args []string) error {
			_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10)
			st, err := openStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			_, _, err = st.Compact()
			if errors.Is(err, store.ErrBusy) {
				return nil // the gc or compaction running does the work
			}
			return err
		},
	}
}

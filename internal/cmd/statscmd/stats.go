// Package statscmd holds ctx stats: what ctx kept out of the transcript, per
// command family, and what the agent fetched back with ctx get.
package statscmd

import (
	"fmt"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

type statsOptions struct {
	since time.Duration
	json  bool
}

// NewCmd is ctx stats.
func NewCmd(ios *cli.IO) *cobra.Command {
	o := &statsOptions{}
	c := &cobra.Command{
		Use:   "stats [--since DUR]",
		Short: "What ctx kept out of the transcript, and what the agent fetched back",
		Long: `Account for recent executions: bytes and estimated tokens each command wrote
against what its digest showed, per command family; the commands whose digest
was larger than their raw output (reported, never hidden); and every later
retrieval of stored output with ctx get — how often the agent needed what a
digest left out.

Token figures here are estimates (bytes / 4). They count output kept out of the
transcript; they are not priced: what a token costs depends on the host's
prompt caching, and tokens re-sent from a cache are not fresh input.

Exit status: 0 printed; 125 the store is locked or damaged.`,
		Example: "  ctx stats\n  ctx stats --since 24h --json",
		Args:    cli.ExactArgs(0, "ctx stats"),
		RunE:    func(cmd *cobra.Command, args []string) error { return runStats(ios, o) },
	}
	c.Flags().DurationVar(&o.since, "since", 7*24*time.Hour, "only executions and retrievals this recent")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type familyStats struct {
	Family       string `json:"family"`
	Executions   int    `json:"executions"`
	RawBytes     int64  `json:"raw_bytes"`
	ShownBytes   int64  `json:"shown_bytes"`
	RawTokens    int64  `json:"raw_tokens_est"`
	ShownTokens  int64  `json:"shown_tokens_est"`
	KeptOut      int64  `json:"kept_out_tokens_est"` // raw - shown, never below 0 per execution
	Retrievals   int    `json:"retrievals"`
	LargerDigest int    `json:"digest_larger_than_raw"`
}

type statsReport struct {
	Since      time.Time     `json:"since"`
	Total      familyStats   `json:"total"`
	Families   []familyStats `json:"families"`
	Larger     []string      `json:"digest_larger_than_raw,omitempty"` // run handles with their commands
	Retrievals int           `json:"retrievals"`
	Retrieved  int64         `json:"retrieved_bytes"`
	Note       string        `json:"note"`
}

func runStats(ios *cli.IO, o *statsOptions) error {
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	since := time.Now().Add(-o.since)
	execs, err := st.Execs(0, func(e *store.Exec) bool { return !e.Start.Before(since) && e.Note != "bench" })
	if err != nil {
		return err
	}
	rets, err := st.Retrievals(since)
	if err != nil {
		return err
	}
	rep := statsReport{Since: since.UTC(), Total: familyStats{Family: "all"},
		Note: "tokens are estimates (bytes/4) of output kept out of the transcript, not priced: cached re-sends are not fresh input"}
	byRun := map[store.ID]string{}
	larger := map[store.ID]int{}
	var largerOrder []*store.Exec
	fams := map[string]*familyStats{}
	for _, ex := range execs {
		fam := secrets.String(family(secrets.Argv(ex.Argv)))
		byRun[ex.Run] = fam
		f := fams[fam]
		if f == nil {
			f = &familyStats{Family: fam}
			fams[fam] = f
		}
		for _, acc := range []*familyStats{f, &rep.Total} {
			acc.Executions++
			acc.RawBytes += ex.RawBytes
			acc.ShownBytes += ex.ShownBytes
			raw, shown := estTokens(ex.RawBytes), estTokens(ex.ShownBytes)
			acc.RawTokens += raw
			acc.ShownTokens += shown
			acc.KeptOut += max(raw-shown, 0)
			if ex.ShownBytes > ex.RawBytes {
				acc.LargerDigest++
			}
		}
		if ex.ShownBytes > ex.RawBytes {
			if larger[ex.Run] == 0 {
				largerOrder = append(largerOrder, ex)
			}
			larger[ex.Run]++
		}
	}
	for _, ex := range largerOrder {
		if len(rep.Larger) == 20 {
			break
		}
		rep.Larger = append(rep.Larger, fmt.Sprintf("%s %s: %d B raw, %d B shown, %d× in the period",
			ex.Handle(), cmdline.Display(secrets.Argv(ex.Argv)), ex.RawBytes, ex.ShownBytes, larger[ex.Run]))
	}
	for _, r := range rets {
		rep.Retrievals++
		rep.Retrieved += r.Bytes
		if fam, ok := byRun[r.Run]; ok {
			fams[fam].Retrievals++
		}
	}
	rep.Total.Retrievals = rep.Retrievals
	for _, f := range fams {
		rep.Families = append(rep.Families, *f)
	}
	sort.Slice(rep.Families, func(i, j int) bool {
		if rep.Families[i].KeptOut != rep.Families[j].KeptOut {
			return rep.Families[i].KeptOut > rep.Families[j].KeptOut
		}
		return rep.Families[i].Family < rep.Families[j].Family
	})
	if rep.Families == nil {
		rep.Families = []familyStats{}
	}
	if o.json {
		return cli.WriteJSON(ios.Out, rep)
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAMILY\tRUNS\tRAW\tSHOWN\tRAW TOKENS~\tSHOWN TOKENS~\tKEPT OUT~\tFETCHED\tDIGEST>RAW")
	for _, f := range append(rep.Families, rep.Total) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", f.Family, f.Executions, contract.Size(f.RawBytes), contract.Size(f.ShownBytes),
			contract.Num(f.RawTokens), contract.Num(f.ShownTokens), contract.Num(f.KeptOut), f.Retrievals, f.LargerDigest)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(ios.Out, "retrievals of stored output: %d (%s) since %s\n", rep.Retrievals, contract.Size(rep.Retrieved), since.Format(time.RFC3339))
	for _, l := range rep.Larger {
		fmt.Fprintf(ios.Out, "digest larger than raw: %s\n", l)
	}
	fmt.Fprintln(ios.Out, "~ "+rep.Note)
	return nil
}

// family names a command's family (cmdline.Family): the program, and its
// subcommand for tools that have them (go test, git log, npm run).
func family(argv []string) string {
	if f := cmdline.Family(argv); f != "" {
		return f
	}
	return "(ingested)"
}

// estTokens is the cheap token estimate stats reports (and labels as one):
// about four bytes a token. ctx bench counts real tokens.
func estTokens(bytes int64) int64 { return (bytes + 3) / 4 }

package storecmd

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/profiles"
)

func newContractCmd(ios *cli.IO) *cobra.Command {
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
		Args:    cli.ExactArgs(1, "ctx contract show PROFILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if _, ok := profiles.Lookup(name); !ok {
				return fmt.Errorf("unknown profile %q (known: %v)", name, profiles.Names())
			}
			dir := ""
			if st, err := cli.OpenStore(ios, false); err == nil {
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
				return cli.WriteJSON(ios.Out, v)
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

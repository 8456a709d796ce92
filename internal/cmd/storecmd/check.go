package storecmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

type checkOptions struct {
	readData bool
	repair   bool
	json     bool
}

func newCheckCmd(ios *cli.IO) *cobra.Command {
	o := &checkOptions{}
	c := &cobra.Command{
		Use:   "check [--read-data] [--repair]",
		Short: "Verify the store: database, runs, blobs, frame tables, packs and spools",
		Long: `Verify everything the store holds: the database file and its pages, every
run's record (it must hash to its id) and the blobs it references, every
blob's frame table (checksummed), frames and pack file, and the spools.
Damage is reported with the handle it affects. --read-data also decompresses
and re-hashes every blob and recounts its lines.

--repair only removes dangling references (executions of runs that are gone,
runs whose content is gone) and re-links orphaned pack files, compressed or
plain (.raw), that hold intact content a run references. It never deletes
content that something references, nor a pack it could not verify (that one
is named, with the run that needs it, which is kept), and lists what it did.

Exit status: 0 nothing damaged (or everything repaired); 1 damage found;
125 the database cannot be read at all (the message names the file).`,
		Example: "  ctx check\n  ctx check --read-data\n  ctx check --repair --json",
		Args:    cli.ExactArgs(0, "ctx check"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(ios, o)
		},
	}
	c.Flags().BoolVar(&o.readData, "read-data", false, "decompress and re-hash every blob")
	c.Flags().BoolVar(&o.repair, "repair", false, "remove dangling references and re-link orphaned intact data")
	c.Flags().BoolVar(&o.json, "json", false, "print the report as JSON")
	return c
}

func runCheck(ios *cli.IO, o *checkOptions) error {
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := st.Check(store.CheckOptions{ReadData: o.readData, Repair: o.repair})
	if err != nil {
		return cli.WithCode(cli.ExitFailed, err)
	}
	if o.json {
		if err := cli.WriteJSON(ios.Out, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(ios.Out, "checked %d runs, %d blobs, %d executions, %d pack files", rep.Runs, rep.Blobs, rep.Execs, rep.Packs)
		if o.readData {
			fmt.Fprintf(ios.Out, ", read %d bytes", rep.Read)
		}
		fmt.Fprintln(ios.Out)
		for _, p := range rep.Problems {
			fmt.Fprintf(ios.Out, "damaged  %s: %s\n", p.Handle, p.What)
		}
		for _, p := range rep.Notes {
			fmt.Fprintf(ios.Out, "note     %s: %s\n", p.Handle, p.What)
		}
		for _, r := range rep.Repaired {
			fmt.Fprintf(ios.Out, "repaired %s\n", r)
		}
		switch {
		case rep.OK() && o.readData:
			fmt.Fprintln(ios.Out, "no damage found")
		case rep.OK():
			// Without --read-data a pack whose bytes changed but not its
			// size passes; say what was not looked at.
			fmt.Fprintln(ios.Out, "no damage found (blob contents not read: `ctx check --read-data` decompresses and re-hashes them)")
		case !o.repair && o.readData:
			// The repair must read the data too, or it finds nothing to do.
			fmt.Fprintln(ios.Out, "run `ctx check --repair --read-data` to remove dangling references and re-link intact orphaned data")
		case !o.repair:
			fmt.Fprintln(ios.Out, "run `ctx check --repair` to remove dangling references and re-link intact orphaned data")
		}
	}
	if rep.OK() {
		return nil
	}
	if o.repair {
		// What is left after the repair decides the status.
		after, err := st.Check(store.CheckOptions{ReadData: o.readData})
		if err != nil {
			return cli.WithCode(cli.ExitFailed, err)
		}
		if after.OK() {
			if !o.json {
				fmt.Fprintln(ios.Out, "no damage left")
			}
			return nil
		}
		if !o.json {
			fmt.Fprintf(ios.Out, "%d problems left after the repair (damaged content is never deleted: rerun the commands that made it)\n", len(after.Problems))
		}
	}
	return &cli.ExitError{Code: cli.ExitBad}
}

package infocmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/profiles/logs"
)

// NewTemplatesCmd is ctx templates.
func NewTemplatesCmd(ios *cli.IO) *cobra.Command {
	var maxTemplates int
	var asJSON bool
	c := &cobra.Command{
		Use:   "templates [FILE|-]",
		Short: "Print the log template of every line",
		Long: `Mine log templates from a file (or stdin) and print one line per input line:
LINENO<TAB>TEMPLATE, where the template is the line's constant tokens with
variable ones (timestamps, ids, numbers, paths…) replaced by <*>. Lines past
the template cap print <overflow>. One pass, no per-dataset configuration.

Exit status: 0 printed; 1 the file cannot be read; 2 usage error.`,
		Example: `  ctx templates app.log
  journalctl -b | ctx templates - | cut -f2 | sort | uniq -c | sort -rn | head`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := ios.In
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				in = f
			}
			if maxTemplates < 0 {
				return cli.Usagef("--max-templates %d: want a positive number", maxTemplates)
			}
			w := bufio.NewWriterSize(ios.Out, 64<<10)
			var out io.Writer = w
			if asJSON {
				out = &jsonLines{w: w}
			}
			if err := logs.WriteTemplates(cmd.Context(), in, out, logs.Options{MaxTemplates: maxTemplates}); err != nil {
				return err
			}
			return w.Flush()
		},
	}
	c.Flags().IntVar(&maxTemplates, "max-templates", logs.DefaultMaxTemplates, "cap on distinct templates (memory bound)")
	c.Flags().BoolVar(&asJSON, "json", false, `print JSON Lines: {"line":N,"template":"…"} per input line`)
	return c
}

// jsonLines turns "LINENO\tTEMPLATE\n" lines into JSON Lines objects.
type jsonLines struct {
	w    io.Writer
	part []byte
}

func (j *jsonLines) Write(p []byte) (int, error) {
	n := len(p)
	j.part = append(j.part, p...)
	for {
		i := bytes.IndexByte(j.part, '\n')
		if i < 0 {
			return n, nil
		}
		num, tmpl, _ := bytes.Cut(j.part[:i], []byte{'\t'})
		line, _ := strconv.Atoi(string(num))
		b, err := json.Marshal(struct {
			Line     int    `json:"line"`
			Template string `json:"template"`
		}{line, string(tmpl)})
		if err != nil {
			return n, err
		}
		if _, err := j.w.Write(append(b, '\n')); err != nil {
			return n, err
		}
		j.part = j.part[i+1:]
	}
}

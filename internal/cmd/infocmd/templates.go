package infocmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/logs"
	"github.com/ctxhq/ctx/profiles/text"
	"github.com/ctxhq/ctx/store"
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

Input that is not UTF-8 text (an executable, compressed data, UTF-16) is
refused: its "lines" have no templates, and printing them would put binary
bytes on the terminal; the error names what it is and how to read it.

Exit status: 0 printed; 1 the file cannot be read or is not text; 2 usage
error.`,
		Example: `  ctx templates app.log
  journalctl -b | ctx templates - | cut -f2 | sort | uniq -c | sort -rn | head`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, name := ios.In, "stdin"
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				in, name = f, args[0]
			}
			if maxTemplates < 0 {
				return cli.Usagef("--max-templates %d: want a positive number", maxTemplates)
			}
			text, err := textInput(in, name)
			if err != nil {
				return err
			}
			in = text
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

// textInput returns in, read through a buffer, when its head is UTF-8 text
// (as ctx run judges a stream), or an error that names what it is instead
// and how to read it.
func textInput(in io.Reader, name string) (io.Reader, error) {
	br := bufio.NewReaderSize(in, evidence.HeadSize)
	head, err := br.Peek(evidence.HeadSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if lines.Printable(head) {
		return br, nil
	}
	from := "iconv -f %s -t UTF-8 " + cmdline.QuoteWord(name) + " | ctx templates -"
	if name == "stdin" {
		from = "… | iconv -f %s -t UTF-8 | ctx templates -"
	}
	kind := text.Sniff(head)
	fix := "templates are mined from text lines; `xxd` or `strings` shows what it holds"
	switch {
	case strings.Contains(kind, "charset=utf-16"):
		kind = strings.ToUpper(strings.TrimPrefix(kind, "text/plain; charset=")) + ": it starts with a byte-order mark"
		fix = "convert it first: " + fmt.Sprintf(from, "UTF-16")
	case strings.HasPrefix(kind, "text/plain"):
		kind = "more than 1% of its first 64 KiB are control bytes or invalid UTF-8"
		fix = "if it is text in another encoding, convert it first: " + fmt.Sprintf(from, "ENCODING")
	}
	return nil, cli.WithCode(cli.ExitBad, &store.Error{Err: fmt.Errorf("%s is not UTF-8 text (%s)", cmdline.Display([]string{name}), kind), Hint: fix})
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

package getcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/source"
)

// runGetRepo prints what a repo: address names, verified against its
// anchor: moved content is followed (the corrected address goes to stderr),
// changed content is refused.
func runGetRepo(ctx context.Context, ios *cli.IO, o *getOptions) error {
	a, err := source.ParseAddress(o.handle)
	if err != nil {
		return cli.WithCode(cli.ExitBad, err)
	}
	if o.lines != "" || o.bytes != "" || o.grep != "" || o.pointer != "" || o.records != "" || o.hex {
		return cli.Usagef("repo: addresses take no --lines, --bytes, --grep, --hex or JSON selectors; put the lines in the address (repo:PATH:L40-52)")
	}
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	r, err := source.Resolve(source.Root(ctx, cwd), a)
	var ce *source.ChangedError
	if errors.As(err, &ce) {
		return cli.WithCode(cli.ExitBad, err)
	}
	if err != nil {
		return cli.WithCode(cli.ExitBad, fmt.Errorf("%s: %w", o.handle, err))
	}
	if o.json {
		return cli.WriteJSON(ios.Out, struct {
			Handle string `json:"handle"`
			Moved  bool   `json:"moved"`
			Text   string `json:"text"`
		}{r.Address.String(), r.Moved, string(r.Text)})
	}
	switch {
	case r.Moved:
		fmt.Fprintf(ios.Err, "ctx: the content moved: it is now at %s\n", r.Address)
	case a.Anchor == "" && r.Address.Anchor != "":
		fmt.Fprintf(ios.Err, "ctx: %s\n", r.Address) // the anchored address, to cite
	}
	text := r.Text
	if n := bytes.Count(text, []byte{'\n'}); n > o.limit && !o.full {
		cut := 0
		for i := 0; i < o.limit; i++ {
			cut += bytes.IndexByte(text[cut:], '\n') + 1
		}
		text = text[:cut]
		defer fmt.Fprintf(ios.Err, "ctx: %d of %d lines shown; narrow the address (repo:%s:L%d-%d) or pass --full\n",
			o.limit, n, r.Address.Path, r.Address.From+o.limit, r.Address.From+n-1)
	}
	_, err = ios.Out.Write(text)
	return err
}

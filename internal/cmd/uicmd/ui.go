// Package uicmd holds ctx ui: a web page on the loopback interface for a person
// to browse runs, answered by the commands' own code (ctx ls, show, get). The
// page is package ui's.
package uicmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/lscmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/ui"
)

// NewCmd is ctx ui.
func NewCmd(ios *cli.IO) *cobra.Command {
	var addr string
	var asJSON bool
	c := &cobra.Command{
		Use:   "ui [--addr 127.0.0.1:PORT]",
		Short: "Browse runs in a web page on this machine: digests, coloured output, search, failures",
		Long: `Serve a web page on the loopback interface for a person to browse this
workspace's runs: the recent runs with their status; for each, its digest and
its full output with terminal colour rendered, in pages of 500 lines; line
numbers that are handles (click one to copy run:ID#stdout:LN); a search box
(regular expressions); and a jump from failure line to failure line (the
button, or the n key). Everything is read through the same code as ctx get,
ctx show and ctx ls. It listens on loopback only and answers only requests
addressed to a loopback name; stop it with Ctrl-C.

Exit status: 0 stopped; 1 the address cannot be used; 2 usage error.`,
		Example: "  ctx ui\n  ctx ui --addr 127.0.0.1:8377",
		Args:    cli.ExactArgs(0, "ctx ui"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ln, err := ui.Listen(addr)
			if err != nil {
				return cli.Usagef("--addr: %v", err)
			}
			url := "http://" + ln.Addr().String() + "/"
			if asJSON {
				if err := cli.WriteJSON(ios.Out, map[string]string{"url": url}); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(ios.Out, "ctx ui: %s (Ctrl-C to stop)\n", url)
			}
			srv := &http.Server{Handler: ui.Handler(uiSource{ios}), ReadHeaderTimeout: 10 * time.Second}
			go func() {
				<-cmd.Context().Done()
				shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				_ = srv.Shutdown(shut)
			}()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the page's address as JSON")
	return c
}

// uiSource answers the page with the commands' own code: ctx ls, ctx show
// and ctx get, writing into buffers.
type uiSource struct{ ios *cli.IO }

func (s uiSource) io(out, errb *bytes.Buffer) *cli.IO {
	return &cli.IO{In: strings.NewReader(""), Out: out, Err: errb, Getwd: s.ios.Getwd, Getenv: s.ios.Getenv}
}

func (s uiSource) Runs(ctx context.Context, n int) ([]ui.Run, error) {
	var out, errb bytes.Buffer
	if err := lscmd.ListJSON(s.io(&out, &errb), n); err != nil {
		return nil, err
	}
	var rows []lscmd.Row
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		return nil, err
	}
	runs := make([]ui.Run, len(rows))
	now := time.Now()
	for i, r := range rows {
		runs[i] = ui.Run{Handle: r.Run, Command: cmdline.Display(r.Argv), Exit: r.Exit, Status: string(r.Status),
			Size: contract.Size(r.Stdout + r.Stderr), Lines: r.Lines, Age: lscmd.Age(now.Sub(r.Start))}
	}
	return runs, nil
}

func (s uiSource) Digest(ctx context.Context, run string) (string, error) {
	sh, err := runcmd.ShowHandle(ctx, s.ios, run)
	if err != nil {
		return "", err
	}
	return string(sh.Text), nil
}

// uiLineMax cuts a line the page shows; the handle still gives all of it.
const uiLineMax = 8 << 10

func (s uiSource) Lines(ctx context.Context, stream string, from, to int64) ([]string, int64, error) {
	st, err := cli.OpenStore(s.ios, false)
	if err != nil {
		return nil, 0, err
	}
	h, err := store.ParseHandle(stream)
	if err != nil {
		st.Close()
		return nil, 0, err
	}
	t, err := st.Resolve(h)
	st.Close()
	if err != nil {
		return nil, 0, err
	}
	m := t.Run.Manifest
	total := m.Stdout.Lines
	switch t.Stream {
	case "stderr":
		total = m.Stderr.Lines
	case "merged":
		total += m.Stderr.Lines
	}
	if total == 0 || from > total {
		return nil, total, nil
	}
	to = min(to, total)
	var out, errb bytes.Buffer
	if err := getcmd.Region(ctx, s.io(&out, &errb), fmt.Sprintf("%s:L%d-%d", stream, from, to)); err != nil {
		if _, failed := cli.ExitOf(err); failed {
			return nil, total, err
		}
	}
	text := strings.TrimSuffix(out.String(), "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if len(l) > uiLineMax {
			lines[i] = l[:uiLineMax] + fmt.Sprintf(" … [line cut at %d bytes; ctx get %s:L%d has all of it]", uiLineMax, stream, from+int64(i))
		}
	}
	return lines, total, nil
}

func (s uiSource) Grep(ctx context.Context, stream, expr string, limit int) ([]ui.Match, error) {
	var out, errb bytes.Buffer
	err := getcmd.Grep(ctx, s.io(&out, &errb), stream, expr, limit)
	if _, failed := cli.ExitOf(err); failed {
		return nil, err
	}
	var ms []ui.Match
	for _, l := range strings.Split(out.String(), "\n") {
		num, text, ok := strings.Cut(l, ":")
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil {
			continue
		}
		text = string(lines.Clean([]byte(text)))
		if len(text) > 300 {
			text = text[:300] + "…"
		}
		ms = append(ms, ui.Match{Line: n, Text: text})
	}
	return ms, nil
}

// Source is what ctx ui's page reads, answered through ios's workspace.
func Source(ios *cli.IO) ui.Source { return uiSource{ios} }

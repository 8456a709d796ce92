package benchcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/bench"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/secrets"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
)

func benchSecretsCmd(ios *cli.IO, o *benchOptions) *cobra.Command {
	var seed uint64
	c := &cobra.Command{
		Use:   "secrets",
		Short: "Redaction recall on planted credentials, on every agent-facing path, and false positives on real look-alikes",
		Long: `Plant generated credentials (no real secret: shapes from the providers'
documentation) in realistic outputs — env dumps, docker inspect, kubectl
secrets, CI logs, go test logs, stack traces — run each through ctx in a
scratch workspace, and read it back on every path an agent has: the digest,
run --json, get (whole, pages, byte windows, grep, JSON), show, show --json,
the MCP tools, and ls/stats for secrets in argv. A planted value (or the middle
16 characters of a long one) in any output is a miss; every miss is listed.
Real look-alikes from this machine (git SHAs, go.sum, UUIDs, hashes, base64,
public keys, ctx handles, test names) must come through unredacted.`,
		Example: "  ctx bench secrets\n  ctx bench secrets --seed 7 --json",
		Args:    cli.ExactArgs(0, "ctx bench secrets"),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := Secrets(cmd.Context(), o.prog, seed, 0)
			if err != nil {
				return err
			}
			r := bench.NewReceipt("secrets", cli.Version, map[string]any{"seed": seed, "rules": secrets.Version})
			var gates []bench.Gate
			for _, p := range res.Paths {
				gates = append(gates, gateOf("recall on "+p.Path, p.Recall(), 0.98, "", "higher"))
			}
			gates = append(gates, gateOf("false positives on look-alike lines", res.FPRate, 0.01, "", "lower"),
				gateOf("credential formats", float64(res.Formats), 60, "", "higher"),
				gateOf("providers", float64(res.Providers), 30, "", "higher"))
			r.Finish(res, gates...)
			return finishBench(ios, o, r, res.print)
		},
	}
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of the generated credentials")
	return c
}

// SecretPath is one agent-facing path's tally: credentials planted, leaked.
type SecretPath struct {
	Path    string `json:"path"`
	Planted int    `json:"planted"`
	Leaked  int    `json:"leaked"`
}

// Recall is the fraction of planted credentials the path redacted.
func (p SecretPath) Recall() float64 {
	if p.Planted == 0 {
		return 0
	}
	return 1 - float64(p.Leaked)/float64(p.Planted)
}

// SecretsResult is the secrets suite's outcome.
type SecretsResult struct {
	Formats    int          `json:"formats"`
	Providers  int          `json:"providers"`
	Documents  int          `json:"documents"`
	Planted    int          `json:"planted"`
	Paths      []SecretPath `json:"paths"`
	Misses     []string     `json:"misses"`
	Lookalikes int          `json:"lookalike_lines"`
	FalsePos   []string     `json:"false_positives"`
	FPRate     float64      `json:"false_positive_rate"`
	WholeDocs  int          `json:"documents_digested_whole"`
}

func (r *SecretsResult) print(w io.Writer) error {
	fmt.Fprintf(w, "%d credential formats from %d providers, planted %d times in %d outputs (%d digested whole)\n",
		r.Formats, r.Providers, r.Planted, r.Documents, r.WholeDocs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tPLANTED\tLEAKED\tRECALL")
	for _, p := range r.Paths {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f\n", p.Path, p.Planted, p.Leaked, p.Recall())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range r.Misses {
		fmt.Fprintf(w, "miss: %s\n", m)
	}
	fmt.Fprintf(w, "look-alikes: %d of %d real lines redacted (%.4f)\n", len(r.FalsePos), r.Lookalikes, r.FPRate)
	for _, f := range r.FalsePos {
		fmt.Fprintf(w, "false positive: %s\n", f)
	}
	return nil
}

// secretBench is a scratch workspace driven through ctx's own commands.
type secretBench struct {
	ctx  context.Context
	dir  string
	ios  *cli.IO
	mcp  *mcp.ClientSession
	prog Program
}

func (b *secretBench) cli(args ...string) string {
	var out, errb bytes.Buffer
	ios := *b.ios
	ios.Out, ios.Err = &out, &errb
	b.prog.Run(&ios, args)
	return out.String() + errb.String()
}

func (b *secretBench) tool(name string, args map[string]any) string {
	res, err := b.mcp.CallTool(b.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "error: " + err.Error()
	}
	return hostsmcp.ResultText(res)
}

// Program is ctx itself as the secrets suite drives it: its command-line
// entry point and its MCP server.
type Program struct {
	Run func(ios *cli.IO, args []string) int
	MCP func(ios *cli.IO) *mcp.Server
}

var runHandleRE = lines.Lazy(`run:[0-9a-f]{12}`)

// Secrets runs the redaction suite through prog; limit > 0 keeps only every
// limit-th document and argv format (the redaction matrix test's quick form).
func Secrets(ctx context.Context, prog Program, seed uint64, limit int) (*SecretsResult, error) {
	b, err := newSecretBench(ctx, prog)
	if err != nil {
		return nil, err
	}
	defer b.close()
	dir := b.dir

	res := &SecretsResult{}
	providers := map[string]bool{}
	for _, f := range bench.SecretFormats {
		providers[f.Provider] = true
	}
	res.Formats, res.Providers = len(bench.SecretFormats), len(providers)
	paths := map[string]*SecretPath{}
	var order []string
	check := func(path string, p bench.Planted, doc, out string) {
		sp := paths[path]
		if sp == nil {
			sp = &SecretPath{Path: path}
			paths[path] = sp
			order = append(order, path)
		}
		sp.Planted++
		if leaks(out, p.Value) {
			sp.Leaked++
			res.Misses = append(res.Misses, fmt.Sprintf("%s: %s (%s) in %s", path, p.Format.ID, p.Format.Provider, doc))
		}
	}
	docs := bench.SecretDocs(seed)
	if limit > 0 {
		var some []bench.SecretDoc
		for i := 0; i < len(docs); i += limit {
			some = append(some, docs[i])
		}
		docs = some
	}
	res.Documents = len(docs)
	for _, d := range docs {
		file := filepath.Join(dir, d.Name+".txt")
		if err := os.WriteFile(file, []byte(d.Text), 0o600); err != nil {
			return nil, err
		}
		digest := b.cli("run", "--", "cat", file)
		h := runHandleRE.FindString(digest)
		if h == "" {
			return nil, fmt.Errorf("%s: no run handle in the digest:\n%s", d.Name, digest)
		}
		if strings.Contains(digest, "whole output") {
			res.WholeDocs++
		}
		outs := b.outputs(d, h, file, digest)
		for _, p := range d.Planted {
			for _, path := range sortedPaths(outs) {
				out := outs[path]
				if path == "get byte page" || path == "get line page" {
					out = pageLeak(out, p.Value)
				}
				check(path, p, d.Name, out)
			}
		}
	}
	// Secrets in argv: the command line of a run, as ls, stats and the
	// digest header show it.
	for i, f := range bench.SecretFormats {
		if limit > 0 && i%limit != 0 {
			continue
		}
		p, argv, ok := argvPlant(seed+uint64(i)+1, f)
		if !ok {
			continue
		}
		digest := b.cli(append([]string{"run", "--"}, argv...)...)
		p.Context = "argv"
		check("argv: digest header", p, "argv", digest)
		check("argv: ls", p, "argv", b.cli("ls", "-n", "0"))
		check("argv: ls --json", p, "argv", b.cli("ls", "-n", "0", "--json"))
		check("argv: stats --json", p, "argv", b.cli("stats", "--json"))
		check("argv: mcp ctx_ls", p, "argv", b.tool("ctx_ls", map[string]any{"n": 200}))
	}
	for _, k := range order {
		res.Paths = append(res.Paths, *paths[k])
	}
	for _, p := range res.Paths {
		res.Planted = max(res.Planted, p.Planted)
	}
	if err := b.lookalikes(res); err != nil {
		return nil, err
	}
	res.FPRate = float64(len(res.FalsePos)) / float64(max(1, res.Lookalikes))
	return res, nil
}

// digestRedacts reports whether the digest shows line l with a redaction.
func digestRedacts(digest, l string) bool {
	for _, d := range strings.Split(digest, "\n") {
		if strings.Contains(d, "[REDACTED:") && !strings.Contains(d, l) && len(l) > 20 && strings.Contains(d, l[:20]) {
			return true
		}
	}
	return false
}

func sortedPaths(m map[string]string) []string {
	var k []string
	for p := range m {
		k = append(k, p)
	}
	sort.Strings(k)
	return k
}

// leaks reports whether out shows the secret v: the whole value, any line of
// a multi-line one, or the middle 16 characters of a long one.
func leaks(out, v string) bool {
	if out == "" {
		return false
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' }) {
		part = strings.TrimSuffix(strings.TrimPrefix(part, `\n`), `\n`)
		for _, p := range strings.Split(part, `\n`) {
			if strings.HasPrefix(p, "-----") || len(p) < 8 {
				continue
			}
			if strings.Contains(out, p) {
				return true
			}
			if len(p) >= 24 && strings.Contains(out, p[len(p)/2-8:len(p)/2+8]) {
				return true
			}
		}
	}
	return false
}

// lookalikes runs real look-alike lines through ctx, 20 to a document: any
// line that comes back changed from get, or redacted in the digest, is a
// false positive.
func (b *secretBench) lookalikes(res *SecretsResult) error {
	look := bench.Lookalikes()
	res.Lookalikes = len(look)
	for i := 0; i < len(look); i += 20 {
		chunk := look[i:min(i+20, len(look))]
		text := strings.Join(chunk, "\n") + "\n"
		file := filepath.Join(b.dir, fmt.Sprintf("lookalike-%02d.txt", i/20))
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			return err
		}
		digest := b.cli("run", "--", "cat", file)
		h := runHandleRE.FindString(digest)
		got := strings.Split(b.cli("get", h+"#stdout", "--full"), "\n")
		for j, l := range chunk {
			if j >= len(got) || got[j] != l || digestRedacts(digest, l) {
				res.FalsePos = append(res.FalsePos, l)
			}
		}
	}
	return nil
}

// outputs reads a stored document (run as h, printing digest) back on every
// path an agent has, by path name; the paged paths join their pages with NUL.
func (b *secretBench) outputs(d bench.SecretDoc, h, file, digest string) map[string]string {
	n := strings.Count(d.Text, "\n")
	outs := map[string]string{
		"digest":        digest,
		"run --json":    b.cli("run", "--json", "--", "cat", file),
		"get":           b.cli("get", h),
		"get --full":    b.cli("get", h+"#stdout", "--full"),
		"get --json":    b.cli("get", h+"#stdout", "--json", "--full"),
		"get --grep":    b.cli("get", h+"#stdout", "--grep", ".", "--limit", "10000"),
		"get --plain":   b.cli("get", h+"#stdout", "--plain", "--full"),
		"show":          b.cli("show", h),
		"show --json":   b.cli("show", h, "--json"),
		"mcp ctx_run":   b.tool("ctx_run", map[string]any{"argv": []string{"cat", file}}),
		"mcp ctx_get":   b.tool("ctx_get", map[string]any{"handle": h + "#stdout"}),
		"mcp ctx_show":  b.tool("ctx_show", map[string]any{"handle": h}),
		"get line page": "",
		"get byte page": "",
	}
	// Pages of 4 lines and windows of 48 bytes: each read on its own, so
	// a secret a page boundary cuts must not show in either part.
	for from := 1; from <= n; from += 4 {
		outs["get line page"] += "\x00" + b.cli("get", fmt.Sprintf("%s#stdout:L%d-%d", h, from, min(n, from+3)))
	}
	for from := 0; from < len(d.Text); from += 48 {
		outs["get byte page"] += "\x00" + b.cli("get", h+"#stdout", "--bytes", fmt.Sprintf("%d:%d", from, min(len(d.Text), from+48)))
	}
	return outs
}

// pageLeak judges the pages of a paged read (joined with NUL) each alone: a
// secret a page boundary cuts must show in neither part. It is the value
// when some page leaks it, else "".
func pageLeak(pages, value string) string {
	for _, page := range strings.Split(pages, "\x00") {
		if leaks(page, value) {
			return value
		}
	}
	return ""
}

// argvPlant is a credential of format f (generated from seed) that fits on a
// command line, and a command line carrying it: as an environment
// assignment, or as a free-standing argument.
func argvPlant(seed uint64, f *bench.SecretFormat) (bench.Planted, []string, bool) {
	var p bench.Planted
	for _, x := range bench.SecretDocs(seed) {
		for _, y := range x.Planted {
			if y.Format == f && (y.Context == "env" || y.Context == "ci-log") && !strings.Contains(y.Value, "\n") {
				p = y
			}
		}
	}
	if p.Format == nil {
		return p, nil, false
	}
	if f.Env != "" {
		return p, []string{"env", f.Env + "=" + p.Full, "true"}, true
	}
	return p, []string{"sh", "-c", "true", "sh", strings.TrimPrefix(strings.TrimPrefix(fmt.Sprintf(f.Free, p.Full), "> "), "< ")}, true
}

// newSecretBench makes a scratch workspace with its own store and an MCP
// client connected to ctx's server over it.
func newSecretBench(ctx context.Context, prog Program) (*secretBench, error) {
	dir, err := os.MkdirTemp("", "ctx-bench-secrets-")
	if err != nil {
		return nil, err
	}
	// The store is found from the working directory (a .ctx above a
	// temporary directory would otherwise be used): make it here.
	if err := os.Mkdir(filepath.Join(dir, ".ctx"), 0o700); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	env := map[string]string{"CTX_NO_COMPACT": "1"}
	b := &secretBench{ctx: ctx, dir: dir, prog: prog, ios: &cli.IO{In: strings.NewReader(""), Getwd: func() (string, error) { return dir, nil },
		Getenv: func(k string) string { return env[k] }}}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := prog.MCP(b.ios).Connect(ctx, st, nil); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: cli.Version}, nil)
	if b.mcp, err = client.Connect(ctx, ct, nil); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return b, nil
}

// close ends the MCP session and removes the workspace.
func (b *secretBench) close() {
	b.mcp.Close()
	os.RemoveAll(b.dir)
}

package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ctxhq/ctx/cmdline"
)

// Peer is another output-reducing tool run on the same fixtures. Command is
// a shell command line: "{file}" in it is replaced by the fixture's path;
// without "{file}" the fixture is fed on stdin. The first word must resolve
// on PATH (or be a path) for the peer to be present.
type Peer struct {
	Name    string
	Command string
}

// ParsePeer reads NAME=COMMAND.
func ParsePeer(s string) (Peer, error) {
	name, cmd, ok := strings.Cut(s, "=")
	if !ok || name == "" || strings.TrimSpace(cmd) == "" {
		return Peer{}, fmt.Errorf("peer %q: want NAME=COMMAND (e.g. snip=/path/to/snip filter)", s)
	}
	return Peer{Name: name, Command: cmd}, nil
}

// Fixture is one output and the facts a reduction must keep (failing test
// names, error locations).
type Fixture struct {
	Name  string
	Path  string
	Facts []string
}

// PeerResult is one peer on the fixtures.
type PeerResult struct {
	Name        string   `json:"name"`
	Present     bool     `json:"present"`
	Note        string   `json:"note,omitempty"` // why it was skipped
	Fixtures    int      `json:"fixtures"`
	RawTokens   int      `json:"raw_tokens"`
	OutTokens   int      `json:"output_tokens"`
	Facts       int      `json:"facts"`
	FactsKept   int      `json:"facts_kept"`
	MedianMS    float64  `json:"median_ms"`
	LostExample []string `json:"lost_examples,omitempty"`
}

// RunPeers runs each present peer over the fixtures; an absent peer is
// reported as skipped with the reason, never faked.
func RunPeers(ctx context.Context, peers []Peer, fixtures []Fixture) ([]PeerResult, error) {
	var out []PeerResult
	for _, p := range peers {
		r := PeerResult{Name: p.Name}
		words := strings.Fields(p.Command)
		if _, err := exec.LookPath(words[0]); err != nil {
			r.Note = fmt.Sprintf("not present: %v", err)
			out = append(out, r)
			continue
		}
		r.Present = true
		var times Sample
		for _, f := range fixtures {
			raw, err := os.ReadFile(f.Path)
			if err != nil {
				return nil, err
			}
			line := p.Command
			var stdin io.Reader = bytes.NewReader(raw)
			if strings.Contains(line, "{file}") {
				abs, _ := filepath.Abs(f.Path)
				line = strings.ReplaceAll(line, "{file}", cmdline.QuoteWord(abs))
				stdin = nil
			}
			cmd := exec.CommandContext(ctx, "sh", "-c", line)
			cmd.Stdin = stdin
			var outb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &outb, &outb
			start := time.Now()
			_ = cmd.Run() // a peer's exit status is its own business; its output is what counts
			times = append(times, time.Since(start))
			rt, err := Tokens(raw)
			if err != nil {
				return nil, err
			}
			ot, err := Tokens(outb.Bytes())
			if err != nil {
				return nil, err
			}
			r.Fixtures++
			r.RawTokens += rt
			r.OutTokens += ot
			for _, fact := range f.Facts {
				r.Facts++
				if bytes.Contains(outb.Bytes(), []byte(fact)) {
					r.FactsKept++
				} else if len(r.LostExample) < 5 {
					r.LostExample = append(r.LostExample, f.Name+": "+fact)
				}
			}
		}
		r.MedianMS = ms(times.Median())
		out = append(out, r)
	}
	return out, nil
}

// WritePeersText prints the peers' figures.
func WritePeersText(w io.Writer, rs []PeerResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rs {
		if !r.Present {
			fmt.Fprintf(tw, "peer %s\tskipped: %s\n", r.Name, r.Note)
			continue
		}
		fmt.Fprintf(tw, "peer %s\t%d fixtures\t%d → %d tokens\tfacts kept %d/%d\tmedian %.1f ms\n",
			r.Name, r.Fixtures, r.RawTokens, r.OutTokens, r.FactsKept, r.Facts, r.MedianMS)
		for _, l := range r.LostExample {
			fmt.Fprintf(tw, "\tlost: %s\n", l)
		}
	}
	return tw.Flush()
}

// Package profiles detects which command family produced a run's output and
// extracts its evidence graph with that family's parser, degrading to more
// general profiles when a specialised one cannot parse safely. Detection looks
// at the command line first and at the output only when the command line says
// nothing (make, npm test, sh -c, an ingested file).
//
// The parsers live in subpackages, one per family; this package only registers
// them, normalises argv and runs the fallback chain. It must never let a
// fallback go unlabelled: every degradation is a loss in the graph.
package profiles

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/cargotest"
	"github.com/ctxhq/ctx/profiles/diag"
	"github.com/ctxhq/ctx/profiles/dockerbuild"
	"github.com/ctxhq/ctx/profiles/git"
	"github.com/ctxhq/ctx/profiles/gotest"
	"github.com/ctxhq/ctx/profiles/gradle"
	"github.com/ctxhq/ctx/profiles/jest"
	"github.com/ctxhq/ctx/profiles/jsondoc"
	"github.com/ctxhq/ctx/profiles/logs"
	"github.com/ctxhq/ctx/profiles/maven"
	"github.com/ctxhq/ctx/profiles/pytest"
	"github.com/ctxhq/ctx/profiles/search"
	"github.com/ctxhq/ctx/profiles/table"
	"github.com/ctxhq/ctx/profiles/text"
)

// registry lists the profiles in detection order: specific before general,
// text last.
var registry = []evidence.Profile{
	gotest.Profile,
	pytest.Profile,
	cargotest.Profile,
	jest.Profile,
	gradle.Profile,
	maven.Profile,
	dockerbuild.Profile,
	diag.Profile,
	git.Profile,
	jsondoc.Profile,
	search.Profile,
	table.Profile,
	logs.Profile,
	text.Profile,
}

// Lookup returns the profile with the given name.
func Lookup(name string) (evidence.Profile, bool) {
	for _, p := range registry {
		if p.Name == name {
			return p, true
		}
	}
	return evidence.Profile{}, false
}

// Names lists the registered profiles in detection order.
func Names() []string {
	out := make([]string, len(registry))
	for i, p := range registry {
		out[i] = p.Name
	}
	return out
}

// Choice is one step of a detection chain.
type Choice struct {
	Profile evidence.Profile
	By      string // "argv", "content", "forced" or "fallback"
}

// Detect returns the chain of profiles to try, best first, always ending with
// the generic text profile. force names a profile to use first ("" detects).
func Detect(src *evidence.Source, force string) []Choice {
	var chain []Choice
	seen := map[string]bool{}
	add := func(p evidence.Profile, by string) {
		if !seen[p.Name] {
			seen[p.Name] = true
			chain = append(chain, Choice{p, by})
		}
	}
	if force != "" {
		if p, ok := Lookup(force); ok {
			add(p, "forced")
		}
	}
	argv := Normalize(src.Argv)
	for _, p := range registry {
		if p.Argv != nil && p.Argv(argv) {
			add(p, "argv")
		}
	}
	if len(chain) == 0 {
		for _, p := range registry {
			if p.Name != text.Name && p.Content != nil && p.Content(src) {
				add(p, "content")
				break
			}
		}
	}
	add(text.Profile, "fallback")
	return chain
}

// Extract detects the profile and parses. A profile that fails, or finds
// nothing in non-empty output, hands over to the next in the chain, and the
// graph records that loss of precision.
func Extract(ctx context.Context, src *evidence.Source, force string) (*evidence.Graph, error) {
	return ExtractChain(ctx, src, Detect(src, force))
}

// ExtractChain parses src with a chain Detect returned, as Extract does. A
// capture parsed while it runs is detected from its heads as they were when
// the parse began; the chain is detected again at the end, and the parse
// counts only if SameChain says both agree.
func ExtractChain(ctx context.Context, src *evidence.Source, chain []Choice) (*evidence.Graph, error) {
	var losses []evidence.Loss
	for i, c := range chain {
		tracked, long := trackLong(src)
		g, err := safeParse(ctx, c.Profile, tracked)
		last := i == len(chain)-1
		if err == nil && (len(g.Items) > 0 || empty(src) || last) {
			g.Losses = append(losses, g.Losses...)
			loseLong(g, src, long)
			return g, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if last {
			return nil, fmt.Errorf("profile %s: %w", c.Profile.Name, err)
		}
		next := chain[i+1].Profile
		why := "found nothing it recognises"
		if err != nil {
			why = "could not parse the output: " + firstLine(err.Error())
		}
		losses = append(losses, evidence.Loss{Code: "fallback",
			Detail: fmt.Sprintf("%s/%d %s; fell back to %s/%d", c.Profile.Name, c.Profile.Version, why, next.Name, next.Version)})
	}
	panic("unreachable: the chain ends with text, which always parses")
}

// trackLong is src with each stream's reader counting the lines lines.Scan
// cuts at lines.Max, one counter per stream.
func trackLong(src *evidence.Source) (*evidence.Source, []*lines.Long) {
	streams := slices.Clone(src.Streams)
	long := make([]*lines.Long, len(streams))
	for i := range streams {
		l, open := &lines.Long{}, streams[i].Open
		long[i] = l
		if open == nil {
			continue
		}
		streams[i].Open = func() (io.ReadCloser, error) {
			rc, err := open()
			if err != nil {
				return nil, err
			}
			return lines.Track(rc, l), nil
		}
	}
	return src.View(streams), long
}

// loseLong records a long-line loss for each stream in which the parser
// was shown lines cut at lines.Max, unless it said so itself (the text
// profile, which reads them for errors only): a receipt must not vouch for
// what lay past the cut.
func loseLong(g *evidence.Graph, src *evidence.Source, long []*lines.Long) {
	for _, l := range g.Losses {
		if l.Code == "long-line" {
			return
		}
	}
	for i, l := range long {
		if n, first := l.Cut(); n > 0 {
			g.Lose("long-line", "%s", lines.LongDetail(src.Streams[i].Name, "", n, first))
		}
	}
}

// empty reports whether every stream is empty. It asks after the parse, not
// before: a running capture's sizes are known only at its end.
func empty(src *evidence.Source) bool {
	for _, st := range src.Streams {
		if st.Size() > 0 {
			return false
		}
	}
	return true
}

// SameChain reports whether two detection chains name the same profiles,
// chosen the same way, in the same order.
func SameChain(a, b []Choice) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Profile.Name != b[i].Profile.Name || a[i].Profile.Version != b[i].Profile.Version || a[i].By != b[i].By {
			return false
		}
	}
	return true
}

// safeParse runs a parser, turning a panic into an error so one bad parser
// degrades to text instead of losing the digest.
func safeParse(ctx context.Context, p evidence.Profile, src *evidence.Source) (g *evidence.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("parser panic: %v", r)
		}
	}()
	g, err = p.Parse(ctx, src)
	if err == nil && g == nil {
		err = fmt.Errorf("parser returned no graph")
	}
	if g != nil {
		p.Stamp(g)
	}
	return g, err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Normalize reduces a command line to the program that produces the output;
// see cmdline.Normalize.
func Normalize(argv []string) []string { return cmdline.Normalize(argv) }

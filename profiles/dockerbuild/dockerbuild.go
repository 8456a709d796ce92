// Package dockerbuild is the profile for image builds: docker build, docker
// buildx build, podman/buildah build and buildctl, in BuildKit's plain
// progress format ("#5 [2/3] RUN make", "#5 CACHED", "#5 ERROR: …") and the
// legacy builder's ("Step 2/3 : RUN make", " ---> Using cache"). It gives the
// steps with their outcome (done, cached, failed), the failing step with its
// error, its last output lines and its Dockerfile location, build warnings,
// and the final error or success line.
//
// Timings ("DONE 0.3s", "#5 0.123 …") never enter an item's identity or
// message: they change on every run.
package dockerbuild

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Name and Version identify the profile.
const (
	Name    = "dockerbuild"
	Version = 1
)

// Profile is the image-build profile.
var Profile = evidence.Profile{Name: Name, Version: Version, Argv: matchArgv, Content: matchContent, Parse: Parse}

const (
	maxSteps  = 500 // steps kept as items; more are counted
	maxOutput = 5   // last output lines of the failing step kept in its message block
)

func matchArgv(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	prog := cmdline.Program(argv[0])
	var words []string
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
		if len(words) == 2 {
			break
		}
	}
	if len(words) == 0 {
		return false
	}
	switch prog {
	case "docker", "podman", "nerdctl":
		return words[0] == "build" || words[0] == "buildx" && len(words) > 1 && (words[1] == "build" || words[1] == "bake") ||
			words[0] == "image" && len(words) > 1 && words[1] == "build" || words[0] == "compose" && len(words) > 1 && words[1] == "build"
	case "buildah":
		return words[0] == "build" || words[0] == "bud"
	case "buildctl":
		return words[0] == "build"
	case "docker-buildx":
		return words[0] == "build" || words[0] == "bake"
	}
	return false
}

func matchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		h := string(st.Head())
		if strings.Contains(h, "#1 [internal] load build definition") || strings.Contains(h, "[internal] load .dockerignore") ||
			strings.HasPrefix(h, "Step 1/") || strings.Contains(h, "\nStep 1/") ||
			strings.Contains(h, "Sending build context to Docker daemon") {
			return true
		}
	}
	return false
}

var (
	reVertex  = lines.Lazy(`^#(\d+) (\[[^\]]+\] .+|[a-z].*)$`)      // "#5 [2/3] RUN make", "#7 exporting to image"
	reStatus  = lines.Lazy(`^#(\d+) (CACHED|DONE [\d.]+s|\.\.\.)$`) // outcome or "continued below"
	reErr     = lines.Lazy(`^#(\d+) ERROR: (.*)$`)
	reOut     = lines.Lazy(`^#(\d+) \d+\.\d+ (.*)$`) // a step's own output, timestamped
	reStep    = lines.Lazy(`^(?:STEP|Step) (\d+)/(\d+) ?: (.*)$`)
	reDef     = lines.Lazy(`load build definition from (\S+)`)
	reLoc     = lines.Lazy(`^(\S*Dockerfile\S*|Containerfile\S*):(\d+)$`)
	reMark    = lines.Lazy(`^\s*(\d+) \| >>> `)
	reLegacy  = lines.Lazy(`^(?:The command '.*' returned a non-zero code: \d+|error building at STEP .*|Error: .*)$`)
	reWarning = lines.Lazy(`^ - (\w+): (.+?)(?: \(line (\d+)\))?$`)
	// BuildKit's tty display, redrawn in place: " => CACHED [2/5] COPY a /a   0.0s"
	reTTY = lines.Lazy(`^ ?=> (CACHED |ERROR )?(\[[^\]]+\] .+?)(?:\s+[\d.]+s)?$`)
	// the failing step's log block: " > [4/5] RUN make:"
	reBlock = lines.Lazy(`^ > (\[[^\]]+\] .+):$`)
	reFinal = lines.Lazy(`^(?:ERROR: |error: )?(?:failed to solve|failed to build|executor failed running)`)
)

type step struct {
	id      int
	stream  string
	name    string
	outcome string // "done", "cached", "error", "running"
	from    int
	to      int
	err     string
	out     []string // last output lines
}

type parser struct {
	g      *evidence.Graph
	stream string
	steps  []*step
	byID   map[int]*step
	byName map[string]*step // tty display steps, redrawn many times
	block  string           // the step named by the last " > [x/y] …:" line
	legacy *step
	final  string // the last "ERROR: …" / "error: …" line
	finalN int
	finalS string
	file   string // "Dockerfile" of the error excerpt
	def    string // the build definition buildkit says it loaded
	line   int
	inWarn bool
	done   string // a success line: "naming to …", "Successfully built …"
}

// Parse extracts the graph of an image build.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := &parser{g: &evidence.Graph{Profile: Name, Version: Version, Tool: "docker build"}, byID: map[int]*step{}, byName: map[string]*step{}}
	for _, st := range src.Streams {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return nil, fmt.Errorf("dockerbuild: open %s: %w", st.Name, err)
		}
		p.stream = st.Name
		err = lines.Scan(ctx, rc, func(n int, b []byte, _ bool) error {
			p.lineAt(n, string(lines.Clean(b)))
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("dockerbuild: read %s: %w", st.Name, err)
		}
	}
	if len(p.steps) == 0 && p.final == "" {
		return nil, fmt.Errorf("dockerbuild: no build steps in the output")
	}
	return p.finish(src.Exit()), nil
}

func (p *parser) get(id, n int) *step {
	s := p.byID[id]
	if s == nil {
		s = &step{id: id, stream: p.stream, outcome: "running", from: n}
		p.byID[id] = s
		p.steps = append(p.steps, s)
	}
	s.to = max(s.to, n)
	return s
}

func (p *parser) lineAt(n int, l string) {
	if p.inWarn {
		if m := reWarning.FindStringSubmatch(l); m != nil {
			line, _ := strconv.Atoi(m[3])
			p.g.Add(evidence.Item{Kind: evidence.KindDiagnostic, Tool: "docker build", File: p.def, Line: line,
				Severity: evidence.SeverityWarning, Code: m[1], Message: m[2],
				Span: evidence.Span{Stream: p.stream, From: n, To: n}})
			return
		}
		p.inWarn = false
	}
	if p.def == "" {
		if m := reDef.FindStringSubmatch(l); m != nil {
			p.def = m[1]
		}
	}
	if p.buildkitLine(n, l) {
		return
	}
	switch {
	case reStep.MatchString(l):
		m := reStep.FindStringSubmatch(l)
		id, _ := strconv.Atoi(m[1])
		s := p.get(id, n)
		s.name, s.outcome = fmt.Sprintf("[%s/%s] %s", m[1], m[2], m[3]), "done"
		p.legacy = s
	case p.legacy != nil && strings.TrimSpace(l) == "---> Using cache":
		p.legacy.outcome = "cached"
	case p.legacy != nil && reLegacy.MatchString(l):
		p.legacy.outcome, p.legacy.err = "error", l
		p.final, p.finalN, p.finalS = l, n, p.stream
	case strings.HasPrefix(l, "Successfully built ") || strings.HasPrefix(l, "Successfully tagged "):
		p.done = l
	case strings.HasPrefix(l, "ERROR: ") || reFinal.MatchString(l):
		p.final, p.finalN, p.finalS = l, n, p.stream
	case reLoc.MatchString(l) && p.file == "":
		m := reLoc.FindStringSubmatch(l)
		p.file = m[1]
	case reMark.MatchString(l) && p.file != "" && p.line == 0:
		p.line, _ = strconv.Atoi(reMark.FindStringSubmatch(l)[1])
	case strings.Contains(l, "warning found") || strings.Contains(l, "warnings found"):
		p.inWarn = true
	default:
		p.legacyOutput(n, l)
	}
}

// buildkitLine reads a BuildKit progress line (plain or tty display); it
// reports whether the line was one.
func (p *parser) buildkitLine(n int, l string) bool {
	switch {
	case reErr.MatchString(l):
		m := reErr.FindStringSubmatch(l)
		id, _ := strconv.Atoi(m[1])
		s := p.get(id, n)
		s.outcome, s.err = "error", m[2]
	case reStatus.MatchString(l):
		m := reStatus.FindStringSubmatch(l)
		id, _ := strconv.Atoi(m[1])
		s := p.get(id, n)
		switch {
		case m[2] == "CACHED":
			s.outcome = "cached"
		case strings.HasPrefix(m[2], "DONE") && s.outcome != "error":
			s.outcome = "done"
		}
	case reOut.MatchString(l):
		m := reOut.FindStringSubmatch(l)
		id, _ := strconv.Atoi(m[1])
		if named := p.byName[p.block]; named != nil && p.byID[id] == nil {
			p.byID[id] = named // the tty display's log block: its lines carry the step's number
		}
		s := p.get(id, n)
		s.out = append(s.out, m[2])
		if len(s.out) > maxOutput {
			s.out = s.out[1:]
		}
	case reVertex.MatchString(l):
		m := reVertex.FindStringSubmatch(l)
		id, _ := strconv.Atoi(m[1])
		s := p.get(id, n)
		if s.name == "" && strings.HasPrefix(m[2], "[") {
			s.name = m[2]
		} else if s.name == "" {
			s.name = m[2]
		}
		if strings.HasPrefix(m[2], "naming to ") || strings.HasPrefix(m[2], "writing image ") {
			p.done = m[2]
		}
	case reTTY.MatchString(l):
		p.ttyStep(n, reTTY.FindStringSubmatch(l))
	case reBlock.MatchString(l):
		p.block = reBlock.FindStringSubmatch(l)[1]
	default:
		return false
	}
	return true
}

// ttyStep records a step line of BuildKit's tty display
// ("=> CACHED [2/5] RUN …").
func (p *parser) ttyStep(n int, m []string) {
	s := p.byName[m[2]]
	if s == nil {
		s = &step{id: -1, stream: p.stream, name: m[2], from: n}
		p.byName[m[2]] = s
		p.steps = append(p.steps, s)
	}
	s.to = n
	switch m[1] {
	case "CACHED ":
		s.outcome = "cached"
	case "ERROR ":
		s.outcome = "error"
	default:
		if s.outcome == "" || s.outcome == "running" {
			s.outcome = "done"
		}
	}
}

// legacyOutput keeps a line of the legacy builder's output under its
// current step.
func (p *parser) legacyOutput(n int, l string) {
	if p.legacy != nil && p.legacy.outcome != "cached" && !strings.HasPrefix(l, " ---> ") && strings.TrimSpace(l) != "" &&
		!strings.HasPrefix(l, "Removing intermediate container ") {
		s := p.legacy
		s.out = append(s.out, l)
		if len(s.out) > maxOutput {
			s.out = s.out[1:]
		}
		s.to = n
	}
}

func (p *parser) finish(exit int) *evidence.Graph {
	g := p.g
	counts := map[string]int{}
	kept := 0
	var failed *step
	for _, s := range p.steps {
		if s.outcome == "error" && failed == nil {
			failed = s
		}
		internal := s.name == "" || strings.HasPrefix(s.name, "[internal]") || strings.HasPrefix(s.name, "[auth]")
		if internal && s.outcome != "error" {
			continue
		}
		counts[s.outcome]++
		if kept >= maxSteps {
			continue
		}
		kept++
		g.Add(evidence.Item{Kind: evidence.KindRegion, Tool: "docker build", Name: s.name + " — " + s.outcome, Why: "step",
			Span: evidence.Span{Stream: s.stream, From: s.from, To: s.to}})
	}
	if kept < len(p.steps) && len(p.steps) > maxSteps {
		g.Lose("item-cap", "%d steps past the cap of %d", len(p.steps)-maxSteps, maxSteps)
	}
	if failed != nil {
		if failed.err == "" {
			failed.err = strings.TrimPrefix(p.final, "ERROR: ")
		}
		msg := failed.name + ": " + failed.err
		if len(failed.out) > 0 {
			msg += " — last output: " + strings.Join(failed.out, " | ")
		}
		// The file is named only when the output names it: a legacy
		// builder never does, and the build may have read `-f other`.
		file := p.file
		if file == "" {
			file = p.def
		}
		g.Add(evidence.Item{Kind: evidence.KindDiagnostic, Tool: "docker build", File: file, Line: p.line,
			Severity: evidence.SeverityError, Message: msg,
			Span: evidence.Span{Stream: failed.stream, From: failed.from, To: failed.to}})
	}
	text := ""
	switch {
	case p.final != "":
		text = "build failed: " + strings.TrimPrefix(p.final, "ERROR: ")
	case exit != 0:
		text = fmt.Sprintf("build failed (exit %d; no error line in the output)", exit)
	case p.done != "":
		text = "build succeeded: " + p.done
	default:
		text = "build succeeded"
	}
	var span evidence.Span
	if p.finalN > 0 {
		span = evidence.Span{Stream: p.finalS, From: p.finalN, To: p.finalN}
	}
	g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "docker build", Name: "result", Text: text, Span: span})
	if len(counts) > 0 {
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "docker build", Name: "steps", Counts: counts})
	}
	switch {
	case failed != nil || p.final != "" || exit != 0:
		g.Verdict = "fail"
	default:
		g.Verdict = "pass"
	}
	return g
}

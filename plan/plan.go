// Package plan decides how an evidence graph is shown right now — the delivery
// plan: outcome, mode, token budget and the closed reason codes behind each
// choice — and renders the digest under that plan.
//
// Same evidence + same contract + same plan ⇒ the same digest bytes. The
// renderer therefore reads only its inputs: never the clock, the environment,
// absolute paths, or map order. Safety limits are never adaptive: a reflex or
// pressure can change how much is shown, never whether a REQUIRED item is.
package plan

import (
	"github.com/ctxhq/ctx/internal/blake3"
	"github.com/ctxhq/ctx/internal/jsonenc"
	"github.com/ctxhq/ctx/internal/runstatus"

	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
)

// Epoch is the policy epoch: the reviewed version of the planning rules and
// default contracts. Changing what a digest shows for the same evidence bumps it.
const Epoch = "2026.11-1"

// Modes.
const (
	ModeWhole   = "whole"          // small output shown whole
	ModeExcerpt = "excerpt"        // generic text: head, tail, error-looking lines
	ModeSummary = "pass-summary"   // success: counts and elastic detail
	ModeCensus  = "failure-census" // one line per REQUIRED item, detail as budget allows
	ModeFinding = "census"         // the same for a successful run with REQUIRED findings (anomalies, hits)
	ModeDense   = "dense"          // REQUIRED items grouped by file or class
	ModeFlood   = "flood"          // complete REQUIRED list in a census blob
)

// Pressure levels.
const (
	PressureLow    = "low"
	PressureNormal = "normal"
	PressureHigh   = "high"
)

// Small output thresholds: below both, the output is shown whole.
const (
	SmallLines = 25
	SmallBytes = 2048
)

// maxBudget bounds any digest, whatever reflexes ask for.
const maxBudget = 12000

// Inputs are the situation a plan is made for.
type Inputs struct {
	Exit     int
	Status   runstatus.Status // the run's status (exited, timeout, …)
	Budget   int              // tokens asked for with --budget; 0 uses the contract
	Pressure string           // low | normal | high ("" is normal)
	Level    int              // reflex level: equivalent reruns in this session so far
	Streams  []StreamInfo
}

// StreamInfo is the size of one captured stream.
type StreamInfo struct {
	Name    string
	Size    int64
	Lines   int64
	Dropped int64 // bytes not stored: dropped at the cap, or Lost
	Lost    int64 // of Dropped, bytes the disk could not hold (a full disk during the capture)
	Binary  bool
}

// Plan is the resolved decision. Its id is a hash of its fields.
type Plan struct {
	ID       string   `json:"id"`
	Profile  string   `json:"profile"` // "pytest/1"
	Contract string   `json:"contract"`
	Outcome  string   `json:"outcome"` // pass | fail | error
	Mode     string   `json:"mode"`
	Budget   int      `json:"budget"` // tokens
	Pressure string   `json:"pressure"`
	Level    int      `json:"level"`
	Epoch    string   `json:"epoch"`
	Reasons  []Reason `json:"reasons"`
}

// AppendJSON appends the plan as json.Marshal writes it, by hand: every run
// encodes its plan twice (its id, its receipt), and encoding/json would build
// the encoder by reflection each time ctx starts. receipts.TestMarshalIsEncodingJSON
// holds the two equal.
func (p *Plan) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonenc.String(b, p.ID)
	for _, f := range [...]struct{ key, v string }{{`,"profile":`, p.Profile}, {`,"contract":`, p.Contract}, {`,"outcome":`, p.Outcome}, {`,"mode":`, p.Mode}} {
		b = jsonenc.String(append(b, f.key...), f.v)
	}
	b = append(b, `,"budget":`...)
	b = jsonenc.Int(b, p.Budget)
	b = append(b, `,"pressure":`...)
	b = jsonenc.String(b, p.Pressure)
	b = append(b, `,"level":`...)
	b = jsonenc.Int(b, p.Level)
	b = append(b, `,"epoch":`...)
	b = jsonenc.String(b, p.Epoch)
	b = append(b, `,"reasons":`...)
	b = jsonenc.Strings(b, p.Reasons)
	return append(b, '}')
}

func (p *Plan) computeID() {
	q := *p
	q.ID = ""
	sum := blake3.Sum256(q.AppendJSON(nil))
	p.ID = fmt.Sprintf("%x", sum[:6])
}

// ParsePressure accepts low, normal, high, or a fraction of the context window
// in use (0.85), and returns the level.
func ParsePressure(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "normal", "medium":
		return PressureNormal, nil
	case "low":
		return PressureLow, nil
	case "high":
		return PressureHigh, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || f < 0 || math.IsNaN(f) {
		return "", fmt.Errorf("pressure %q: want low, normal, high, or the fraction of the context in use (0.85)", s)
	}
	if strings.HasSuffix(s, "%") || f > 1 {
		f /= 100
	}
	switch {
	case f >= 0.75:
		return PressureHigh, nil
	case f <= 0.30:
		return PressureLow, nil
	}
	return PressureNormal, nil
}

// Outcome derives the run's outcome from its exit status and the tool's own
// verdict. A failure on either side wins; the conflict is a reason the digest
// states.
func Outcome(g *evidence.Graph, in Inputs) (string, []Reason) {
	var rs []Reason
	switch in.Status {
	case runstatus.Timeout:
		rs = append(rs, ReasonTimeout)
	case runstatus.Interrupted:
		rs = append(rs, ReasonInterrupted)
	case runstatus.Signaled:
		rs = append(rs, ReasonSignaled)
	case runstatus.Recovered:
		rs = append(rs, ReasonRecovered)
	}
	exitOK := in.Exit == 0
	expected := false
	for _, c := range g.ExitOK {
		if in.Exit == c && in.Exit != 0 {
			exitOK, expected = true, true
		}
	}
	if in.Status == runstatus.Recovered {
		exitOK = false
	}
	switch {
	case g.Verdict == "error":
		rs = append(rs, ReasonOutcomeError)
		if exitOK && in.Status != runstatus.Recovered {
			rs = append(rs, ReasonExitConflict)
		}
		return "error", rs
	case g.Verdict == "fail":
		if exitOK {
			rs = append(rs, ReasonExitConflict)
		}
		return "fail", append(rs, ReasonOutcomeFail)
	case !exitOK:
		if g.Verdict == "pass" {
			rs = append(rs, ReasonExitConflict)
		}
		return "fail", append(rs, ReasonOutcomeFail)
	}
	if expected {
		rs = append(rs, ReasonExitExpected)
	}
	return "pass", append(rs, ReasonOutcomePass)
}

// Decide makes the plan for a graph under a contract.
func Decide(g *evidence.Graph, c *contract.Contract, in Inputs) Plan {
	p := Plan{
		Profile:  fmt.Sprintf("%s/%d", g.Profile, g.Version),
		Contract: c.Hash(),
		Pressure: in.Pressure,
		Level:    in.Level,
		Epoch:    Epoch,
	}
	if p.Pressure == "" {
		p.Pressure = PressureNormal
	}
	var rs []Reason
	p.Outcome, rs = Outcome(g, in)
	for _, l := range g.Losses {
		if l.Code == "fallback" {
			rs = append(rs, ReasonFallback)
			break
		}
	}
	if g.Profile == "text" && !hasFallback(rs) {
		rs = append(rs, ReasonNotRecognised)
	}
	if g.Verdict == "" && g.Profile != "text" && isRunner(g) {
		rs = append(rs, ReasonNoVerdict)
	}
	var total, lines int64
	binary := false
	for _, s := range in.Streams {
		total += s.Size
		lines += s.Lines
		if s.Dropped > s.Lost && !hasReason(rs, ReasonCapped) {
			rs = append(rs, ReasonCapped)
		}
		if s.Lost > 0 && !hasReason(rs, ReasonDiskFull) {
			rs = append(rs, ReasonDiskFull)
		}
		if s.Binary && s.Size > 0 {
			binary = true
		}
	}

	// Budget.
	budget := c.Ceiling
	if in.Budget > 0 {
		budget = in.Budget
		rs = append(rs, ReasonBudgetRequested)
	} else {
		rs = append(rs, ReasonBudgetContract)
	}
	switch p.Pressure {
	case PressureHigh:
		budget /= 2
		rs = append(rs, ReasonPressureHigh)
	case PressureLow:
		budget += budget / 2
		rs = append(rs, ReasonPressureLow)
	}
	if in.Level > 0 {
		budget <<= min(in.Level, 3)
		rs = append(rs, ReasonReflexRerun)
	}
	p.Budget = min(max(budget, c.Floor), maxBudget)

	// Mode.
	switch {
	case total == 0:
		p.Mode = ModeWhole
		rs = append(rs, ReasonNoOutput)
	case binary:
		p.Mode = ModeExcerpt
		rs = append(rs, ReasonBinaryOutput)
	case lines <= SmallLines && total <= SmallBytes:
		p.Mode = ModeWhole
		rs = append(rs, ReasonSmallOutput)
	case g.Profile == "text":
		p.Mode = ModeExcerpt
	case countRequired(g, c) == 0:
		// Nothing REQUIRED beyond the tool's summary: counts and elastic detail.
		p.Mode = ModeSummary
	default:
		p.Mode = requiredMode(g, c, p.Budget, &rs)
		if p.Mode == ModeCensus && p.Outcome == "pass" {
			p.Mode = ModeFinding
		}
	}
	p.Reasons = rs
	p.computeID()
	return p
}

// requiredMode picks census, dense or flood by what the REQUIRED items cost.
func requiredMode(g *evidence.Graph, c *contract.Contract, budget int, rs *[]Reason) string {
	var census, dense int
	groups := map[string]bool{}
	for i := range g.Items {
		it := &g.Items[i]
		if c.ClassOf(it) != Required || it.Kind == evidence.KindSummary {
			continue
		}
		census += tokens(oneLine(it)) + 1
		if k := groupKey(it); k != "" {
			if !groups[k] {
				groups[k] = true
				dense += tokens(k) + 8
			}
			dense += tokens(shortName(it)) + 1
		} else {
			dense += tokens(oneLine(it)) + 1
		}
	}
	const overhead = 60 // header, summary, coverage and next lines
	switch {
	case census+overhead <= budget:
		*rs = append(*rs, ReasonRequiredFit)
		return ModeCensus
	case dense+overhead <= budget:
		*rs = append(*rs, ReasonRequiredDense)
		return ModeDense
	}
	*rs = append(*rs, ReasonRequiredFlood)
	return ModeFlood
}

// Required is the contract class name, re-exported for readability here.
const Required = contract.Required

// countRequired counts the REQUIRED items other than the tool's summaries.
func countRequired(g *evidence.Graph, c *contract.Contract) int {
	n := 0
	for i := range g.Items {
		it := &g.Items[i]
		if c.ClassOf(it) == Required && it.Kind != evidence.KindSummary {
			n++
		}
	}
	return n
}

// isRunner reports a test runner's graph: its profile says it is one
// (Profile.Runner), or it holds tests.
func isRunner(g *evidence.Graph) bool {
	if g.Runner {
		return true
	}
	for i := range g.Items {
		if g.Items[i].Kind == evidence.KindTest {
			return true
		}
	}
	return false
}

func hasFallback(rs []Reason) bool { return hasReason(rs, ReasonFallback) }

func hasReason(rs []Reason, r Reason) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// tokens estimates the tokens of a text: about four bytes each. The bench
// package measures real tokens; the planner only needs a cheap, stable guess.
func tokens(s string) int { return (len(s) + 3) / 4 }

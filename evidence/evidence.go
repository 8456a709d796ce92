package evidence

import (
	"context"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctxhq/ctx/internal/blake3"
)

// Kind names an item type. The set is closed: a new kind is added here, given a
// rendering in package plan and a class in the default contracts.
type Kind string

// The item kinds.
const (
	KindTest       Kind = "test"       // a test identity with its outcome
	KindDiagnostic Kind = "diagnostic" // a compiler, vet or linter finding at a location
	KindTemplate   Kind = "template"   // a log template with its count and first occurrence
	KindAnomaly    Kind = "anomaly"    // a line worth seeing verbatim: error-level, rare, error-looking
	KindSummary    Kind = "summary"    // a tool's own summary: counts, totals, final status line
	KindRegion     Kind = "region"     // a contiguous part of a stream: head, tail, a traceback, captured output
	KindRecord     Kind = "record"     // one structured record (a JSON value, a minority shape)
	KindShape      Kind = "shape"      // the shape of many records: keys, types, counts
	KindHit        Kind = "hit"        // search hits in one file
	KindFile       Kind = "file"       // a file touched by a diff or listed by a status
	KindCommit     Kind = "commit"     // one commit of a log
	KindBinary     Kind = "binary"     // a stream that is not text
)

// Kinds lists every kind in a fixed order.
var Kinds = []Kind{KindTest, KindDiagnostic, KindTemplate, KindAnomaly, KindSummary,
	KindRegion, KindRecord, KindShape, KindHit, KindFile, KindCommit, KindBinary}

// Outcome is a test's result.
type Outcome string

// Test outcomes. XFail and XPass are pytest's expected-failure results; a strict
// XPass is reported by pytest as a failure and is recorded as OutcomeFail.
const (
	OutcomePass  Outcome = "pass"
	OutcomeFail  Outcome = "fail"
	OutcomeSkip  Outcome = "skip"
	OutcomeError Outcome = "error" // the test could not run: fixture, collection, build
	OutcomeXFail Outcome = "xfail"
	OutcomeXPass Outcome = "xpass"
)

// Failed reports whether the outcome counts as a failure of the run.
func (o Outcome) Failed() bool { return o == OutcomeFail || o == OutcomeError }

// Severity is a diagnostic's or anomaly's level.
type Severity string

// Severities, most severe first.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
	SeverityNote    Severity = "note"
)

// Stream names.
const (
	Stdout = "stdout"
	Stderr = "stderr"
)

// Span is a line range of one stream of a run. Lines are 1-based and inclusive;
// a zero span points nowhere. Base is the handle of the run ("run:ba3d1020ee8f"),
// filled in by Graph.Seal so profiles need not know it.
type Span struct {
	Base   string
	Stream string
	From   int
	To     int
}

// IsZero reports whether the span points nowhere.
func (s Span) IsZero() bool { return s.Stream == "" || s.From <= 0 }

// Lines is the number of lines the span covers.
func (s Span) Lines() int {
	if s.IsZero() {
		return 0
	}
	return s.To - s.From + 1
}

// Handle is the span as a handle: "run:ba3d1020ee8f#stdout:L12-25", or the
// stream handle when the span is a single line given as a range of one.
func (s Span) Handle() string {
	if s.IsZero() {
		return ""
	}
	if s.From == s.To {
		return fmt.Sprintf("%s#%s:L%d", s.Base, s.Stream, s.From)
	}
	return fmt.Sprintf("%s#%s:L%d-%d", s.Base, s.Stream, s.From, s.To)
}

// Relation links an item to another item of the same graph.
type Relation struct {
	Type string `json:"type"` // "located-at", "part-of", "caused-by"
	To   string `json:"to"`   // the other item's id
}

// Item is one typed fact. Fields that do not apply to a kind stay zero and are
// omitted from JSON. Strings hold text as the tool printed it, with terminal
// colour removed; they are not truncated here (the renderer bounds what it shows).
type Item struct {
	Kind      Kind              `json:"kind"`
	ID        string            `json:"id"`
	Tool      string            `json:"tool,omitempty"`
	Package   string            `json:"package,omitempty"` // go package, cargo crate, jest file, pytest module
	Name      string            `json:"name,omitempty"`    // the identity as the tool names it (pytest node id, TestX/sub)
	Outcome   Outcome           `json:"outcome,omitempty"`
	Class     string            `json:"class,omitempty"` // exception class or failure kind: AssertionError, panic, build, race, timeout
	File      string            `json:"file,omitempty"`
	Line      int               `json:"line,omitempty"`
	Col       int               `json:"col,omitempty"`
	Severity  Severity          `json:"severity,omitempty"`
	Code      string            `json:"code,omitempty"`
	Message   string            `json:"message,omitempty"`
	Template  string            `json:"template,omitempty"`
	Count     int               `json:"count,omitempty"`
	FirstLine int               `json:"first_line,omitempty"`
	Text      string            `json:"text,omitempty"`
	Why       string            `json:"why,omitempty"`
	Counts    map[string]int    `json:"counts,omitempty"`
	Attrs     map[string]string `json:"attrs,omitempty"` // family-specific extras: hunks, author, pointer…
	Span      Span              `json:"span,omitzero"`
	Detail    Span              `json:"detail,omitzero"` // the longer block behind the item: a traceback, a hunk
	Rel       []Relation        `json:"rel,omitempty"`
}

// Key is the identity of the item within its graph: the fields that make two
// items the same fact. The id is a hash of the key, so it survives reordering,
// other items appearing, and reruns whose output only differs elsewhere.
func (it *Item) Key() string {
	var b strings.Builder
	b.WriteString(string(it.Kind))
	add := func(s string) { b.WriteByte(0); b.WriteString(s) }
	switch it.Kind {
	case KindTest:
		add(it.Package)
		add(it.Name)
	case KindDiagnostic:
		add(it.Tool)
		add(it.File)
		add(strconv.Itoa(it.Line))
		add(strconv.Itoa(it.Col))
		add(it.Code)
		add(it.Message)
	case KindTemplate:
		add(it.Template)
	case KindAnomaly:
		add(it.Span.Stream)
		add(strconv.Itoa(it.Line))
		add(it.Text)
	case KindSummary:
		add(it.Tool)
		add(it.Package)
		add(it.Name)
	case KindFile, KindHit:
		add(it.File)
		add(it.Name)
	case KindCommit:
		add(it.Name)
	default:
		add(it.Name)
		add(it.Why)
		add(it.Span.Stream)
		add(strconv.Itoa(it.Span.From))
		add(strconv.Itoa(it.Span.To))
	}
	return b.String()
}

// Loss is a labelled loss of precision or completeness: a parser that fell back
// to a more general profile, a stream cut at its byte cap, a template cap reached.
type Loss struct {
	Code   string `json:"code"`   // from the closed list in docs/reasons.md
	Detail string `json:"detail"` // one line for the reader
}

// Graph is the evidence one profile extracted from one run.
type Graph struct {
	Profile string `json:"profile"` // "pytest"
	Version int    `json:"version"` // the profile's version: a parser change that alters items bumps it
	Tool    string `json:"tool,omitempty"`
	// Verdict is what the tool's own output says about the run: "pass", "fail",
	// "error" (could not run: build or collection failure), or "" when it says nothing.
	Verdict string `json:"verdict,omitempty"`
	// ExitOK lists non-zero exit statuses the tool uses for a run that did what
	// was asked (grep's 1: no match), so they are not read as failures.
	ExitOK []int  `json:"exit_ok,omitempty"`
	Items  []Item `json:"items"`
	Losses []Loss `json:"losses,omitempty"`
	// Runner and Noise are the producing profile's (Profile.Stamp): whether
	// it is a test runner, and its cleanup of failure blocks (nil: none).
	Runner bool      `json:"-"`
	Noise  NoiseFunc `json:"-"`
}

// Add appends an item. Its id is assigned by Seal.
func (g *Graph) Add(it Item) *Item {
	g.Items = append(g.Items, it)
	return &g.Items[len(g.Items)-1]
}

// Lose records a labelled loss.
func (g *Graph) Lose(code, format string, args ...any) {
	g.Losses = append(g.Losses, Loss{Code: code, Detail: fmt.Sprintf(format, args...)})
}

// Seal assigns stable ids and fills every span's base handle. Items with the
// same key get ids suffixed "-2", "-3"… in order of appearance. A relation's To
// may hold the other item's Key(); Seal rewrites it to that item's id (the
// first item with the key). Seal is idempotent.
func (g *Graph) Seal(base string) {
	seen := make(map[string]int, len(g.Items))
	keyToID := make(map[string]string, len(g.Items))
	for i := range g.Items {
		it := &g.Items[i]
		k := it.Key()
		seen[k]++
		id := shortHash(k)
		if n := seen[k]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		it.ID = id
		if _, ok := keyToID[k]; !ok {
			keyToID[k] = id
		}
		if !it.Span.IsZero() {
			it.Span.Base = base
		}
		if !it.Detail.IsZero() {
			it.Detail.Base = base
		}
	}
	for i := range g.Items {
		for j := range g.Items[i].Rel {
			r := &g.Items[i].Rel[j]
			if id, ok := keyToID[r.To]; ok {
				r.To = id
			}
		}
	}
}

// Count returns how many items match the predicate.
func (g *Graph) Count(match func(*Item) bool) int {
	n := 0
	for i := range g.Items {
		if match(&g.Items[i]) {
			n++
		}
	}
	return n
}

// Tests returns the test items with the given outcomes (all tests when none given).
func (g *Graph) Tests(outcomes ...Outcome) []*Item {
	var out []*Item
	for i := range g.Items {
		it := &g.Items[i]
		if it.Kind != KindTest {
			continue
		}
		if len(outcomes) == 0 {
			out = append(out, it)
			continue
		}
		for _, o := range outcomes {
			if it.Outcome == o {
				out = append(out, it)
				break
			}
		}
	}
	return out
}

// SortedKeys returns a map's keys in order; renderers use it so map order never
// reaches output.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func shortHash(s string) string {
	sum := blake3.Sum256([]byte(s))
	return hex.EncodeToString(sum[:5])
}

// Profile describes one command family's parser. Profiles are registered in
// package profiles, which detects the family of a run (argv first, then content)
// and falls back to a more general profile when Parse fails.
type Profile struct {
	Name    string // "pytest", "gotest", "text"
	Version int    // bumped whenever a parser change alters the items it extracts
	// Argv reports whether a command line belongs to the family. The registry
	// normalises argv first: argv[0] reduced to its base name, wrappers such as
	// `python -m`, `npx`, `env A=B`, `time` removed.
	Argv func(argv []string) bool
	// Content reports whether the captured output looks like the family's,
	// judging from the stream heads. It must be cheap and must not open streams.
	Content func(src *Source) bool
	// Parse extracts the graph. An error means the output cannot be parsed
	// safely; the registry then falls back to a more general profile and labels
	// the loss. Parse must be deterministic and must bound its memory.
	Parse func(ctx context.Context, src *Source) (*Graph, error)
	// Runner marks a test runner: a run of one whose output gives no verdict
	// was cut short, and the digest says so instead of claiming success.
	Runner bool
	// Noise, when set, is the family's own cleanup of a failure block's lines
	// before they are shown (go test's === RUN lines and -json events, pytest's
	// test banners); see Graph.Noise.
	Noise NoiseFunc
}

// NoiseFunc cleans one line of the detail block of item it: it returns the
// line to show in its place, or keep false to leave the line out. It must be
// a pure function of its arguments.
type NoiseFunc func(line string, it *Item) (out string, keep bool)

// Stamp gives a graph p produced what the renderer needs to know of its
// profile: the name and version when the parser left them empty, whether it
// is a test runner and its noise cleanup.
func (p Profile) Stamp(g *Graph) {
	if g.Profile == "" {
		g.Profile = p.Name
	}
	if g.Version == 0 {
		g.Version = p.Version
	}
	g.Runner = p.Runner
	g.Noise = p.Noise
}

// SplitLocation splits a source location as tools print it, "FILE:LINE" or
// "FILE:LINE:COL" ("src/lib.rs:40:9"), surrounding space ignored. ok is false
// when it does not end in a line number after a non-empty file.
func SplitLocation(loc string) (file string, line, col int, ok bool) {
	loc = strings.TrimSpace(loc)
	i := strings.LastIndexByte(loc, ':')
	if i <= 0 {
		return "", 0, 0, false
	}
	last, err := strconv.Atoi(loc[i+1:])
	if err != nil {
		return "", 0, 0, false
	}
	head := loc[:i]
	if j := strings.LastIndexByte(head, ':'); j > 0 {
		if l, err := strconv.Atoi(head[j+1:]); err == nil {
			return head[:j], l, last, true
		}
	}
	return head, last, 0, true
}

// Clip bounds the text a profile stores in an item's field to n bytes, cut on
// a rune boundary and marked with "…"; the whole text stays reachable through
// the item's span.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

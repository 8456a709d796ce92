// Package contract holds evidence contracts: per profile and outcome, which
// item classes are REQUIRED (never dropped), ELASTIC (shown as the budget
// allows) and RETRIEVABLE (may stay out of context with a valid handle), the
// severity of losing each, and the digest's token floor and ceiling. Defaults
// are embedded TOML; a project overrides them in .ctx/contracts/.
//
// A contract says what must survive; it never decides how things are shown
// (package plan does) and never reads rendered text.
package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/pelletier/go-toml/v2"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/blake3"
	"github.com/ctxhq/ctx/internal/jsonenc"
	"github.com/ctxhq/ctx/internal/tomlerr"
)

// The embedded defaults (defaults/*.toml) are compiled into Go values in
// defaults_gen.go, so a run decodes no TOML unless the project has its own
// contract files; TestDefaultsGenerated holds the two equal.
//go:generate go test -run TestDefaultsGenerated -update

// intp is a pointer to n, for defaults_gen.go.
func intp(n int) *int { return &n }

// Class is how an item must be treated.
type Class string

// Classes, strongest first.
const (
	Required    Class = "REQUIRED"
	Elastic     Class = "ELASTIC"
	Retrievable Class = "RETRIEVABLE"
)

// Outcomes a contract distinguishes.
var Outcomes = []string{"pass", "fail", "error"}

// Contract is the effective contract for one profile and outcome.
type Contract struct {
	Profile     string            `json:"profile"`
	Outcome     string            `json:"outcome"`
	Required    []string          `json:"required"`
	Elastic     []string          `json:"elastic"`
	Retrievable []string          `json:"retrievable"`
	Loss        map[string]string `json:"loss"`
	Floor       int               `json:"floor"`
	Ceiling     int               `json:"ceiling"`
	// Sources says where each part came from: "embedded defaults/default.toml
	// [default]", ".ctx/contracts/pytest.toml [outcome.fail]"…
	Sources map[string]string `json:"sources"`
}

// part is one TOML table's contribution.
type part struct {
	Required    *[]string `toml:"required"`
	Elastic     *[]string `toml:"elastic"`
	Retrievable *[]string `toml:"retrievable"`
	Floor       *int      `toml:"floor"`
	Ceiling     *int      `toml:"ceiling"`
}

type file struct {
	Default part              `toml:"default"`
	Outcome map[string]part   `toml:"outcome"`
	Loss    map[string]string `toml:"loss"`
}

// Load returns the effective contract for a profile and outcome: the embedded
// defaults, the embedded profile file, then the project's overrides in
// projectDir (usually .ctx/contracts; "" for none), later parts replacing
// earlier ones field by field.
func Load(profile, outcome, projectDir string) (*Contract, error) {
	c := &Contract{Profile: profile, Outcome: outcome, Loss: map[string]string{}, Sources: map[string]string{}}
	type layer struct {
		name string
		f    file
	}
	var layers []layer
	for _, n := range []string{"default", profile} {
		if f, ok := embeddedFile(n); ok {
			layers = append(layers, layer{"embedded defaults/" + n + ".toml", f})
		}
	}
	if projectDir != "" {
		for _, n := range []string{"default", profile} {
			p := filepath.Join(projectDir, n+".toml")
			f, err := readFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			layers = append(layers, layer{p, f})
		}
	}
	for _, l := range layers {
		if err := c.layer(l.f, l.name, outcome); err != nil {
			return nil, err
		}
	}
	for _, sel := range c.selectors() {
		if err := checkSelector(sel); err != nil {
			return nil, &Error{Path: c.Sources["required"], Err: err}
		}
	}
	if c.Floor > c.Ceiling {
		return nil, &Error{Path: c.Sources["ceiling"], Err: fmt.Errorf("floor %d is above ceiling %d", c.Floor, c.Ceiling)}
	}
	return c, nil
}

// maxFileSize bounds a project contract file: a real one is a few hundred
// bytes, and the file is read on every run in the workspace.
const maxFileSize = 1 << 20

// readFile decodes a project's contract file; a missing one is
// fs.ErrNotExist, unwrapped. Anything but a regular file of at most
// maxFileSize bytes is refused before it is read: a FIFO would block every
// run in the workspace (opening it without O_NONBLOCK waits for a writer)
// and a link to /dev/zero would read until memory runs out.
func readFile(p string) (file, error) {
	var f file
	b, err := readRegular(p)
	if errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	if err != nil {
		return f, err
	}
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, &Error{Path: p, Err: tomlerr.Describe(err, "a contract has [default] and [outcome.NAME] tables of required, elastic, retrievable, floor and ceiling, and a [loss] table")}
	}
	return f, nil
}

// readRegular reads p if it is a regular file of at most maxFileSize bytes.
func readRegular(p string) ([]byte, error) {
	fh, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read contract %s: %w", p, err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("read contract %s: %w", p, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Path: p, Err: fmt.Errorf("not a regular file (%s)", kind(fi.Mode()))}
	}
	b, err := io.ReadAll(io.LimitReader(fh, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read contract %s: %w", p, err)
	}
	if len(b) > maxFileSize {
		return nil, &Error{Path: p, Err: fmt.Errorf("larger than %d bytes", maxFileSize)}
	}
	return b, nil
}

// check refuses what a file's decoding cannot: a table for an outcome no
// run has (a typo such as [outcome.failed] would be ignored, so the override
// meant for failing runs would silently never apply), a negative floor or
// ceiling, and a [loss] selector of an unknown kind.
func (f file) check() error {
	for _, o := range evidence.SortedKeys(f.Outcome) {
		if !slices.Contains(Outcomes, o) {
			return fmt.Errorf("unknown outcome [outcome.%s]: want pass, fail or error", o)
		}
	}
	parts := map[string]part{"[default]": f.Default}
	for o, p := range f.Outcome {
		parts["[outcome."+o+"]"] = p
	}
	for _, t := range evidence.SortedKeys(parts) {
		p := parts[t]
		if p.Floor != nil && *p.Floor < 0 || p.Ceiling != nil && *p.Ceiling < 0 {
			return fmt.Errorf("%s: floor and ceiling are token counts, 0 or more", t)
		}
	}
	for _, sel := range evidence.SortedKeys(f.Loss) {
		if err := checkSelector(sel); err != nil {
			return fmt.Errorf("[loss]: %w", err)
		}
	}
	return nil
}

// kind names a file mode that is not a regular file's.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// layer applies one file's parts for outcome, named name in Sources.
func (c *Contract) layer(f file, name, outcome string) error {
	if err := f.check(); err != nil {
		return &Error{Path: name, Err: err}
	}
	c.apply(f.Default, name+" [default]")
	if o, ok := f.Outcome[outcome]; ok {
		c.apply(o, name+" [outcome."+outcome+"]")
	}
	for sel, sev := range f.Loss {
		switch sev {
		case "critical", "major", "minor":
		default:
			return &Error{Path: name, Err: fmt.Errorf("loss severity %q for %q: want critical, major or minor", sev, sel)}
		}
		c.Loss[sel] = sev
		c.Sources["loss."+sel] = name + " [loss]"
	}
	return nil
}

// hashJSON is json.Marshal of the contract with Sources nil, by hand
// (TestHashJSONIsEncodingJSON): a run hashes its contract every time.
func (c *Contract) hashJSON() []byte {
	b := append(make([]byte, 0, 1024), `{"profile":`...)
	b = jsonenc.String(b, c.Profile)
	b = append(b, `,"outcome":`...)
	b = jsonenc.String(b, c.Outcome)
	b = append(b, `,"required":`...)
	b = jsonenc.Strings(b, c.Required)
	b = append(b, `,"elastic":`...)
	b = jsonenc.Strings(b, c.Elastic)
	b = append(b, `,"retrievable":`...)
	b = jsonenc.Strings(b, c.Retrievable)
	b = append(b, `,"loss":`...)
	b = jsonenc.StringMap(b, c.Loss)
	b = append(b, `,"floor":`...)
	b = jsonenc.Int(b, c.Floor)
	b = append(b, `,"ceiling":`...)
	b = jsonenc.Int(b, c.Ceiling)
	return append(b, `,"sources":null}`...)
}

// Error is a contract file that cannot be used.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("contract %s: %v", e.Path, e.Err) }

// FixHint says how to fix a project contract file that err (from Load)
// blames, or "" when err blames none: every digest in the workspace fails
// until the file is fixed, so the hint names it.
func FixHint(err error) string {
	var ce *Error
	if !errors.As(err, &ce) || strings.HasPrefix(ce.Path, "embedded ") {
		return ""
	}
	path, _, _ := strings.Cut(ce.Path, " [")
	return fmt.Sprintf("fix or remove the contract file %s (`ctx contract show PROFILE` prints the contract in effect)", path)
}
func (e *Error) Unwrap() error { return e.Err }

func (c *Contract) apply(p part, src string) {
	if p.Required != nil {
		c.Required, c.Sources["required"] = *p.Required, src
	}
	if p.Elastic != nil {
		c.Elastic, c.Sources["elastic"] = *p.Elastic, src
	}
	if p.Retrievable != nil {
		c.Retrievable, c.Sources["retrievable"] = *p.Retrievable, src
	}
	if p.Floor != nil {
		c.Floor, c.Sources["floor"] = *p.Floor, src
	}
	if p.Ceiling != nil {
		c.Ceiling, c.Sources["ceiling"] = *p.Ceiling, src
	}
}

func (c *Contract) selectors() []string {
	var out []string
	out = append(out, c.Required...)
	out = append(out, c.Elastic...)
	return append(out, c.Retrievable...)
}

func checkSelector(sel string) error {
	kind, _, _ := strings.Cut(sel, ":")
	for _, k := range evidence.Kinds {
		if string(k) == kind {
			return nil
		}
	}
	return fmt.Errorf("selector %q: unknown kind %q", sel, kind)
}

// matches reports whether a selector matches an item, and how specifically
// (2 qualified, 1 bare, 0 not at all).
func matches(sel string, it *evidence.Item) int {
	kind, qual, qualified := strings.Cut(sel, ":")
	if kind != string(it.Kind) {
		return 0
	}
	if !qualified {
		return 1
	}
	if qual == string(it.Outcome) || qual == string(it.Severity) || qual == it.Why || qual == it.Name {
		return 2
	}
	return 0
}

// ClassOf classifies an item.
func (c *Contract) ClassOf(it *evidence.Item) Class {
	best, class := 0, Retrievable
	for _, l := range []struct {
		sels  []string
		class Class
	}{{c.Required, Required}, {c.Elastic, Elastic}, {c.Retrievable, Retrievable}} {
		for _, sel := range l.sels {
			if m := matches(sel, it); m > best {
				best, class = m, l.class
			}
		}
	}
	return class
}

// LossOf returns the severity of losing an item: the most specific loss
// selector that matches, else "minor".
func (c *Contract) LossOf(it *evidence.Item) string {
	best, sev := 0, "minor"
	for _, sel := range evidence.SortedKeys(c.Loss) {
		if m := matches(sel, it); m > best {
			best, sev = m, c.Loss[sel]
		}
	}
	return sev
}

// Hash identifies the effective contract (not where its parts came from), so a
// receipt can name exactly the contract its digest was rendered under.
func (c *Contract) Hash() string {
	sum := blake3.Sum256(c.hashJSON())
	return fmt.Sprintf("%x", sum[:6])
}

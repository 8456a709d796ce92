package secrets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"slices"
	"sort"
	"strings"
)

// Finding is one secret in a line: the rule that found it and the byte range
// of its value.
type Finding struct {
	Rule       string
	Start, End int
}

// genericRules name a secret less precisely than a provider's rule: when
// findings overlap, a provider's id wins.
var genericRules = map[string]int{"generic-api-key": 2, "secret-assignment": 1, "bearer-token": 1, "authorization-header": 1, "credentials-base64": 1}

// Find returns the secrets in one line (without its newline), in order and
// not overlapping. Multi-line key blocks are the Redactor's.
func Find(line []byte) []Finding {
	if !maybe(line) {
		return nil
	}
	s := rules()
	cands := s.candidates(line)
	if len(cands) == 0 {
		return nil
	}
	str := string(line)
	marks := markers(str)
	var found []Finding
	for _, i := range cands {
		r := s.rules[i]
		if r.assign > 0 && !r.assigned(line) {
			continue
		}
		for _, m := range r.regexp().FindAllStringSubmatchIndex(str, -1) {
			start, end := secretSpan(r, m)
			if start < 0 || end <= start {
				continue
			}
			secret, match := str[start:end], str[m[0]:m[1]]
			if inMarker(marks, start, end) || !r.accepts(str, m, secret) {
				continue
			}
			if r.entropy != 0 && entropy(secret) <= r.entropy {
				continue
			}
			if allowed(s.global, secret, match, str) || allowed(r.allow, secret, match, str) || digestLabel(str, start) {
				continue
			}
			found = append(found, Finding{Rule: r.id, Start: start, End: end})
		}
	}
	return merge(found)
}

func (r *rule) accepts(line string, m []int, secret string) bool {
	if r.assign > 0 {
		// A comma is no assignment in output: CSV columns, argument
		// lists (getenv("API_KEY", "fallback")).
		start, _ := secretSpan(r, m)
		if strings.HasSuffix(strings.TrimRight(line[m[0]:start], " \t'\"`="), ",") {
			return false
		}
	}
	if r.id == "secret-assignment" {
		// Ruby and C++ scopes (Operations::Password::Reset) name no value.
		if strings.Contains(line[m[3]:min(len(line), m[4]+1)], "::") {
			return false
		}
		sep := byte('=')
		if strings.Contains(strings.TrimLeft(line[m[3]:m[4]], `"' `+"\t"), ":") && !strings.Contains(line[m[3]:m[4]], "=") {
			sep = ':'
		}
		return assignment(line[m[2]:m[3]], secret, sep)
	}
	return r.check == nil || r.check(secret)
}

// secretSpan is the secret's range in a match: the rule's group, or the
// first non-empty group, or the whole match.
func secretSpan(r *rule, m []int) (int, int) {
	if r.group > 0 && 2*r.group+1 < len(m) {
		return m[2*r.group], m[2*r.group+1]
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return m[0], m[1]
}

// digestLabels introduce content hashes (go.sum's h1:, npm's integrity
// sha512-, OCI digests sha256:), which must survive.
var digestLabels = []string{"h1:", "sha1:", "sha256:", "sha384:", "sha512:", "sha1-", "sha256-", "sha384-", "sha512-", "blake3:", "md5:"}

func digestLabel(line string, start int) bool {
	for _, l := range digestLabels {
		if start >= len(l) && strings.EqualFold(line[start-len(l):start], l) {
			return true
		}
	}
	return false
}

func allowed(lists []*allowlist, secret, match, line string) bool {
	for _, a := range lists {
		if a.allows(secret, match, line) {
			return true
		}
	}
	return false
}

// merge joins overlapping findings into one, named by the most specific
// rule among them.
func merge(f []Finding) []Finding {
	if len(f) < 2 {
		return f
	}
	sort.SliceStable(f, func(i, j int) bool {
		if f[i].Start != f[j].Start {
			return f[i].Start < f[j].Start
		}
		return f[i].End > f[j].End
	})
	out := f[:1]
	for _, x := range f[1:] {
		last := &out[len(out)-1]
		if x.Start >= last.End {
			out = append(out, x)
			continue
		}
		last.End = max(last.End, x.End)
		if genericRules[x.Rule] < genericRules[last.Rule] || genericRules[x.Rule] == genericRules[last.Rule] && x.Rule < last.Rule {
			last.Rule = x.Rule
		}
	}
	return out
}

// markers are the ranges of redaction markers already in a line: redacting
// twice changes nothing.
func markers(s string) [][2]int {
	var out [][2]int
	for off := 0; ; {
		i := strings.Index(s[off:], "[REDACTED:")
		if i < 0 {
			return out
		}
		i += off
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return append(out, [2]int{i, len(s)})
		}
		out = append(out, [2]int{i, i + j + 1})
		off = i + j + 1
	}
}

func inMarker(marks [][2]int, start, end int) bool {
	for _, m := range marks {
		if start < m[1] && end > m[0] {
			return true
		}
	}
	return false
}

// Marker is the text that replaces a secret: the rule and the first four
// hex digits of the value's SHA-256.
func Marker(rule string, value []byte) string {
	h := sha256.Sum256(value)
	return "[REDACTED:" + rule + ":" + hex.EncodeToString(h[:2]) + "]"
}

// Introduces reports whether redacting a line can make lit occur in it
// where it did not: whether lit holds a marker's brackets or fits inside
// one ("REDACTED:", a rule's name, ':', four hex digits). When it cannot, a
// redacted line holds lit only if the line did, and a reader may look for
// lit in the raw text to find the lines worth redacting.
func Introduces(lit []byte) bool {
	if bytes.ContainsAny(lit, "[]") {
		return true
	}
	ids := []string{"private-key", "kubernetes-secret-data", "secret-argument"}
	for _, r := range rules().rules {
		ids = append(ids, r.id)
	}
	for _, id := range ids {
		if fitsIn("REDACTED:"+id+":????", lit) {
			return true
		}
	}
	return false
}

// fitsIn reports whether lit occurs in tmpl, where '?' stands for any
// lower-case hex digit.
func fitsIn(tmpl string, lit []byte) bool {
	for off := 0; off+len(lit) <= len(tmpl); off++ {
		ok := true
		for i, c := range lit {
			t := tmpl[off+i]
			if t != c && (t != '?' || !('0' <= c && c <= '9' || 'a' <= c && c <= 'f')) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Lookback is how many lines before a range a reader should Prime a
// Redactor with, so a key block that began above the range is recognised.
const Lookback = 200

// maxKeyLines bounds a key block whose end never comes: past it, lines are
// judged on their own again.
const maxKeyLines = 400

// Redactor redacts a stream line by line. It keeps the one piece of state a
// line cannot carry alone: being inside a private-key block.
type Redactor struct {
	data     byte // inside a Kubernetes data block: 'y' YAML, 'j' JSON, 's' stringData
	inPublic bool // inside a certificate or public key block
	inKey    bool
	keyLines int
	keyHash  []byte // the block's first body line: names the whole block
	counts   map[string]map[string]bool
	values   map[string]string // value → marker, when collecting (Collect)
}

// Line returns line (without its newline) with every secret replaced by its
// marker. It returns line itself when nothing is redacted.
func (r *Redactor) Line(line []byte) []byte {
	if r.quiet(line) {
		return line
	}
	return r.line(line)
}

// line is Line's every step, for a line quiet does not pass.
func (r *Redactor) line(line []byte) []byte {
	if r.inKey {
		if out, ok := r.keyBody(line); ok {
			return out
		}
	}
	if out, ok := r.dataLine(line); ok {
		return out
	}
	r.publicBlock(line)
	if !r.inPublic {
		if k, ok := orphanKeyLine(line); ok {
			return r.replaceKey(line, k, len(bytes.TrimRight(line, " \t\r\",")))
		}
	}
	f := Find(line)
	r.startKey(line)
	if len(f) == 0 {
		return line
	}
	var b bytes.Buffer
	b.Grow(len(line) + 16*len(f))
	prev := 0
	for _, x := range f {
		b.Write(line[prev:x.Start])
		m := Marker(x.Rule, line[x.Start:x.End])
		b.WriteString(m)
		r.count(x.Rule, m)
		r.keep(line[x.Start:x.End], m)
		prev = x.End
	}
	b.Write(line[prev:])
	return b.Bytes()
}

// quiet reports a line that no step of Line can change and that changes no
// block state, tested with a few byte searches: outside a key or data block,
// without the five dashes of every BEGIN and END line, not a key line shown
// without its block, opening no data block, and without any rule's keyword. Most lines of a flood are such lines, and the full steps
// cost most of `ctx get --grep` over a large output.
func (r *Redactor) quiet(line []byte) bool {
	if r.inKey || r.data != 0 || bytes.Contains(line, []byte("-----")) {
		return false
	}
	if len(line) >= 64 {
		if _, ok := orphanKeyLine(line); ok {
			return false
		}
	}
	if bytes.IndexByte(line, ':') >= 0 && dataOpener(bytes.TrimRight(line, " \t\r")) != 0 {
		return false
	}
	return !maybe(line)
}

// dataOpener returns the kind of Kubernetes Secret data block a line (its
// trailing blanks trimmed) opens: 'y' (YAML data), 's' (YAML stringData),
// 'j' (JSON data or stringData), or 0.
func dataOpener(t []byte) byte {
	switch {
	case bytes.Equal(t, []byte("data:")):
		return 'y'
	case bytes.Equal(t, []byte("stringData:")):
		return 's'
	case bytes.HasSuffix(t, []byte(`"data": {`)) || bytes.HasSuffix(t, []byte(`"stringData": {`)):
		return 'j'
	}
	return 0
}

// Prime reads a line that comes before what will be redacted (it is not
// shown), so a block that began earlier is recognised.
func (r *Redactor) Prime(line []byte) {
	if r.inKey {
		if _, ok := r.keyBody(line); ok {
			return
		}
	}
	if _, ok := r.dataLine(line); ok {
		return
	}
	r.startKey(line)
}

// publicBlock follows certificate and public-key blocks, whose lines look
// like a key's and are not secret.
func (r *Redactor) publicBlock(line []byte) {
	switch {
	case bytes.Contains(line, []byte("-----BEGIN ")) && !bytes.Contains(line, []byte("PRIVATE KEY")):
		r.inPublic = true
	case bytes.Contains(line, []byte("-----END ")):
		r.inPublic = false
	}
}

// orphanKeyLine recognises a line of a private key shown without its BEGIN
// line (a log item, a JSON field, a clipped view): its last field is exactly
// as long as a PEM (64) or OpenSSH (70) key line, base64 with upper case,
// lower case and digits, and not hex. Certificates wrap the same way; their
// lines are left alone when their BEGIN line was seen.
func orphanKeyLine(line []byte) (int, bool) {
	t := bytes.TrimRight(line, " \t\r\",")
	k := lastField(t)
	if k < 0 {
		return 0, false
	}
	f := bytes.TrimLeft(t[k:], `"`)
	k = len(t) - len(f)
	if len(f) != 64 && len(f) != 70 || !isBase64(f) {
		return 0, false
	}
	var lo, up, dig bool
	for _, c := range f {
		lo = lo || 'a' <= c && c <= 'z'
		up = up || 'A' <= c && c <= 'Z'
		dig = dig || '0' <= c && c <= '9'
	}
	return k, lo && up && dig
}

// startKey enters a key block when line opens one without closing it.
func (r *Redactor) startKey(line []byte) {
	i := bytes.Index(line, []byte("-----BEGIN "))
	if i < 0 {
		return
	}
	head := line[i:]
	j := bytes.Index(head[len("-----BEGIN "):], []byte("-----"))
	if j < 0 {
		return
	}
	label := head[len("-----BEGIN ") : len("-----BEGIN ")+j]
	if !bytes.Contains(label, []byte("PRIVATE KEY")) {
		return
	}
	rest := head[len("-----BEGIN ")+j+5:]
	if bytes.Contains(rest, []byte("-----END")) || len(bytes.Trim(rest, " \t\r\"',\\n")) > 16 {
		return // a whole block, or one on a single line: Find's
	}
	r.inKey, r.keyLines, r.keyHash = true, 0, nil
}

// keyBody redacts a line inside a key block: its last field (the base64),
// keeping any prefix a renderer added (line numbers, gutters). ok is false
// when the line is no part of a block, which ends it.
func (r *Redactor) keyBody(line []byte) ([]byte, bool) {
	r.keyLines++
	if r.keyLines > maxKeyLines {
		r.inKey = false
		return nil, false
	}
	if i := bytes.Index(line, []byte("-----END")); i >= 0 {
		r.inKey = false
		body := bytes.TrimRight(line[:i], " \t")
		k := lastField(body)
		if k < 0 {
			return line, true
		}
		return r.replaceKey(line, k, len(body)), true
	}
	trimmed := bytes.TrimRight(line, " \t\r")
	if len(bytes.TrimSpace(trimmed)) == 0 || isPEMHeader(trimmed) {
		return line, true
	}
	k := lastField(trimmed)
	if k < 0 || k > 40 || !isBase64(trimmed[k:]) {
		r.inKey = false
		return nil, false
	}
	return r.replaceKey(line, k, len(trimmed)), true
}

func (r *Redactor) replaceKey(line []byte, from, to int) []byte {
	if r.keyHash == nil {
		r.keyHash = slices.Clone(line[from:to])
	}
	m := Marker("private-key", r.keyHash)
	r.count("private-key", m)
	r.keep(line[from:to], m)
	out := make([]byte, 0, from+len(m)+len(line)-to)
	out = append(out, line[:from]...)
	out = append(out, m...)
	return append(out, line[to:]...)
}

// dataLine redacts the values of a Kubernetes Secret's data block, as
// kubectl get -o yaml or -o json prints it: base64 values (data) or any
// value (stringData) under keys of any name. ok is false for lines outside
// such a block.
func (r *Redactor) dataLine(line []byte) ([]byte, bool) {
	t := bytes.TrimRight(line, " \t\r")
	if c := dataOpener(t); c != 0 {
		r.data = c
		return line, true
	}
	if r.data == 0 {
		return nil, false
	}
	if r.data == 'j' && bytes.HasPrefix(bytes.TrimSpace(t), []byte("}")) || r.data != 'j' && (len(t) == 0 || t[0] != ' ') {
		r.data = 0
		return nil, false
	}
	i := bytes.Index(t, []byte(": "))
	if i < 0 {
		return line, true
	}
	v := bytes.Trim(bytes.TrimSpace(t[i+2:]), `",`)
	if len(v) < 4 || r.data != 's' && !isBase64(v) || placeholder(string(v)) {
		return line, true
	}
	j := bytes.Index(t[i+2:], v) + i + 2
	m := Marker("kubernetes-secret-data", v)
	r.count("kubernetes-secret-data", m)
	out := append(append(append([]byte{}, line[:j]...), m...), line[j+len(v):]...)
	return out, true
}

// lastField is where the last space-separated field of b starts (-1 if b is
// blank).
func lastField(b []byte) int {
	b = bytes.TrimRight(b, " \t")
	if len(b) == 0 {
		return -1
	}
	return bytes.LastIndexAny(b, " \t") + 1
}

func isBase64(b []byte) bool {
	b = bytes.Trim(b, `"',\`)
	if len(b) < 4 {
		return false
	}
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// isPEMHeader is an RFC 1421 header inside a block (Proc-Type, DEK-Info,
// Comment, Version).
func isPEMHeader(b []byte) bool {
	b = bytes.TrimSpace(b)
	i := bytes.IndexByte(b, ':')
	if i <= 0 {
		return false
	}
	for _, c := range b[:i] {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

func (r *Redactor) keep(value []byte, marker string) {
	if r.values != nil && len(r.values) < maxKnown {
		r.values[string(value)] = marker
	}
}

// maxKnown bounds the secrets Collect remembers.
const maxKnown = 10000

// Collect reads a stream through a Redactor and returns every value it
// redacted with its marker: what ReplaceKnown needs to redact text derived
// from the stream (log templates, item messages) that no longer carries the
// context that made a value a secret.
func Collect(r io.Reader) (map[string]string, error) {
	red := NewReader(r)
	red.values = map[string]string{}
	_, err := io.Copy(io.Discard, red)
	return red.values, err
}

// ReplaceKnown replaces every occurrence in text of a collected value of 8
// or more bytes (longest first) with its marker.
func ReplaceKnown(text []byte, known map[string]string) []byte {
	var vals []string
	for v := range known {
		if len(v) >= 8 && !strings.ContainsAny(v, "\"\\") {
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(i, j int) bool {
		if len(vals[i]) != len(vals[j]) {
			return len(vals[i]) > len(vals[j])
		}
		return vals[i] < vals[j]
	})
	for _, v := range vals {
		text = bytes.ReplaceAll(text, []byte(v), []byte(known[v]))
	}
	return text
}

func (r *Redactor) count(rule, marker string) {
	if r.counts == nil {
		r.counts = map[string]map[string]bool{}
	}
	if r.counts[rule] == nil {
		r.counts[rule] = map[string]bool{}
	}
	r.counts[rule][marker] = true
}

// Counts is the number of distinct secrets redacted so far, by rule (a
// secret seen twice counts once; so does a key block).
func (r *Redactor) Counts() map[string]int {
	out := make(map[string]int, len(r.counts))
	for rule, ms := range r.counts {
		out[rule] = len(ms)
	}
	return out
}

// Text redacts b line by line and returns the result with the distinct
// secrets counted by rule. Newlines are kept: line N of the result is line
// N of b. When nothing is redacted it returns b itself and nil.
func Text(b []byte) ([]byte, map[string]int) {
	orig := b
	var r Redactor
	var out bytes.Buffer
	out.Grow(len(b))
	changed := false
	for len(b) > 0 {
		line := b
		nl := bytes.IndexByte(b, '\n')
		if nl >= 0 {
			line = b[:nl]
		}
		red := r.Line(line)
		if len(red) != len(line) || (len(red) > 0 && &red[0] != &line[0]) {
			changed = true
		}
		out.Write(red)
		if nl < 0 {
			break
		}
		out.WriteByte('\n')
		b = b[nl+1:]
	}
	if !changed {
		return orig, nil
	}
	return out.Bytes(), r.Counts()
}

// String redacts a one-line string.
func String(s string) string {
	if s == "" {
		return s
	}
	out, counts := Text([]byte(s))
	if counts == nil {
		return s
	}
	return string(out)
}

// Count returns the distinct redactions in text, by rule: what a reader of
// text sees redacted, however many passes made it.
func Count(text []byte) map[string]int {
	var out map[string]int
	seen := map[string]bool{}
	for rest := text; ; {
		i := bytes.Index(rest, []byte("[REDACTED:"))
		if i < 0 {
			return out
		}
		rest = rest[i:]
		j := bytes.IndexByte(rest, ']')
		if j < 0 {
			return out
		}
		m := string(rest[:j+1])
		rest = rest[j+1:]
		parts := strings.Split(m[len("[REDACTED:"):len(m)-1], ":")
		if len(parts) != 2 || len(parts[1]) != 4 || seen[m] {
			continue
		}
		seen[m] = true
		if out == nil {
			out = map[string]int{}
		}
		out[parts[0]]++
	}
}

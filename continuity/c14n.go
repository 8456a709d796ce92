package continuity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Digest prefixes: the recipe is part of every digest, so a digest says how to
// recompute it.
const (
	JSONDigestPrefix = "sha256:json-c14n:v1:"
	RawDigestPrefix  = "sha256:raw-bytes:v1:"
)

// maxIntDigits is CPython's default limit on decimal integer conversion
// (sys.get_int_max_str_digits, Python 3.11+): the reference refuses longer
// integers, so ctx does too rather than produce a digest nobody can recompute.
const maxIntDigits = 4300

// maxDepth bounds nesting. CPython's recursion limit bounds json.loads and
// json.dumps at a depth that depends on its call stack (python3 -c reads and
// writes 994 nested arrays, CPython 3.11); ctx stops a little below, so a
// document it digests is one Python can digest too, and it refuses deeper
// ones with an error naming the limit.
const maxDepth = 900

// Int is a JSON integer of any size, kept as its decimal text ("-12", "0").
// Python reads integers exactly, so ctx never turns them into float64.
type Int string

// ErrNotCanonical: a value cannot be written as json-c14n:v1 (NaN, an infinity,
// a lone surrogate, an integer too long for Python, a Go type JSON has no form for).
var ErrNotCanonical = errors.New("not representable as json-c14n:v1")

// SyntaxError is malformed JSON input, with the byte offset where reading stopped.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("JSON at byte %d: %s", e.Offset, e.Msg) }

// ParseJSON reads one JSON document the way Python's json.loads does and
// returns its value: nil, bool, string, Int, float64, []any or map[string]any.
// A duplicate object key keeps its last value. A number with a fraction or an
// exponent is a float64 (correctly rounded, as Python's float()); any other
// number is an Int. Like json.loads it accepts NaN, Infinity, floats beyond
// float64 (as infinities) and lone \uD800-style surrogates; Canonical refuses
// them, as json.dumps(allow_nan=False) and UTF-8 encoding do — unless a later
// duplicate key replaced them. A UTF-8 byte-order mark at the start is
// skipped, as json.loads does for bytes.
func ParseJSON(data []byte) (any, error) { return parseJSON(data, false) }

// parseJSON is ParseJSON; strict refuses a duplicate object key instead of
// keeping the last value.
func parseJSON(data []byte, strict bool) (any, error) {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, &SyntaxError{i, "invalid UTF-8 (the recipe hashes UTF-8 text; convert the file to UTF-8)"}
	}
	p := &parser{s: data, strict: strict}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.i = 3
	}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.fail("extra data after the JSON value")
	}
	return v, nil
}

type parser struct {
	s      []byte
	i      int
	strict bool // refuse duplicate keys
}

func (p *parser) fail(msg string) error { return &SyntaxError{p.i, msg} }

// space skips JSON whitespace: exactly the four characters Python accepts.
func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.fail(fmt.Sprintf("nested deeper than %d levels", maxDepth))
	}
	if p.i >= len(p.s) {
		return nil, p.fail("expecting a value, found the end of the input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		if p.lit("-Infinity") {
			return math.Inf(-1), nil
		}
		return p.number()
	case p.lit("null"):
		return nil, nil
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	case p.lit("NaN"):
		return math.NaN(), nil
	case p.lit("Infinity"):
		return math.Inf(1), nil
	}
	return nil, p.fail("expecting a value")
}

func (p *parser) lit(word string) bool {
	if bytes.HasPrefix(p.s[p.i:], []byte(word)) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) object(depth int) (any, error) {
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("expecting a property name in double quotes")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail("expecting ':' after a property name")
		}
		p.i++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, dup := m[k.(string)]; dup && p.strict {
			return nil, p.fail(fmt.Sprintf("duplicate key %q", k))
		}
		m[k.(string)] = v
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return m, nil
		}
		return nil, p.fail("expecting ',' or '}' in an object")
	}
}

func (p *parser) array(depth int) (any, error) {
	p.i++ // [
	a := []any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		return nil, p.fail("expecting ',' or ']' in an array")
	}
}

func (p *parser) str() (any, error) {
	start := p.i
	p.i++ // "
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.i = start
			return nil, p.fail("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return nil, p.fail(fmt.Sprintf("control character %#02x in a string (write it as \\u%04x)", c, c))
		case c != '\\':
			j := p.i
			for j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' && p.s[j] >= 0x20 {
				j++
			}
			b.Write(p.s[p.i:j])
			p.i = j
			continue
		}
		// An escape.
		if p.i+1 >= len(p.s) {
			return nil, p.fail("unterminated escape")
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return nil, err
			}
			if utf16.IsSurrogate(r) {
				if r < 0xdc00 && bytes.HasPrefix(p.s[p.i:], []byte(`\u`)) {
					save := p.i
					p.i += 2
					lo, err := p.hex4()
					if err == nil && lo >= 0xdc00 && lo <= 0xdfff {
						b.WriteRune(utf16.DecodeRune(r, lo))
						continue
					}
					p.i = save
				}
				// A lone surrogate: Python keeps it in the string and
				// refuses to encode it as UTF-8. Keep it as its (invalid)
				// generalised UTF-8 bytes, which Canonical refuses.
				b.Write([]byte{0xe0 | byte(r>>12), 0x80 | byte(r>>6)&0x3f, 0x80 | byte(r)&0x3f})
				continue
			}
			b.WriteRune(r)
		default:
			p.i -= 2
			return nil, p.fail(fmt.Sprintf("invalid escape \\%c", e))
		}
	}
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.fail("\\u needs four hex digits")
	}
	n, err := strconv.ParseUint(string(p.s[p.i:p.i+4]), 16, 32)
	if err != nil || strings.ContainsAny(string(p.s[p.i:p.i+4]), "+-_") {
		return 0, p.fail("\\u needs four hex digits")
	}
	p.i += 4
	return rune(n), nil
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, as Python's
// scanner does; whatever follows is the caller's business.
func (p *parser) number() (any, error) {
	start := p.i
	digits := func() int {
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		return p.i - j
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.i = start
		return nil, p.fail("expecting a value")
	}
	isFloat := false
	if p.i+1 < len(p.s) && p.s[p.i] == '.' && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9' {
		p.i++
		digits()
		isFloat = true
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		save := p.i
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.i = save
		} else {
			isFloat = true
		}
	}
	text := string(p.s[start:p.i])
	if !isFloat {
		n := Int(text)
		if text == "-0" {
			n = "0"
		}
		if len(strings.TrimPrefix(text, "-")) > maxIntDigits {
			p.i = start
			return nil, p.fail(fmt.Sprintf("an integer of more than %d digits: Python refuses to convert it (sys.get_int_max_str_digits)", maxIntDigits))
		}
		return n, nil
	}
	// Beyond float64 is an infinity, as in Python: Canonical refuses it, unless
	// a later duplicate key replaces it first.
	f, _ := strconv.ParseFloat(text, 64)
	return f, nil
}

// Canonical returns the json-c14n:v1 bytes of v: the UTF-8 of Python's
// json.dumps(v, sort_keys=True, separators=(',',':'), ensure_ascii=False,
// allow_nan=False). v is a value as ParseJSON returns it; int, int64 and
// []string are accepted too.
func Canonical(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, v, ",", ":", 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pythonDefault returns the UTF-8 of json.dumps(v, ensure_ascii=False,
// sort_keys=True) with its default separators (", " and ": "): the text the
// reference ledger chains.
func pythonDefault(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, v, ", ", ": ", 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Digest is "sha256:json-c14n:v1:" and the SHA-256 of v's canonical bytes.
func Digest(v any) (string, error) {
	c, err := Canonical(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return JSONDigestPrefix + hex.EncodeToString(sum[:]), nil
}

// RawDigest is "sha256:raw-bytes:v1:" and the SHA-256 of b, for opaque bytes.
func RawDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return RawDigestPrefix + hex.EncodeToString(sum[:])
}

func encode(b *bytes.Buffer, v any, comma, colon string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("nested deeper than %d levels: %w", maxDepth, ErrNotCanonical)
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		return encodeString(b, v)
	case Int:
		if !validInt(string(v)) {
			return fmt.Errorf("integer %q: %w", v, ErrNotCanonical)
		}
		b.WriteString(string(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		s, err := pyFloatRepr(v)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(comma)
			}
			if err := encode(b, e, comma, colon, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case []string:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(comma)
			}
			if err := encodeString(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// Byte order of UTF-8 is code point order: Python's sort of str keys.
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(comma)
			}
			if err := encodeString(b, k); err != nil {
				return err
			}
			b.WriteString(colon)
			if err := encode(b, v[k], comma, colon, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("a Go %T: %w", v, ErrNotCanonical)
	}
	return nil
}

func validInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > maxIntDigits || (len(d) > 1 && d[0] == '0') || s == "-0" {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// encodeString writes s as Python's json.dumps(ensure_ascii=False) does: only
// '"', '\\' and the C0 controls are escaped, with the short forms \b \f \n \r
// \t and lower-case \u00XX for the rest. Everything else, including '<', '>',
// '&', DEL, U+2028 and U+2029, is written as itself.
func encodeString(b *bytes.Buffer, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("string %q holds a lone surrogate or invalid UTF-8, which has no UTF-8 form: %w", s, ErrNotCanonical)
	}
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			fmt.Fprintf(b, `\u%04x`, c)
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
	return nil
}

// pyFloatRepr formats f as Python's repr(float): the shortest digits that read
// back as f; positional notation when the decimal exponent is in [-4, 16),
// with ".0" when integral; otherwise d.ddde±XX with at least two exponent digits.
func pyFloatRepr(f float64) (string, error) {
	switch {
	case math.IsNaN(f), math.IsInf(f, 0):
		return "", fmt.Errorf("float %v: %w (allow_nan=False)", f, ErrNotCanonical)
	case f == 0:
		if math.Signbit(f) {
			return "-0.0", nil
		}
		return "0.0", nil
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, err := strconv.Atoi(exp)
	if err != nil {
		return "", err
	}
	decpt := x + 1 // the value is 0.DIGITS × 10^decpt
	var out string
	switch {
	case decpt > 16 || decpt <= -4:
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		es := "+"
		if decpt-1 < 0 {
			es = "-"
		}
		n := decpt - 1
		if n < 0 {
			n = -n
		}
		out += fmt.Sprintf("e%s%02d", es, n)
	case decpt <= 0:
		out = "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	default:
		out = digits[:decpt] + "." + digits[decpt:]
	}
	return sign + out, nil
}

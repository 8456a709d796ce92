package continuity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonGen writes random JSON texts that stress json-c14n:v1: integers of any
// size, floats at the edges of repr's notation switch and of float64 itself,
// spellings that round, every kind of string escape, non-BMP keys whose
// UTF-16 order differs from their code point order, duplicate keys, odd
// whitespace — and, now and then, something the reference refuses.
type jsonGen struct {
	r       *rand.Rand
	invalid bool // emit inputs Python must refuse too
}

func newJSONGen(seed uint64, invalid bool) *jsonGen {
	return &jsonGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), invalid: invalid}
}

func (g *jsonGen) ws() string {
	if g.r.IntN(3) > 0 {
		return ""
	}
	return []string{" ", "  ", "\t", "\r", " \t "}[g.r.IntN(5)]
}

// document returns one JSON text without a raw newline (so texts can be lines).
func (g *jsonGen) document() string {
	if g.invalid && g.r.IntN(25) == 0 {
		return g.bad()
	}
	return g.ws() + g.value(0) + g.ws()
}

func (g *jsonGen) bad() string {
	cases := []func() string{
		func() string { return "NaN" },
		func() string { return `{"a":Infinity}` },
		func() string { return "[-Infinity]" },
		func() string { return "1e400" },
		func() string { return "-2.5e999" },
		func() string { return `"\ud800"` },
		func() string { return `["\udc00x"]` },
		func() string { return `"\ud83dA"` },
		func() string { return "[1,]" },
		func() string { return "01" },
		func() string { return "1." },
		func() string { return `{"a" 1}` },
		func() string { return `"tab	in string"` },
		func() string { return `"\x"` },
		func() string { return "[1] [2]" },
		func() string { return strings.Repeat("9", maxIntDigits+1) },
		func() string { return "-" + strings.Repeat("1", maxIntDigits) },
		func() string { return "" },
		func() string { return "tru" },
		func() string { return `{"k":1,}` },
		func() string { return `{"a":NaN,"a":1}` },
		func() string { return `[{"x":1e999,"y":0,"x":"\ud800","x":-0.0}]` },
	}
	return cases[g.r.IntN(len(cases))]()
}

func (g *jsonGen) value(depth int) string {
	n := 9
	if depth >= 3 {
		n = 6
	}
	switch g.r.IntN(n) {
	case 0:
		return []string{"null", "true", "false"}[g.r.IntN(3)]
	case 1, 2:
		return g.integer()
	case 3, 4:
		return g.float()
	case 5:
		return g.quote(g.text())
	case 6:
		return g.array(depth)
	default:
		return g.object(depth)
	}
}

func (g *jsonGen) array(depth int) string {
	n := g.r.IntN(5)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.ws() + g.value(depth+1) + g.ws()
	}
	return "[" + g.ws() + strings.Join(parts, ",") + "]"
}

func (g *jsonGen) object(depth int) string {
	n := g.r.IntN(5)
	var keys []string
	parts := make([]string, 0, n+1)
	for range n {
		k := g.key()
		if len(keys) > 0 && g.r.IntN(6) == 0 {
			k = keys[g.r.IntN(len(keys))] // a duplicate: the last one wins
		}
		keys = append(keys, k)
		parts = append(parts, g.ws()+g.quote(k)+g.ws()+":"+g.ws()+g.value(depth+1)+g.ws())
	}
	return "{" + g.ws() + strings.Join(parts, ",") + "}"
}

func (g *jsonGen) key() string {
	pool := []string{"a", "b", "A", "B", "aa", "a b", "_", "id", "value", "é", "e\u0301",
		"\uffff", "\U0001F600", "\uff61", "\U00010000", "\ue000", "z", "", "1", "10", "2", "\u2028", "\x7f", "<&>"}
	if g.r.IntN(3) == 0 {
		return g.text()
	}
	return pool[g.r.IntN(len(pool))]
}

var runeRanges = [][2]rune{
	{0x00, 0x1f}, {0x20, 0x7e}, {0x20, 0x7e}, {0x20, 0x7e}, {0x7f, 0xa0}, {0xa1, 0x2ff}, {0x300, 0x36f},
	{0x2000, 0x206f}, {0x4e00, 0x4e80}, {0xd7f0, 0xd7ff}, {0xe000, 0xe010}, {0xfff0, 0xfffd},
	{0x10000, 0x10100}, {0x1f300, 0x1f64f}, {0x10fff0, 0x10ffff},
}

func (g *jsonGen) text() string {
	var b strings.Builder
	for range g.r.IntN(12) {
		rg := runeRanges[g.r.IntN(len(runeRanges))]
		b.WriteRune(rg[0] + rune(g.r.IntN(int(rg[1]-rg[0]+1))))
	}
	if g.r.IntN(8) == 0 {
		b.WriteString([]string{`"`, `\`, "/", "<>&", "\u2028\u2029", "\b\f\n\r\t"}[g.r.IntN(6)])
	}
	return b.String()
}

// quote writes s as a JSON string, each character in one of its legal forms.
func (g *jsonGen) quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		short := map[rune]string{'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
		if sh, ok := short[r]; ok && g.r.IntN(2) == 0 {
			b.WriteString(sh)
			continue
		}
		if r < 0x20 || r == '"' || r == '\\' || g.r.IntN(6) == 0 {
			if r == '/' && g.r.IntN(2) == 0 {
				b.WriteString(`\/`)
				continue
			}
			b.WriteString(g.escape(r))
			continue
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func (g *jsonGen) escape(r rune) string {
	f := "\\u%04x"
	if g.r.IntN(2) == 0 {
		f = "\\u%04X"
	}
	if r >= 0x10000 {
		r -= 0x10000
		return fmt.Sprintf(f+f, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
	}
	return fmt.Sprintf(f, r)
}

func (g *jsonGen) integer() string {
	switch g.r.IntN(6) {
	case 0:
		return []string{"0", "-0", "1", "-1", "9007199254740993", "-9223372036854775809", "18446744073709551616"}[g.r.IntN(7)]
	case 1:
		n := 1 + g.r.IntN(60)
		var b strings.Builder
		if g.r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(byte('1' + g.r.IntN(9)))
		for range n {
			b.WriteByte(byte('0' + g.r.IntN(10)))
		}
		return b.String()
	default:
		return strconv.FormatInt(g.r.Int64N(1<<40)-1<<39, 10)
	}
}

var edgeFloats = []float64{0.5, 1, 100, 1e15, 1e16, 9999999999999998, 1e16 - 2, 123456789012345678, 0.0001, 0.00001,
	0.00009999999999999999, 1e-4 + 1e-20, 5e-324, math.SmallestNonzeroFloat64 * 3, math.MaxFloat64, 2.2250738585072014e-308,
	0.1, 0.2, 0.30000000000000004, 1.5, 2.5, 1e22, 1e23, 9.999999999999999e22, 1e21, 123.456, 4.35, 0.3, 2 / 3.0, 1 << 53, 1<<53 + 2}

func (g *jsonGen) float() string {
	var f float64
	switch g.r.IntN(4) {
	case 0:
		f = edgeFloats[g.r.IntN(len(edgeFloats))]
	case 1:
		for {
			f = math.Float64frombits(g.r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				break
			}
		}
	case 2:
		// A decimal spelling with more digits than float64 holds: it must round
		// the way Python's float() does.
		var b strings.Builder
		if g.r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(g.r.IntN(1000)))
		b.WriteByte('.')
		for range 1 + g.r.IntN(30) {
			b.WriteByte(byte('0' + g.r.IntN(10)))
		}
		if g.r.IntN(2) == 0 {
			fmt.Fprintf(&b, "e%d", g.r.IntN(640)-330)
		}
		return b.String()
	default:
		f = (g.r.Float64() - 0.5) * math.Pow(10, float64(g.r.IntN(40)-20))
	}
	if g.r.IntN(2) == 0 {
		f = -f
	}
	// Spell the float in one of several legal ways.
	var s string
	switch g.r.IntN(5) {
	case 0:
		s = strconv.FormatFloat(f, 'e', -1, 64)
	case 1:
		s = strconv.FormatFloat(f, 'E', 20, 64)
	case 2:
		s = strconv.FormatFloat(f, 'g', 17, 64)
	case 3:
		s = strconv.FormatFloat(f, 'e', -1, 64)
		s = strings.Replace(s, "e+", "e+00", 1)
	default:
		s = strconv.FormatFloat(f, 'f', -1, 64)
		if len(s) > 400 {
			s = strconv.FormatFloat(f, 'e', -1, 64)
		}
	}
	if !strings.ContainsAny(s, ".eE") {
		s += ".0" // without a fraction or an exponent it would be an integer
	}
	if !utf8.ValidString(s) {
		panic(s)
	}
	return s
}

package ui

import (
	"html"
	"strconv"
	"strings"
)

// ANSI renders one line of terminal output as HTML: SGR colour and bold
// codes become <span class="…"> (classes fg0…fg15, bg0…bg7, b), every other
// escape sequence is dropped, carriage-return overwrites keep the last
// segment, and all text is escaped. The result is always balanced HTML.
func ANSI(line string) string {
	if i := strings.LastIndexByte(strings.TrimRight(line, "\r"), '\r'); i >= 0 {
		line = line[i+1:]
	}
	line = strings.TrimRight(line, "\r")
	var b strings.Builder
	st := sgr{fg: -1, bg: -1}
	open := false
	for i := 0; i < len(line); {
		c := line[i]
		if c != 0x1b {
			j := strings.IndexByte(line[i:], 0x1b)
			if j < 0 {
				j = len(line) - i
			}
			b.WriteString(html.EscapeString(stripControls(line[i : i+j])))
			i += j
			continue
		}
		if i+1 >= len(line) {
			break
		}
		switch line[i+1] {
		case '[':
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if j < len(line) && line[j] == 'm' {
				if open {
					b.WriteString("</span>")
				}
				st.apply(line[i+2 : j])
				open = st.openSpan(&b)
			}
			i = j + 1
		case ']':
			// OSC: up to BEL or ESC \.
			j := i + 2
			for j < len(line) && line[j] != 0x07 && !(line[j] == 0x1b && j+1 < len(line) && line[j+1] == '\\') {
				j++
			}
			if j < len(line) && line[j] == 0x1b {
				j++
			}
			i = j + 1
		case '(', ')':
			i += 3
		default:
			i += 2
		}
	}
	if open {
		b.WriteString("</span>")
	}
	return b.String()
}

// sgr is the text style SGR sequences set: colours (-1 for the default)
// and bold.
type sgr struct {
	fg, bg int
	bold   bool
}

// apply applies an SGR sequence's parameters ("1;31"); unknown ones are
// ignored.
func (st *sgr) apply(params string) {
	for _, p := range strings.Split(params, ";") {
		n, err := strconv.Atoi(p)
		if p == "" {
			n, err = 0, nil
		}
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			st.fg, st.bg, st.bold = -1, -1, false
		case n == 1:
			st.bold = true
		case n == 22:
			st.bold = false
		case n >= 30 && n <= 37:
			st.fg = n - 30
		case n == 39:
			st.fg = -1
		case n >= 40 && n <= 47:
			st.bg = n - 40
		case n == 49:
			st.bg = -1
		case n >= 90 && n <= 97:
			st.fg = n - 90 + 8
		}
	}
}

// openSpan writes a span carrying the style's classes and reports whether
// it wrote one (the default style needs none).
func (st *sgr) openSpan(b *strings.Builder) bool {
	var cls []string
	if st.fg >= 0 {
		cls = append(cls, "fg"+strconv.Itoa(st.fg))
	}
	if st.bg >= 0 {
		cls = append(cls, "bg"+strconv.Itoa(st.bg))
	}
	if st.bold {
		cls = append(cls, "b")
	}
	if len(cls) == 0 {
		return false
	}
	b.WriteString(`<span class="` + strings.Join(cls, " ") + `">`)
	return true
}

// stripControls drops C0 control characters other than tab.
func stripControls(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

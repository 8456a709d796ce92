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
	var fg, bg = -1, -1
	bold, open := false, false
	closeSpan := func() {
		if open {
			b.WriteString("</span>")
			open = false
		}
	}
	openSpan := func() {
		var cls []string
		if fg >= 0 {
			cls = append(cls, "fg"+strconv.Itoa(fg))
		}
		if bg >= 0 {
			cls = append(cls, "bg"+strconv.Itoa(bg))
		}
		if bold {
			cls = append(cls, "b")
		}
		if len(cls) > 0 {
			b.WriteString(`<span class="` + strings.Join(cls, " ") + `">`)
			open = true
		}
	}
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
				closeSpan()
				for _, p := range strings.Split(line[i+2:j], ";") {
					n, err := strconv.Atoi(p)
					if p == "" {
						n, err = 0, nil
					}
					if err != nil {
						continue
					}
					switch {
					case n == 0:
						fg, bg, bold = -1, -1, false
					case n == 1:
						bold = true
					case n == 22:
						bold = false
					case n >= 30 && n <= 37:
						fg = n - 30
					case n == 39:
						fg = -1
					case n >= 40 && n <= 47:
						bg = n - 40
					case n == 49:
						bg = -1
					case n >= 90 && n <= 97:
						fg = n - 90 + 8
					}
				}
				openSpan()
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
	closeSpan()
	return b.String()
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

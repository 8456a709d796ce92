package gotest

import (
	"encoding/json"
	"unicode/utf8"
)

// This file decodes a go test -json event line. test2json writes one flat
// object a line (string fields and the number Elapsed), so a direct scan
// reads nearly every line; anything it does not handle exactly as
// encoding/json would (a \u escape, a key in another case, invalid UTF-8,
// a value other than a string or a number, bad syntax) goes to
// encoding/json, so the two readings never differ.

// decodeEvent reads one -json event; ok is false when the line is not a
// JSON object with an Action. prev, when not nil, is the event before: its
// strings are reused for fields that repeat (the package, the test), so
// that most events allocate only their output.
func decodeEvent(line []byte, prev *event) (ev event, ok bool) {
	ev, fast := scanEvent(line, prev)
	if !fast {
		ev = event{}
		if err := json.Unmarshal(line, &ev); err != nil {
			return event{}, false
		}
	}
	return ev, ev.Action != ""
}

// scanEvent decodes line when it is a flat object of strings and numbers
// whose keys are spelt as the fields are; fast is false when it cannot say
// what encoding/json would. prev is as for decodeEvent.
func scanEvent(line []byte, prev *event) (ev event, fast bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return ev, false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return ev, skipSpace(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return ev, false
		}
		rawKey, escaped, j, ok := scanString(line, i)
		if !ok {
			return ev, false
		}
		key := string(rawKey)
		if escaped {
			if key, ok = unescape(rawKey); !ok {
				return ev, false
			}
		}
		i = skipSpace(line, j)
		if i >= len(line) || line[i] != ':' {
			return ev, false
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return ev, false
		}
		field, was := ev.field(key, prev)
		if field == nil && foldsToField(key) {
			return ev, false
		}
		switch c := line[i]; {
		case c == '"':
			raw, escaped, j, ok := scanString(line, i)
			if !ok {
				return ev, false
			}
			if field != nil {
				if *field, ok = stringValue(raw, escaped, was); !ok {
					return ev, false
				}
			} else if escaped {
				if _, ok := unescape(raw); !ok {
					return ev, false // an escape encoding/json rejects
				}
			}
			i = j
		case field == nil && (c == '-' || '0' <= c && c <= '9'):
			j, ok := scanNumber(line, i)
			if !ok {
				return ev, false
			}
			i = j
		default:
			return ev, false
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return ev, false
		}
		switch line[i] {
		case ',':
			i = skipSpace(line, i+1)
		case '}':
			return ev, skipSpace(line, i+1) == len(line)
		default:
			return ev, false
		}
	}
}

// field returns the field a key names exactly, or nil, and the value it had
// in prev ("" when prev is nil).
func (ev *event) field(key string, prev *event) (f *string, was string) {
	if prev == nil {
		prev = &event{}
	}
	switch key {
	case "Action":
		return &ev.Action, prev.Action
	case "Package":
		return &ev.Package, prev.Package
	case "Test":
		return &ev.Test, prev.Test
	case "Output":
		return &ev.Output, prev.Output
	case "ImportPath":
		return &ev.ImportPath, prev.ImportPath
	case "FailedBuild":
		return &ev.FailedBuild, prev.FailedBuild
	}
	return nil, ""
}

// stringValue is the value of a JSON string's raw bytes: was itself when
// they spell it, a constant for the actions test2json writes, else a copy.
func stringValue(raw []byte, escaped bool, was string) (string, bool) {
	if escaped {
		return unescape(raw)
	}
	if string(raw) == was {
		return was, true
	}
	switch string(raw) {
	case "output":
		return "output", true
	case "run":
		return "run", true
	case "pass":
		return "pass", true
	case "fail":
		return "fail", true
	case "skip":
		return "skip", true
	case "pause":
		return "pause", true
	case "cont":
		return "cont", true
	case "start":
		return "start", true
	case "bench":
		return "bench", true
	}
	return string(raw), true
}

// foldsToField reports whether encoding/json would match key to a field
// only by case folding (it then prefers an exact match elsewhere in the
// object, which the scan does not track).
func foldsToField(key string) bool {
	for _, f := range [...]string{"Action", "Package", "Test", "Output", "ImportPath", "FailedBuild"} {
		if len(key) == len(f) && asciiEqualFold(key, f) {
			return true
		}
	}
	return false
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString reads the JSON string starting at b[i] (a quote) and returns
// its raw bytes, whether they hold escapes, and the index after it. ok is
// false for what the scan leaves to encoding/json: invalid UTF-8, a control
// byte, no end.
func scanString(b []byte, i int) (raw []byte, escaped bool, next int, ok bool) {
	start := i + 1
	ascii := true
	for j := start; j < len(b); j++ {
		c := b[j]
		switch {
		case c == '"':
			raw := b[start:j]
			if !ascii && !utf8.Valid(raw) {
				return nil, false, 0, false
			}
			return raw, escaped, j + 1, true
		case c == '\\':
			escaped = true
			j++ // the escaped byte cannot end the string
		case c < 0x20:
			return nil, false, 0, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false, 0, false
}

// unescape resolves the one-letter JSON escapes of raw; ok is false for
// \u and anything invalid.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(raw) {
			return "", false
		}
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default:
			return "", false
		}
	}
	return string(out), true
}

// scanNumber checks the JSON number starting at b[i] and returns the index
// after it.
func scanNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() bool {
		j := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	return i, true
}

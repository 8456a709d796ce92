// Package jsonenc appends JSON values exactly as encoding/json marshals
// them, for the few records ctx encodes on every run: encoding/json builds a
// type's encoder by reflection on its first use in a process, which a
// short-lived `ctx run` pays for each type, every time. Callers hold their
// hand-written encodings to encoding/json's bytes in tests.
package jsonenc

import (
	"encoding/json"
	"sort"
	"strconv"
	"time"
)

// String appends s quoted as encoding/json quotes it (HTML characters,
// control characters, invalid UTF-8 and U+2028/9 escaped): printable ASCII
// that needs no escape is copied, anything else goes through encoding/json.
func String(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Strings appends a []string (or a slice of a string type): null when nil.
func Strings[S ~string](b []byte, v []S) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, string(s))
	}
	return append(b, ']')
}

// StringMap appends a map[string]string, keys sorted: null when nil.
func StringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, k)
		b = append(b, ':')
		b = String(b, m[k])
	}
	return append(b, '}')
}

// Int appends n in decimal.
func Int[I ~int | ~int64](b []byte, n I) []byte { return strconv.AppendInt(b, int64(n), 10) }

// Time appends t as time.Time's MarshalJSON writes it (RFC 3339 with
// nanoseconds); a year outside 0–9999 or a zone 24 hours or more from UTC,
// which MarshalJSON refuses, reports false.
func Time(b []byte, t time.Time) ([]byte, bool) {
	_, off := t.Zone()
	if y := t.Year(); y < 0 || y > 9999 || off/3600 >= 24 || off/3600 <= -24 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), true
}

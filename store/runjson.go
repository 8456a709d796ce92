package store

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
)

// The run's JSON, written by hand: a run's id is the BLAKE3 of its
// manifest's JSON and every run is stored as JSON, so ctx run encodes both
// on every run, and encoding/json's first use of a type builds its encoder
// by reflection (about a tenth of a millisecond a type). The bytes are
// exactly encoding/json's (TestRunJSONIsEncodingJSON): ids do not change.

// appendJSON appends the manifest as encoding/json would marshal it.
func (m *Manifest) appendJSON(b []byte) []byte {
	b = append(b, `{"argv":`...)
	if m.Argv == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, a := range m.Argv {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, a)
		}
		b = append(b, ']')
	}
	b = append(b, `,"dir":`...)
	b = appendJSONString(b, m.Dir)
	b = append(b, `,"mode":`...)
	b = appendJSONString(b, m.Mode)
	b = append(b, `,"exit":`...)
	b = strconv.AppendInt(b, int64(m.Exit), 10)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, string(m.Status))
	if m.Signal != 0 {
		b = append(b, `,"signal":`...)
		b = strconv.AppendInt(b, int64(m.Signal), 10)
	}
	b = append(b, `,"stdin":`...)
	b = appendJSONID(b, m.Stdin)
	b = append(b, `,"stdout":`...)
	b = m.Stdout.appendJSON(b)
	b = append(b, `,"stderr":`...)
	b = m.Stderr.appendJSON(b)
	return append(b, '}')
}

// appendJSON appends the stream as encoding/json would marshal it.
func (s *StreamRef) appendJSON(b []byte) []byte {
	b = append(b, `{"blob":`...)
	b = appendJSONID(b, s.Blob)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, s.Size, 10)
	b = append(b, `,"lines":`...)
	b = strconv.AppendInt(b, s.Lines, 10)
	for _, f := range [...]struct {
		key string
		v   int64
	}{{`,"dropped":`, s.Dropped}, {`,"dropped_at":`, s.DroppedAt}, {`,"lost":`, s.Lost}} {
		if f.v != 0 {
			b = append(b, f.key...)
			b = strconv.AppendInt(b, f.v, 10)
		}
	}
	return append(b, '}')
}

// appendJSON appends the run as encoding/json would marshal it.
func (r *Run) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONID(b, r.ID)
	b = append(b, `,"manifest":`...)
	b = r.Manifest.appendJSON(b)
	b = append(b, `,"interleave":`...)
	b = appendJSONID(b, r.Interleave)
	return append(b, '}')
}

// appendJSONID appends id's MarshalText form, quoted (hex needs no escapes).
func appendJSONID(b []byte, id ID) []byte {
	b = append(b, '"')
	b = hex.AppendEncode(b, id[:])
	return append(b, '"')
}

// appendJSONString appends s quoted as encoding/json quotes it: printable
// ASCII other than the characters it escapes is copied, anything else goes
// through encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
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

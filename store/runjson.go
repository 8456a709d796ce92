package store

import (
	"encoding/hex"
	"encoding/json"

	"github.com/ctxhq/ctx/internal/jsonenc"
)

// The records ctx run stores on every run, encoded by hand: a run's id is
// the BLAKE3 of its manifest's JSON and every run, execution and spool is
// stored as JSON, and encoding/json's first use of a type builds its encoder
// by reflection, which a short-lived `ctx run` pays for each type, every
// time. The bytes are exactly encoding/json's (TestRunJSONIsEncodingJSON):
// ids do not change.

// appendJSON appends the manifest as encoding/json would marshal it.
func (m *Manifest) appendJSON(b []byte) []byte {
	b = append(b, `{"argv":`...)
	b = jsonenc.Strings(b, m.Argv)
	b = append(b, `,"dir":`...)
	b = jsonenc.String(b, m.Dir)
	b = append(b, `,"mode":`...)
	b = jsonenc.String(b, m.Mode)
	b = append(b, `,"exit":`...)
	b = jsonenc.Int(b, m.Exit)
	b = append(b, `,"status":`...)
	b = jsonenc.String(b, string(m.Status))
	if m.Signal != 0 {
		b = append(b, `,"signal":`...)
		b = jsonenc.Int(b, m.Signal)
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
	b = jsonenc.Int(b, s.Size)
	b = append(b, `,"lines":`...)
	b = jsonenc.Int(b, s.Lines)
	for _, f := range [...]struct {
		key string
		v   int64
	}{{`,"dropped":`, s.Dropped}, {`,"dropped_at":`, s.DroppedAt}, {`,"lost":`, s.Lost}} {
		if f.v != 0 {
			b = append(b, f.key...)
			b = jsonenc.Int(b, f.v)
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

// marshal is json.Marshal(e), by hand unless the start time is one
// encoding/json refuses (it then reports the refusal).
func (e *Exec) marshal() ([]byte, error) {
	b := append(make([]byte, 0, 512), `{"key":`...)
	b = jsonenc.String(b, e.Key)
	b = append(b, `,"run":`...)
	b = appendJSONID(b, e.Run)
	b = append(b, `,"argv":`...)
	b = jsonenc.Strings(b, e.Argv)
	b = append(b, `,"start":`...)
	b, ok := jsonenc.Time(b, e.Start)
	if !ok {
		return json.Marshal(e)
	}
	b = append(b, `,"duration":`...)
	b = jsonenc.Int(b, e.Duration)
	b = append(b, `,"host":`...)
	b = jsonenc.String(b, e.Host)
	b = append(b, `,"pid":`...)
	b = jsonenc.Int(b, e.PID)
	b = append(b, `,"version":`...)
	b = jsonenc.String(b, e.Version)
	b = appendOmitEmpty(b, `,"session":`, e.Session)
	b = append(b, `,"cwd":`...)
	b = jsonenc.String(b, e.Cwd)
	if !e.Receipt.IsZero() {
		b = append(b, `,"receipt":`...)
		b = appendJSONID(b, e.Receipt)
	}
	b = append(b, `,"raw_bytes":`...)
	b = jsonenc.Int(b, e.RawBytes)
	b = append(b, `,"shown_bytes":`...)
	b = jsonenc.Int(b, e.ShownBytes)
	b = appendOmitEmpty(b, `,"profile":`, e.Profile)
	b = appendOmitEmpty(b, `,"note":`, e.Note)
	if g := e.Generation; g != nil {
		b = append(b, `,"generation":{"id":`...)
		b = jsonenc.String(b, g.ID)
		b = appendOmitEmpty(b, `,"head":`, g.Head)
		if len(g.Changed) > 0 {
			b = append(b, `,"changed":[`...)
			for i, c := range g.Changed {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"path":`...)
				b = jsonenc.String(b, c.Path)
				b = append(b, `,"status":`...)
				b = jsonenc.String(b, c.Status)
				b = append(b, `,"hash":`...)
				b = jsonenc.String(b, c.Hash)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if g.More != 0 {
			b = append(b, `,"more":`...)
			b = jsonenc.Int(b, g.More)
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// marshal is json.Marshal(m), by hand unless the start time is one
// encoding/json refuses (it then reports the refusal).
func (m *SpoolMeta) marshal() ([]byte, error) {
	b := append(make([]byte, 0, 256), `{"argv":`...)
	b = jsonenc.Strings(b, m.Argv)
	b = append(b, `,"dir":`...)
	b = jsonenc.String(b, m.Dir)
	b = append(b, `,"mode":`...)
	b = jsonenc.String(b, m.Mode)
	b = append(b, `,"started":`...)
	b, ok := jsonenc.Time(b, m.Started)
	if !ok {
		return json.Marshal(m)
	}
	b = append(b, `,"pid":`...)
	b = jsonenc.Int(b, m.PID)
	b = appendOmitEmpty(b, `,"session":`, m.Session)
	b = append(b, `,"cap":`...)
	b = jsonenc.Int(b, m.Cap)
	b = appendOmitEmpty(b, `,"exec":`, m.Exec)
	return append(b, '}'), nil
}

// appendOmitEmpty appends key and s unless s is empty (omitempty).
func appendOmitEmpty(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return jsonenc.String(append(b, key...), s)
}

// appendJSONID appends id's MarshalText form, quoted (hex needs no escapes).
func appendJSONID(b []byte, id ID) []byte {
	b = append(b, '"')
	b = hex.AppendEncode(b, id[:])
	return append(b, '"')
}

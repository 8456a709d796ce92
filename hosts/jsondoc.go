package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// jnode is a JSON value that remembers key order and the exact text of
// scalars, so that editing one key of a settings file leaves every other
// key where it was and every number and string spelled as it was.
type jnode struct {
	kind byte // '{' object, '[' array, 0 scalar
	obj  []jmember
	arr  []*jnode
	raw  json.RawMessage // scalar text, exactly as read
}

type jmember struct {
	key string
	val *jnode
}

var errNotObject = errors.New("top-level value is not an object")

func parseJSON(data []byte) (*jnode, error) {
	var raw json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the top-level value")
	}
	return parseRaw(raw)
}

func parseRaw(raw json.RawMessage) (*jnode, error) {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 {
		return nil, errors.New("empty value")
	}
	switch t[0] {
	case '{':
		ms, err := decodeObject(t)
		if err != nil {
			return nil, err
		}
		n := &jnode{kind: '{', obj: make([]jmember, 0, len(ms))}
		for _, m := range ms {
			v, err := parseRaw(m.raw)
			if err != nil {
				return nil, err
			}
			n.obj = append(n.obj, jmember{key: m.key, val: v})
		}
		return n, nil
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(t, &elems); err != nil {
			return nil, err
		}
		n := &jnode{kind: '[', arr: make([]*jnode, 0, len(elems))}
		for _, e := range elems {
			v, err := parseRaw(e)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, v)
		}
		return n, nil
	}
	return &jnode{raw: append(json.RawMessage(nil), t...)}, nil
}

func newObject() *jnode { return &jnode{kind: '{'} }
func newArray() *jnode  { return &jnode{kind: '['} }

func jsonString(s string) *jnode {
	var b bytes.Buffer
	writeJSONString(&b, s)
	return &jnode{raw: b.Bytes()}
}

func jsonInt(n int) *jnode {
	b, _ := json.Marshal(n)
	return &jnode{raw: b}
}

// get returns the value of key, the last one if the key repeats (as
// JSON.parse does), or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.obj) - 1; i >= 0; i-- {
		if n.obj[i].key == key {
			return n.obj[i].val
		}
	}
	return nil
}

// set replaces the value of key in place, or appends the key.
func (n *jnode) set(key string, v *jnode) {
	for i := len(n.obj) - 1; i >= 0; i-- {
		if n.obj[i].key == key {
			n.obj[i].val = v
			return
		}
	}
	n.obj = append(n.obj, jmember{key: key, val: v})
}

// del removes every occurrence of key.
func (n *jnode) del(key string) {
	out := n.obj[:0]
	for _, m := range n.obj {
		if m.key != key {
			out = append(out, m)
		}
	}
	n.obj = out
}

// str returns a scalar string's value.
func (n *jnode) str() (string, bool) {
	if n == nil || n.kind != 0 {
		return "", false
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil {
		return "", false
	}
	return s, true
}

// equal compares two values structurally (objects by ordered members).
func (n *jnode) equal(m *jnode) bool {
	var a, b bytes.Buffer
	n.encode(&a, "", "")
	m.encode(&b, "", "")
	return bytes.Equal(a.Bytes(), b.Bytes())
}

// encode writes n indented by unit per level, starting at prefix. An empty
// unit writes compact JSON.
func (n *jnode) encode(b *bytes.Buffer, prefix, unit string) {
	nl := func(p string) {
		if unit != "" {
			b.WriteByte('\n')
			b.WriteString(p)
		}
	}
	switch n.kind {
	case '{':
		if len(n.obj) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range n.obj {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(prefix + unit)
			writeJSONString(b, m.key)
			b.WriteByte(':')
			if unit != "" {
				b.WriteByte(' ')
			}
			m.val.encode(b, prefix+unit, unit)
		}
		nl(prefix)
		b.WriteByte('}')
	case '[':
		if len(n.arr) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, v := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(prefix + unit)
			v.encode(b, prefix+unit, unit)
		}
		nl(prefix)
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
}

// indentUnit guesses a file's indentation from its first indented line,
// defaulting to two spaces.
func indentUnit(data []byte) string {
	for _, line := range strings.Split(string(data), "\n")[1:] {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed == line {
			continue
		}
		return line[:len(line)-len(trimmed)]
	}
	return "  "
}

// formatJSON renders a document the way its source was laid out.
func formatJSON(n *jnode, source []byte) []byte {
	var b bytes.Buffer
	n.encode(&b, "", indentUnit(source))
	b.WriteByte('\n')
	return b.Bytes()
}

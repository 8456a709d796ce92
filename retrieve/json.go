package retrieve

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/jsondoc"
	"github.com/ctxhq/ctx/store"
)

// JSON is the region as a JSON object: its handle, range, size, form and
// text (base64 when not UTF-8), and the plain-text note. Over the inline
// limit it is an error unless o.Full.
func JSON(reg *Region, o Options) (map[string]any, string, error) {
	if !o.Full && reg.OverLimit(o.Limit) {
		return nil, "", fmt.Errorf("%s is %s: over the inline limit; narrow the range or add --full: %w", reg.Describe(), contract.Size(reg.size), store.ErrRange)
	}
	r, err := reg.Reader()
	if err != nil {
		return nil, "", err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, "", err
	}
	out := map[string]any{"handle": reg.Describe(), "bytes": len(data), "form": string(o.Form)}
	note := ""
	if o.Form == Plain {
		var buf bytes.Buffer
		ps, _ := lines.Plain(&buf, bytes.NewReader(data))
		data = buf.Bytes()
		if note = PlainNote(ps); note != "" {
			out["note"] = note
		}
	}
	if reg.unit == 'L' {
		out["from_line"], out["to_line"] = reg.from, reg.to
	} else {
		out["from_byte"], out["to_byte"] = reg.from, reg.to
	}
	if utf8.Valid(data) {
		out["text"] = string(data)
	} else {
		out["base64"] = base64.StdEncoding.EncodeToString(data)
	}
	return out, note, nil
}

// JSONPart prints the JSON value at o.Pointer or the JSON Lines records
// o.Records (A:B) of the region, exactly as stored, bounded by the inline
// limit unless o.Full.
func JSONPart(w io.Writer, reg *Region, o Options) error {
	if o.Pointer != "" && o.Records != "" {
		return &UsageError{errors.New("give --json-pointer or --records, not both")}
	}
	r, err := reg.Reader()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	out := io.Writer(&buf)
	if o.Full {
		out = w
	}
	if o.Pointer != "" {
		err = jsondoc.Pointer(r, o.Pointer, out)
	} else {
		sel, perr := ParseSelector(o.Records, 'L')
		if perr != nil {
			return &UsageError{fmt.Errorf("--records: %w", perr)}
		}
		to := sel.To
		if to == 0 {
			to = 1 << 40
		}
		err = jsondoc.Records(r, int(sel.From), int(to), out)
	}
	var pe *jsondoc.PointerError
	var re *jsondoc.RangeError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", err, store.ErrRange)
	case errors.As(err, &re) && o.Records != "" && strings.HasSuffix(o.Records, ":"):
		err = nil // "A:" runs to the end: the end is not an error
	case errors.As(err, &re):
		if !o.Full {
			_, _ = w.Write(buf.Bytes())
		}
		return fmt.Errorf("%s: %w", err, store.ErrRange)
	}
	if err != nil {
		return err
	}
	if o.Full {
		return nil
	}
	if buf.Len() > ByteLimit {
		return fmt.Errorf("the selected JSON is %s, over the inline limit of %s: select a deeper pointer or fewer records, or add --full: %w",
			contract.Size(int64(buf.Len())), contract.Size(ByteLimit), store.ErrRange)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

package retrieve

import (
	"fmt"
	"io"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/text"
)

// Binary reports whether the region's bytes are not text, and what they are
// then ("ELF executable", "text/plain; charset=utf-16le"). A region is judged
// on its first evidence.HeadSize bytes as the digest judges a stream's head,
// and a part of a stream whose head is text is text too: the whole stream
// prints, so its lines do (a Latin-1 line holds more than 1% of invalid
// UTF-8 on its own), while text lines inside an output whose head is binary
// still read as text. Plain text of binary bytes is not their meaning:
// folding a carriage return or dropping an ESC byte changes an executable,
// and a terminal cannot show them.
func (reg *Region) Binary() (kind string, binary bool, err error) {
	head, err := headOf(reg.rawReader)
	if err != nil || lines.Printable(head) {
		return "", false, err
	}
	if reg.unit != 0 {
		whole, err := headOf(reg.wholeReader)
		if err != nil || lines.Printable(whole) {
			return "", false, err
		}
	}
	return text.Sniff(head), true, nil
}

// headOf is the first evidence.HeadSize bytes open gives.
func headOf(open func() (io.Reader, error)) ([]byte, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(r, evidence.HeadSize))
}

// wholeReader reads the whole stream or blob the region is part of.
func (reg *Region) wholeReader() (io.Reader, error) {
	if reg.openMerged != nil {
		return reg.openMerged()
	}
	return reg.blob.Reader(), nil
}

// BinaryError is Print's refusal to print a region that is not text as
// text (Options.RefuseBinary): the front end adds how to read it instead.
type BinaryError struct {
	Handle string // the region, as Describe gives it
	Kind   string // what it is, as the sniffer names it
}

func (e *BinaryError) Error() string {
	return fmt.Sprintf("%s is not text (%s): printed as text its bytes would be changed, and a terminal cannot show them", e.Handle, e.Kind)
}

// UTF16 reports whether the content starts with a UTF-16 byte-order mark
// (text that iconv -f UTF-16 turns into UTF-8).
func (e *BinaryError) UTF16() bool { return strings.Contains(e.Kind, "charset=utf-16") }

// refuseBinary returns a *BinaryError when o asks for the region as text
// and it is not text; a hexdump, grep and JSON selectors read any bytes.
// JSON carries them exactly (base64), so for JSON it turns the form raw.
func (reg *Region) refuseBinary(o *Options) error {
	if !o.RefuseBinary || o.Hex || o.Grep != nil || o.Pointer != "" || o.Records != "" {
		return nil
	}
	kind, binary, err := reg.Binary()
	if err != nil || !binary {
		return err
	}
	if o.JSON {
		o.Form = Raw
		return nil
	}
	return &BinaryError{Handle: reg.Describe(), Kind: kind}
}

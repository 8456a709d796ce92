package secrets

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// maxLine is the longest line redacted whole; a longer one is redacted in
// pieces of this size (a secret cut by a piece boundary may then be missed,
// see docs/secrets.md).
const maxLine = 1 << 20

// Reader redacts what it reads, line by line.
type Reader struct {
	Redactor
	src     *bufio.Reader
	buf     bytes.Buffer
	done    bool
	err     error
	scratch []byte
}

// NewReader returns a Reader of r's bytes with secrets redacted. Prime its
// Redactor with the lines before r's first when r starts inside a stream.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: bufio.NewReaderSize(r, 64<<10)}
}

func (r *Reader) Read(p []byte) (int, error) {
	for r.buf.Len() == 0 {
		if r.done {
			return 0, r.err
		}
		r.fill()
	}
	return r.buf.Read(p)
}

// fill redacts the next line (or piece of an over-long line) into buf.
func (r *Reader) fill() {
	line := r.scratch[:0]
	defer func() { r.scratch = line[:0] }()
	for {
		chunk, err := r.src.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull && len(line) < maxLine {
			continue
		}
		if err != nil && err != bufio.ErrBufferFull {
			r.done = true
			if err != io.EOF {
				r.err = err
			} else {
				r.err = io.EOF
			}
		}
		break
	}
	body, nl := line, []byte(nil)
	if n := len(body); n > 0 && body[n-1] == '\n' {
		body, nl = body[:n-1], body[n-1:]
	}
	r.buf.Write(r.Line(body))
	r.buf.Write(nl)
}

// Writer redacts what is written through it, line by line; Close (or Flush)
// writes a last line that has no newline.
type Writer struct {
	Redactor
	dst     io.Writer
	partial []byte
}

// NewWriter returns a Writer that redacts into w.
func NewWriter(w io.Writer) *Writer { return &Writer{dst: w} }

func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			if len(w.partial) >= maxLine {
				if err := w.Flush(); err != nil {
					return 0, err
				}
			}
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
		}
		out := append(w.Line(line), '\n')
		w.partial = w.partial[:0]
		if _, err := w.dst.Write(out); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
	return n, nil
}

// Flush writes the pending part of a line, redacted.
func (w *Writer) Flush() error {
	if len(w.partial) == 0 {
		return nil
	}
	out := w.Line(w.partial)
	w.partial = w.partial[:0]
	_, err := w.dst.Write(out)
	return err
}

// Close flushes; it does not close the underlying writer.
func (w *Writer) Close() error { return w.Flush() }

// secretFlag names the flags whose next argument is a secret:
// --password VALUE, --token VALUE, -p VALUE is too ambiguous to count.
var secretFlag = strings.NewReplacer("-", "", "_", "")

// Argv returns argv with secrets redacted: in each word, and in the word
// after a flag that names a secret (--password VALUE).
func Argv(argv []string) []string {
	var out []string
	for i, a := range argv {
		r := String(a)
		switch {
		case i == 0 || r != a || strings.HasPrefix(a, "-"):
		case isSecretFlag(argv[i-1]) && !placeholder(a) && len(a) >= 4:
			r = Marker("secret-argument", []byte(a))
		case (argv[i-1] == "-u" || argv[i-1] == "--user") && strings.Contains(a, ":"):
			// curl -u user:password
			user, pw, _ := strings.Cut(a, ":")
			if len(pw) >= 4 && !placeholder(pw) {
				r = user + ":" + Marker("secret-argument", []byte(pw))
			}
		}
		if r != a && out == nil {
			out = append([]string(nil), argv...)
		}
		if out != nil {
			out[i] = r
		}
	}
	if out == nil {
		return argv
	}
	return out
}

func isSecretFlag(a string) bool {
	if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
		return false
	}
	name := strings.ToLower(secretFlag.Replace(a))
	switch name {
	case "password", "passwd", "pass", "pwd", "token", "secret", "apikey", "accesstoken", "authtoken", "clientsecret",
		"secretkey", "accesskey", "privatekey", "passphrase", "bearer", "auth", "authorization", "credentials", "cred":
		return true
	}
	return strings.HasSuffix(name, "password") || strings.HasSuffix(name, "token") || strings.HasSuffix(name, "secret")
}

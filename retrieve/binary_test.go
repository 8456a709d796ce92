package retrieve

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// TestBinaryIsNotPrintedAsText: an executable's bytes (with a carriage
// return and ESC among them) and UTF-16 text are refused as text when the
// caller reads for text (before, plain text folded the CR and dropped the
// ESC: the bytes an agent or a redirect got were not the stored ones), while
// raw, hex, grep and JSON give what is stored.
func TestBinaryIsNotPrintedAsText(t *testing.T) {
	elf := "\x7fELF\x02\x01\x01\x00\x00\x00abc\rdef\x1b[2J\x00\x00\n\x00\x01\x02"
	utf16 := "\xff\xfeh\x00i\x00\r\x00\n\x00"
	for _, tt := range []struct {
		name, data string
		utf16      bool
	}{{"ELF", elf, false}, {"UTF-16LE", utf16, true}} {
		t.Run(tt.name, func(t *testing.T) {
			st, tg := stored(t, tt.data, "")
			var out bytes.Buffer
			_, err := Get(context.Background(), st, tg, &out, Options{Form: Plain, RefuseBinary: true})
			var be *BinaryError
			if !errors.As(err, &be) || be.UTF16() != tt.utf16 || out.Len() != 0 {
				t.Fatalf("plain: err %v (utf16 %v), printed %q", err, be != nil && be.UTF16(), out.String())
			}
			out.Reset()
			if _, err := Get(context.Background(), st, tg, &out, Options{Form: Raw}); err != nil || out.String() != tt.data {
				t.Errorf("raw: %v %q", err, out.String())
			}
			out.Reset()
			if _, err := Get(context.Background(), st, tg, &out, Options{Form: Plain, RefuseBinary: true, Hex: true}); err != nil || !bytes.Contains(out.Bytes(), []byte("00000000  ")) {
				t.Errorf("hex: %v %q", err, out.String())
			}
			out.Reset()
			if _, err := Get(context.Background(), st, tg, &out, Options{Form: Plain, RefuseBinary: true, Grep: regexp.MustCompile("h")}); err != nil && !errors.Is(err, ErrNoMatch) {
				t.Errorf("grep: %v", err)
			}
			out.Reset()
			if _, err := Get(context.Background(), st, tg, &out, Options{Form: Plain, RefuseBinary: true, JSON: true}); err != nil {
				t.Fatalf("json: %v", err)
			}
			var v struct {
				Text   *string `json:"text"`
				Base64 string  `json:"base64"`
				Form   string  `json:"form"`
			}
			if err := json.Unmarshal(out.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			got, _ := base64.StdEncoding.DecodeString(v.Base64)
			if v.Text != nil {
				got = []byte(*v.Text)
			}
			if string(got) != tt.data || v.Form != "raw" {
				t.Errorf("json carries %q (form %s), want the stored bytes", got, v.Form)
			}
		})
	}
	// Text is printed as before.
	st, tg := stored(t, "ok\r\n", "")
	var out bytes.Buffer
	if _, err := Get(context.Background(), st, tg, &out, Options{Form: Plain, RefuseBinary: true}); err != nil || out.String() != "ok\r\n" {
		t.Errorf("text: %v %q", err, out.String())
	}
}

// TestGrepLongLineSaysWhereNotHowMuch: a matching line longer than the
// scanner's 64 KiB is printed clipped with its handle; before, the mark
// said "[+64515 B]", the rest of the scanned part only, for a line of 1 MB.
func TestGrepLongLineSaysWhereNotHowMuch(t *testing.T) {
	long := "ERROR " + strings.Repeat("x", 1<<20) + "\nshort ERROR " + strings.Repeat("y", 2000) + "\n"
	st, tg := stored(t, long, "")
	var out bytes.Buffer
	if _, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("ERROR")}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("grep printed %d lines:\n%s", len(lines), out.String())
	}
	if !strings.HasSuffix(lines[0], "… [longer than 64.0 KiB: ctx get "+tg.Run.Handle()+"#stdout:L1]") || strings.Contains(lines[0], "[+") {
		t.Errorf("long line: %q", lines[0][max(0, len(lines[0])-120):])
	}
	// A line clipped only for display still says exactly how much was cut.
	if !strings.HasSuffix(lines[1], fmt.Sprintf("… [+%d B]", len("2:short ERROR ")+2000-len("2:")-1024)) {
		t.Errorf("clipped line: %q", lines[1][max(0, len(lines[1])-60):])
	}
}

// TestLatin1LineInTextStream: a text output holding one Latin-1 line (an
// old tool's message, "échec" as \xe9chec) is text; the whole stream prints
// as stored, and so must the line, or any range around it. Before, the
// region was judged on its own bytes: a few invalid UTF-8 bytes are more than
// 1% of one line, so the handle the digest gave for the failure
// (run:…#stdout:L2001) was refused as "not text" and exited 1.
func TestLatin1LineInTextStream(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "%d\n", i+1)
	}
	bad := "error: failed \xe9t\xe9 caf\xe9\n"
	b.WriteString(bad)
	b.WriteString("done\n")
	st, tg := stored(t, b.String(), "")
	for _, rng := range []store.Range{{}, {Unit: 'L', From: 2001, To: 2001}, {Unit: 'L', From: 1990, To: 2002}} {
		var out bytes.Buffer
		if _, err := Get(context.Background(), st, tg, &out, Options{Form: Plain, RefuseBinary: true, Range: rng, Full: true}); err != nil {
			t.Errorf("%v: %v", rng, err)
			continue
		}
		if !strings.Contains(out.String(), bad) {
			t.Errorf("%v: the line is not printed as stored: %q", rng, out.String())
		}
	}
	// A binary stream stays refused, in part as in whole.
	elf := "\x7fELF\x02\x01\x01\x00\x00\x00abc\rdef\x1b[2J\x00\x00\n\x00\x01\x02\n"
	st, tg = stored(t, elf, "")
	for _, rng := range []store.Range{{}, {Unit: 'L', From: 1, To: 1}} {
		var be *BinaryError
		if _, err := Get(context.Background(), st, tg, io.Discard, Options{Form: Plain, RefuseBinary: true, Range: rng}); !errors.As(err, &be) {
			t.Errorf("binary %v: %v, want a BinaryError", rng, err)
		}
	}
}

// TestGrepSaysWhatLongLinesHide: grep matches a line in its first
// lines.Max bytes; a match past them (an error at the end of a 200 KiB JSON
// line) is not found. Grep must say so, with the line's handle, rather than
// print "no line matches" as if the whole output had been searched.
func TestGrepSaysWhatLongLinesHide(t *testing.T) {
	data := "short line\n" + strings.Repeat("x", 200<<10) + ` "error": "disk full"` + "\nanother\n"
	for _, minFrames := range []int{2, 1 << 30} {
		parallelMinFrames = minFrames
		st, tg := stored(t, data, "")
		var out bytes.Buffer
		_, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("disk full"), Range: store.Range{Unit: 'L', From: 1}})
		if !errors.Is(err, ErrNoMatch) {
			t.Errorf("frames %d: %v, want ErrNoMatch", minFrames, err)
		}
		want := "1 line longer than 64.0 KiB was searched only in its first 64.0 KiB: ctx get " + tg.Run.Handle() + "#stdout:L2 --raw"
		if !strings.Contains(out.String(), want) || strings.HasPrefix(out.String(), "no line of") {
			t.Errorf("frames %d: grep says %q, want it to name %q", minFrames, out.String(), want)
		}
		// A match elsewhere: the long line is still named.
		out.Reset()
		if _, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("another")}); err != nil || !strings.Contains(out.String(), want) {
			t.Errorf("frames %d: %v %q", minFrames, err, out.String())
		}
	}
	// Three long lines, one crossing frames: counted once each, in both paths.
	data = strings.Repeat("y", 600<<10) + "\nok\n" + strings.Repeat("z", 100<<10) + "\n" + strings.Repeat("w", 70<<10) + "\n"
	var got []string
	for _, minFrames := range []int{2, 1 << 30} {
		parallelMinFrames = minFrames
		st, tg := stored(t, data, "")
		var out bytes.Buffer
		_, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("ok"), Range: store.Range{Unit: 'L', From: 1}})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.ReplaceAll(out.String(), tg.Run.Handle(), "H"))
	}
	parallelMinFrames = 2
	if want := "2:ok\n3 lines longer than 64.0 KiB were searched only in their first 64.0 KiB (the first: ctx get H#stdout:L1 --raw holds it whole)\n"; got[0] != want || got[1] != want {
		t.Errorf("parallel %q, sequential %q, want %q", got[0], got[1], want)
	}
}

package sniff

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestSameAsNetHTTP holds the copy to net/http's answer: on every signature's
// shape (with and without leading white space, cut short, padded), on the
// seeds' files, and on random and mutated bytes.
func TestSameAsNetHTTP(t *testing.T) {
	heads := [][]byte{nil, {}, []byte(" "), []byte("\x00"), []byte("plain text\n")}
	for _, s := range []string{
		"<!DOCTYPE HTML>", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE",
		"<TITLE", "<B", "<BODY", "<BR", "<P", "<!--", "<?xml", "%PDF-", "%!PS-Adobe-", "\xFE\xFF", "\xFF\xFE", "\xEF\xBB\xBF",
		"\x00\x00\x01\x00", "\x00\x00\x02\x00", "BM", "GIF87a", "GIF89a", "RIFF\x00\x00\x00\x00WEBPVP", "\x89PNG\x0D\x0A\x1A\x0A",
		"\xFF\xD8\xFF", "FORM\x00\x00\x00\x00AIFF", "ID3", "OggS\x00", "MThd\x00\x00\x00\x06", "RIFF\x00\x00\x00\x00AVI ",
		"RIFF\x00\x00\x00\x00WAVE", "\x00\x00\x00\x18ftypmp42", "\x1A\x45\xDF\xA3", "Rar!\x1A\x07\x00", "Rar!\x1A\x07\x01\x00",
		"\x00asm", "PK\x03\x04", "\x1F\x8B\x08", "wOFF", "wOF2", "\x00\x01\x00\x00", "OTTO", "ttcf", "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00LP",
		"{\"a\":1}", "#!/bin/sh\n", "\x1b[31mred\x1b[0m\n",
	} {
		for _, pre := range []string{"", "  \t\n", "\r\x0c"} {
			for _, post := range []string{"", " ", ">", "\x00", "\x80\x81", "text after the signature\n"} {
				b := []byte(pre + s + post)
				heads = append(heads, b, b[:len(b)/2], bytes.ToLower(b))
			}
		}
	}
	seeds, _ := filepath.Glob("../../../shared/seeds/*")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			heads = append(heads, b[:min(len(b), 600)])
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		b := make([]byte, r.IntN(700))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		heads = append(heads, b)
		if len(heads) > 100 {
			m := bytes.Clone(heads[r.IntN(100)])
			if len(m) > 0 {
				m[r.IntN(len(m))] = byte(r.IntN(256))
			}
			heads = append(heads, m)
		}
	}
	kinds := map[string]bool{}
	for _, h := range heads {
		want := http.DetectContentType(h)
		if got := DetectContentType(h); got != want {
			t.Errorf("DetectContentType(%q) = %q, net/http says %q", h, got, want)
		}
		kinds[want] = true
	}
	if len(kinds) < 30 {
		t.Errorf("only %d distinct types among the cases: the cases do not exercise the signatures", len(kinds))
	}
}

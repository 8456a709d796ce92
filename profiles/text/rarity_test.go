package text

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// mapRarity is the rarity of text profile version 1 as first written, a Go
// map from each shape to its count and first line (digits masked byte by
// byte): what the table must answer exactly as.
type mapRarity struct {
	seen   int
	shapes map[string]int
	first  map[string]rareLine
	off    bool
}

var digitRuns = regexp.MustCompile(`[0-9]+`)

func (r *mapRarity) see(n int, line []byte) {
	r.seen++
	clean := shapeText(line)
	if r.off || len(clean) == 0 {
		return
	}
	var masked []byte
	for i, c := range clean {
		if d := '0' <= c && c <= '9'; !d || i == 0 || clean[i-1] < '0' || clean[i-1] > '9' {
			if d {
				c = '#'
			}
			masked = append(masked, c)
		}
	}
	key := string(masked)
	if r.shapes[key] > 0 {
		r.shapes[key]++
		return
	}
	r.shapes[key] = 1
	if len(r.shapes) > maxShapes {
		r.off, r.shapes, r.first = true, nil, nil
		return
	}
	r.first[key] = rareLine{n: n, text: strings.ToValidUTF8(string(clean), "\uFFFD")}
}

func (r *mapRarity) lines() []rareLine {
	if r.off || r.seen < minRareLines || len(r.shapes)*20 > r.seen {
		return nil
	}
	var out []rareLine
	for k, c := range r.shapes {
		if c == 1 {
			out = append(out, r.first[k])
		}
	}
	if len(out) > maxRare {
		return nil
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n < out[j].n })
	return out
}

// sameRarity feeds the lines to both and fails t where the rare lines
// differ; it returns how many there were.
func sameRarity(t *testing.T, name string, ls [][]byte) int {
	t.Helper()
	r, ref := newRarity(), &mapRarity{shapes: map[string]int{}, first: map[string]rareLine{}}
	for i, l := range ls {
		r.see(i+1, l)
		ref.see(i+1, l)
	}
	got, want := r.lines(), ref.lines()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: rare lines %v, want %v", name, got, want)
	}
	if r.off != ref.off {
		t.Fatalf("%s: off %v, want %v", name, r.off, ref.off)
	}
	return len(got)
}

// TestRarityAsMap holds the shape table to the map it replaced: on every
// real output here and in the corpus (whole, and its first 300 lines
// repeated with one changed), and on streams built at the edges — as many
// shapes as allowed and one more, as many rare lines as allowed and one
// more, one shape in twenty, long lines, escapes, invalid UTF-8.
func TestRarityAsMap(t *testing.T) {
	var files []string
	for _, pat := range []string{"testdata/realrun/*/stdout", "../../../shared/corpus/*/*", "../../../shared/corpus/*/*/*"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	found := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil || len(b) == 0 {
			continue
		}
		ls := bytes.Split(b, []byte("\n"))
		found += sameRarity(t, p, ls)
		// Repeated until repetitive (its first 300 lines), one line made odd.
		var rep [][]byte
		for len(rep) < 20*min(len(ls), 300) {
			rep = append(rep, ls[:min(len(ls), 300)]...)
		}
		rep[len(rep)/2] = []byte("an odd line " + p)
		found += sameRarity(t, p+" repeated", rep)
	}
	if len(files) < 30 || found < 30 {
		t.Fatalf("%d files, %d rare lines: too few to compare", len(files), found)
	}
	rng := rand.New(rand.NewPCG(21, 2))
	for _, c := range []struct{ shapes, rare int }{{maxShapes - maxRare, maxRare}, {maxShapes - maxRare, maxRare + 1},
		{maxShapes + 1 - maxRare, maxRare}, {40, 0}, {10, 3}, {3, maxRare + 1}} {
		var ls [][]byte
		for i := 0; i < 20*(c.shapes+c.rare)+1; i++ {
			ls = append(ls, fmt.Appendf(nil, "shape %s %d", strings.Repeat("x", i%c.shapes), rng.IntN(1000)))
		}
		for i := 0; i < c.rare; i++ {
			ls[rng.IntN(len(ls))] = fmt.Appendf(nil, "  rare \x1b[1m%s\r  \xff%d", strings.Repeat("y", i+1), i)
		}
		ls = append(ls, bytes.Repeat([]byte("long 1"), 200), []byte("   "), nil)
		sameRarity(t, fmt.Sprintf("%d shapes, %d rare", c.shapes, c.rare), ls)
	}
}

// FuzzRarity: the table and the map agree on any stream.
func FuzzRarity(f *testing.F) {
	f.Add([]byte("a 1\na 2\nb\n"), uint8(100))
	f.Add([]byte("x\r\n\x1b[2Ky 12\n\n  \n"), uint8(250))
	f.Fuzz(func(t *testing.T, b []byte, times uint8) {
		ls := bytes.Split(b, []byte("\n"))
		var rep [][]byte
		for i := 0; i < int(times); i++ {
			rep = append(rep, ls...)
		}
		if len(rep) > 0 {
			rep[len(rep)-1] = append([]byte("last "), rep[len(rep)-1]...)
		}
		sameRarity(t, "fuzz", rep)
	})
}

// TestAppendMasked: runs of digits become one '#', everything else stays,
// after what out held.
func TestAppendMasked(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.IntN(60))
		digits := rng.IntN(4) // in eight: none, one, two or three
		for k := range b {
			b[k] = "a# \xff:/z~"[rng.IntN(8)]
			if rng.IntN(8) < digits {
				b[k] = "0915"[rng.IntN(4)]
			}
		}
		want := "pre" + digitRuns.ReplaceAllString(string(b), "#")
		if got := string(appendMasked([]byte("pre"), b)); got != want {
			t.Fatalf("appendMasked(%q) = %q, want %q", b, got, want)
		}
	}
}

// TestFirstDigit: every byte value at every place of a word, among bytes
// next to the digits' range and beyond ASCII, and digits after it.
func TestFirstDigit(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := range 11 {
			b := []byte("/:\xff\xaf\xb0 a/:\xb9z")
			b[pos] = byte(c)
			want := len(b)
			if '0' <= c && c <= '9' {
				want = pos
			}
			if got := firstDigit(b); got != want {
				t.Fatalf("firstDigit(%q) = %d, want %d", b, got, want)
			}
			if got := firstDigit(append(b, '7')); want == len(b) && got != len(b) {
				t.Fatalf("firstDigit(%q7) = %d, want %d", b, got, len(b))
			}
		}
	}
}

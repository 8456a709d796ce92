package logs

import "sync"

// wordFilter tells at a glance that a word is not one of a set
// of words: it records, for each length, which first and which last bytes
// (each folded to 5 bits, which folds case) the set's words of that
// length have. A word it lets through may still not be in the set; one it
// refuses is not, in any case.
type wordFilter struct {
	first, last [maxFilterLen + 1]uint32
}

// maxFilterLen is the longest word a wordFilter holds; a longer word passes.
const maxFilterLen = 31

func (f *wordFilter) add(w string) {
	if len(w) == 0 || len(w) > maxFilterLen {
		return
	}
	f.first[len(w)] |= 1 << (w[0] & 31)
	f.last[len(w)] |= 1 << (w[len(w)-1] & 31)
}

// may reports whether w may be one of the words added.
func (f *wordFilter) may(w []byte) bool {
	if len(w) > maxFilterLen {
		return true
	}
	return len(w) > 0 && f.first[len(w)]&(1<<(w[0]&31)) != 0 && f.last[len(w)]&(1<<(w[len(w)-1]&31)) != 0
}

var (
	failFilterOnce sync.Once
	failFilter     wordFilter
	// failPairKeys holds failurePairs as "first second" strings, which a
	// byte slice can be looked up by without allocating.
	failPairKeys map[string]bool
)

// failureFilter returns the filter of the words failure looks up: the
// failure words and the second words of the failure pairs. It is built
// from them on first use.
func failureFilter() *wordFilter {
	failFilterOnce.Do(func() {
		for w := range failureWords {
			failFilter.add(w)
		}
		failPairKeys = make(map[string]bool, len(failurePairs))
		for p := range failurePairs {
			failFilter.add(p[1])
			failPairKeys[p[0]+" "+p[1]] = true
		}
	})
	return &failFilter
}

// isFailurePair reports whether the lower-cased words prev and cur are one
// of failurePairs; failureFilter must have been called.
func isFailurePair(prev, cur []byte) bool {
	var kb [64]byte
	k := append(append(append(kb[:0], prev...), ' '), cur...)
	return failPairKeys[string(k)]
}

// lowerASCII appends w to dst with A–Z lower-cased.
func lowerASCII(dst, w []byte) []byte {
	for _, c := range w {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// wordBytes are the bytes of the words failure reads: letters, digits,
// apostrophes, '_' and every byte of a multi-byte rune.
var wordBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = isLetter(byte(c)) || isDigit(byte(c)) || c == '\'' || c == '_' || c >= 0x80
	}
	return t
}()

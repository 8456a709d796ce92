package logs

import "sync"

// wordFilter tells at a glance that a word is not one of a set of words:
// it records, for each length, which first, second and last bytes (each
// folded to 5 bits, which folds case) the set's words of that length have.
// A word it lets through may still not be in the set; one it refuses is
// not, in any case.
type wordFilter struct {
	first, second, last [maxFilterLen + 1]uint32
}

// maxFilterLen is the longest word a wordFilter holds; a longer word passes.
const maxFilterLen = 31

func (f *wordFilter) add(w string) {
	if len(w) == 0 || len(w) > maxFilterLen {
		return
	}
	n := len(w)
	f.first[n] |= 1 << (w[0] & 31)
	f.second[n] |= 1 << (w[min(1, n-1)] & 31)
	f.last[n] |= 1 << (w[n-1] & 31)
}

// may reports whether w may be one of the words added.
func (f *wordFilter) may(w []byte) bool {
	n := len(w)
	if n > maxFilterLen {
		return true
	}
	return n > 0 && f.first[n]&(1<<(w[0]&31)) != 0 && f.second[n]&(1<<(w[min(1, n-1)]&31)) != 0 && f.last[n]&(1<<(w[n-1]&31)) != 0
}

// failureWordFilters are the filters of the words failure looks up.
type failureWordFilters struct {
	words, firsts, seconds wordFilter // failure words; pairs' first and second words
}

// The filters of the words failure looks up, built from its maps on first
// use (failureFilters).
var (
	failFilterOnce sync.Once
	failFilters    failureWordFilters
	// failPairKeys holds failurePairs as "first second" strings, which a
	// byte slice can be looked up by without allocating.
	failPairKeys map[string]bool
)

// failureFilters returns the filters of failure's words: the failure
// words, and the first and second words of the failure pairs.
func failureFilters() *failureWordFilters {
	failFilterOnce.Do(func() {
		for w := range failureWords {
			failFilters.words.add(w)
		}
		failPairKeys = make(map[string]bool, len(failurePairs))
		for p := range failurePairs {
			failFilters.firsts.add(p[0])
			failFilters.seconds.add(p[1])
			failPairKeys[p[0]+" "+p[1]] = true
		}
	})
	return &failFilters
}

// isFailurePair reports whether the lower-cased words prev and cur are one
// of failurePairs; failureFilters must have been called.
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

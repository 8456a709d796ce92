package bench

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

var (
	encOnce sync.Once
	enc     tokenizer.Codec
	encErr  error
)

// Tokens counts text in o200k_base tokens. The vocabulary is embedded (it works
// offline) and loaded on first use only.
func Tokens(text []byte) (int, error) {
	encOnce.Do(func() { enc, encErr = tokenizer.Get(tokenizer.O200kBase) })
	if encErr != nil {
		return 0, fmt.Errorf("load o200k_base: %w", encErr)
	}
	if len(text) == 0 {
		return 0, nil
	}
	// Count in chunks at line boundaries: the encoder's cost grows with the
	// input it holds at once, and a token never spans a newline here in a way
	// that changes the count by more than one per chunk.
	total := 0
	const chunk = 256 << 10
	for len(text) > 0 {
		n := min(len(text), chunk)
		if n < len(text) {
			for n > chunk/2 && text[n-1] != '\n' {
				n--
			}
		}
		ids, _, err := enc.Encode(string(text[:n]))
		if err != nil {
			return 0, err
		}
		total += len(ids)
		text = text[n:]
	}
	return total, nil
}

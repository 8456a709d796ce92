package store

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// A checked append sees every earlier row, and a refusal appends nothing:
// 16 goroutines racing for "at most one row saying first" store exactly one.
func TestAppendLayerRowChecked(t *testing.T) {
	s := layerStore(t)
	refuse := errors.New("already taken")
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.AppendLayerRowChecked("test.log", func(rows [][]byte, seq uint64) ([]byte, error) {
				if uint64(len(rows)) != seq-1 {
					return nil, fmt.Errorf("seq %d after %d rows", seq, len(rows))
				}
				for _, r := range rows {
					if string(r[:5]) == "first" {
						return nil, refuse
					}
				}
				return fmt.Appendf(nil, "first %d", i), nil
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case !errors.Is(err, refuse):
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	n := 0
	if err := s.LayerRows("test.log", func(uint64, []byte) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if won != 1 || n != 1 {
		t.Fatalf("%d appends succeeded, %d rows stored; want 1 and 1", won, n)
	}
}

package race

import (
	"sync"
	"testing"
)

func TestRace(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { x++; wg.Done() }()
	go func() { x++; wg.Done() }()
	wg.Wait()
	t.Log(x)
}

func TestNoRace(t *testing.T) {}

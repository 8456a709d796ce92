package panicpkg

import "testing"

func TestBefore(t *testing.T) {}

func TestPanic(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}

func TestAfter(t *testing.T) {}

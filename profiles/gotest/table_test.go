package gotest

import (
	"fmt"
	"math/rand"
	"testing"
	"unsafe"
)

// TestRecTable drives a records table and a Go map with the same random
// inserts, replacements and removals (through growth and backward-shift
// deletion) and checks that they hold the same records after each step.
func TestRecTable(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	var tab recTable
	ref := map[string]*rec{}
	for step := 0; step < 20000; step++ {
		name := fmt.Sprintf("Test%d/sub_%d", rnd.Intn(3000), rnd.Intn(3))
		h := hashName(name)
		i, r := tab.find(name, h)
		if r != ref[name] {
			t.Fatalf("step %d: find(%q) = %p, want %p", step, name, r, ref[name])
		}
		switch {
		case r != nil && rnd.Intn(2) == 0:
			tab.remove(r, r.hash)
			delete(ref, name)
		default: // insert, or replace as a rerun does
			nr := &rec{name: name, hash: h}
			tab.set(i, h, nr)
			ref[name] = nr
		}
		if tab.len() != len(ref) {
			t.Fatalf("step %d: len %d, want %d", step, tab.len(), len(ref))
		}
	}
	seen := 0
	tab.each(func(r *rec) {
		seen++
		if ref[r.name] != r {
			t.Errorf("each: %q is not the latest record", r.name)
		}
	})
	for name, r := range ref {
		if tab.get(name) != r {
			t.Errorf("get(%q) lost its record", name)
		}
	}
	if seen != len(ref) {
		t.Errorf("each saw %d records, want %d", seen, len(ref))
	}
	drained := 0
	tab.drain(func(*rec) { drained++ })
	if drained != len(ref) || tab.len() != 0 || tab.get("Test1/sub_0") != nil {
		t.Errorf("drain gave %d records of %d and left %d", drained, len(ref), tab.len())
	}
	for _, s := range tab.slots {
		if s.r != nil {
			t.Fatal("drain left a slot filled")
		}
	}
}

// TestRecSize keeps a record in its allocation size class (224 bytes)
// with its hash: a run has hundreds of thousands.
func TestRecSize(t *testing.T) {
	if n := unsafe.Sizeof(rec{}); n > 224 {
		t.Errorf("a rec is %d bytes, want at most 224", n)
	}
}

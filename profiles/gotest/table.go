package gotest

import "hash/maphash"

// recTable is a block's latest record of each test name: an open-addressed
// table (linear probing) whose slots keep each record's hash. A -v run
// looks a name up and then inserts it for nearly every RUN header, and
// deletes most records again past the item cap; with the slot found once
// (find, then set) and the hash kept, a header hashes its name once and a
// delete hashes nothing, where a Go map hashed the name for each of the
// three.
type recTable struct {
	slots []recSlot // len a power of two, or 0
	n     int
}

// recSlot is one slot: r nil when empty.
type recSlot struct {
	hash uint64
	r    *rec
}

// nameSeed seeds the names' hash. It only orders the slots, which nothing
// emitted depends on (records are emitted in creation order).
var nameSeed = maphash.MakeSeed()

func hashName(name string) uint64 { return maphash.String(nameSeed, name) }

// len is the number of records held.
func (t *recTable) len() int { return t.n }

// find is the slot of name (its hash h): the record's, or the empty slot
// where set would put it.
func (t *recTable) find(name string, h uint64) (int, *rec) {
	if len(t.slots) == 0 {
		t.slots = make([]recSlot, 64)
	}
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.r == nil || s.hash == h && s.r.name == name {
			return i, s.r
		}
	}
}

// get is the record of name, nil for none.
func (t *recTable) get(name string) *rec {
	if t.n == 0 {
		return nil
	}
	_, r := t.find(name, hashName(name))
	return r
}

// set puts r, whose name hashes to h, at slot i from find: replacing the
// record there or filling the empty slot.
func (t *recTable) set(i int, h uint64, r *rec) {
	if t.slots[i].r == nil {
		t.n++
	}
	t.slots[i] = recSlot{h, r}
	if t.n*4 >= len(t.slots)*3 {
		t.grow()
	}
}

// grow doubles the slots, placing every record anew.
func (t *recTable) grow() {
	old := t.slots
	t.slots = make([]recSlot, 2*len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s.r == nil {
			continue
		}
		i := int(s.hash) & mask
		for t.slots[i].r != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// remove deletes r, found by its hash h and pointer (its name is not
// compared), and moves back the records after it that its slot let be
// placed past their home, so that no search stops early at the gap.
func (t *recTable) remove(r *rec, h uint64) {
	if len(t.slots) == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := int(h) & mask
	for t.slots[i].r != r {
		if t.slots[i].r == nil {
			return
		}
		i = (i + 1) & mask
	}
	t.n--
	for j := (i + 1) & mask; t.slots[j].r != nil; j = (j + 1) & mask {
		home := int(t.slots[j].hash) & mask
		// The record at j may fill the gap at i when its home is not in
		// the cyclic range (i, j].
		if (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = recSlot{}
}

// each calls fn with every record, in slot order. It stops at the last
// record: past the item cap a block's table holds few records in many
// slots.
func (t *recTable) each(fn func(*rec)) {
	left := t.n
	for i := 0; left > 0; i++ {
		if r := t.slots[i].r; r != nil {
			fn(r)
			left--
		}
	}
}

// drain calls fn with every record and empties the table, keeping its
// slots for the next block: one pass over the slots that hold records.
func (t *recTable) drain(fn func(*rec)) {
	for i := 0; t.n > 0; i++ {
		if r := t.slots[i].r; r != nil {
			t.slots[i] = recSlot{}
			t.n--
			fn(r)
		}
	}
}

//go:build cgo

package source

import (
	"errors"
	"testing"
)

func TestResolveSymbol(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "store/db.go", "package store\n\ntype Store struct{}\n\nfunc (s *Store) Put(k string) {\n\t_ = k\n}\n")
	a, _ := ParseAddress("repo:store/db.go#Store.Put")
	r, err := Resolve(dir, a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Address.From != 5 || r.Address.To != 7 || r.Address.Anchor == "" || string(r.Text) != "func (s *Store) Put(k string) {\n\t_ = k\n}\n" {
		t.Errorf("resolved %s %q", r.Address, r.Text)
	}
	a.Symbol = "Store.Get"
	if _, err := Resolve(dir, a); !errors.Is(err, ErrNoSymbol) {
		t.Errorf("missing symbol: %v", err)
	}
}

package blake3

import (
	"reflect"
	"testing"
)

// assert is the three checks of github.com/zeebo/assert that the upstream
// tests use, so they run here unchanged.
var assert asserter

type asserter struct{}

func (asserter) Equal(t testing.TB, a, b any) {
	t.Helper()
	if !reflect.DeepEqual(a, b) && !sameInt(a, b) {
		t.Fatalf("got %#v, want %#v", a, b)
	}
}

func (asserter) NoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func (asserter) Error(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("expected an error")
	}
}

// sameInt reports whether a and b are integers of equal value (zeebo/assert
// compares an int64 offset with an int literal this way).
func sameInt(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	isInt := func(v reflect.Value) bool { return v.IsValid() && v.CanInt() }
	return isInt(va) && isInt(vb) && va.Int() == vb.Int()
}

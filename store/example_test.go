package store_test

import (
	"fmt"

	"github.com/ctxhq/ctx/store"
)

func ExampleParseHandle() {
	h, err := store.ParseHandle("run:BA3D1020EE8F#stderr:L40-52")
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Scheme, h.Prefix, h.Stream, h.Range.From, h.Range.To)
	fmt.Println(h)

	_, err = store.ParseHandle("run:ba3#stdout")
	fmt.Println(err)
	// Output:
	// run ba3d1020ee8f stderr 40 52
	// run:ba3d1020ee8f#stderr:L40-52
	// handle "run:ba3#stdout": the id "ba3" is too short: give at least 6 hex digits: malformed handle
}

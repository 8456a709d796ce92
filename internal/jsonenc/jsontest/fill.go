// Package jsontest fills values for the tests that hold ctx's hand-written
// JSON encoders to encoding/json: Fill sets every exported field a struct
// has, recursively, so a field added to a type and forgotten in its encoder
// makes the comparison fail without anyone adding a line to the test.
package jsontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// strs are strings that need each of encoding/json's escapes.
var strs = []string{"go", "a b", `q"uote`, `back\slash`, "<html>&amp;", "tab\there", "nl\n", "\x00\x1f\x7f",
	"héllo", "\u2028\u2029", "bad\xffutf8", "emoji 🙂"}

// Fill sets every exported field of the struct v points to, recursively, to
// a value other than its zero (slices and maps get one or two elements),
// chosen by r.
func Fill(v any, r *rand.Rand) {
	fill(reflect.ValueOf(v).Elem(), r, 0)
}

var timeType = reflect.TypeFor[time.Time]()

func fill(v reflect.Value, r *rand.Rand, depth int) {
	if depth > 8 {
		return
	}
	if v.Type() == timeType {
		v.Set(reflect.ValueOf(time.Unix(1_700_000_000+r.Int64N(1<<30), r.Int64N(1e9)).UTC()))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), r, depth+1)
			}
		}
	case reflect.String:
		v.SetString(strs[r.IntN(len(strs))])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1 + r.Int64N(100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1 + r.Uint64N(100))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(1+r.IntN(100)) / 4)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), r, depth+1)
		}
	case reflect.Slice:
		n := 1 + r.IntN(2)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			fill(s.Index(i), r, depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := 0; i < 1+r.IntN(2); i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, r, depth+1)
			if k.Kind() == reflect.String {
				k.SetString(fmt.Sprintf("%s%d", k.String(), i))
			}
			fill(e, r, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), r, depth+1)
		v.Set(p)
	case reflect.Interface:
		// left nil: no hand-written encoder writes an interface field
	}
}

// Same fails t when got is not encoding/json's encoding of v: the check
// every hand-written encoder's test makes.
func Same(t testing.TB, what string, got []byte, v any) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: the hand-written encoding differs from encoding/json's:\n got %s\nwant %s", what, got, want)
	}
}

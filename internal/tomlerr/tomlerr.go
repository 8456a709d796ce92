// Package tomlerr turns the TOML decoder's errors about a configuration file
// into ones a user can act on: the line and column, and for a key the file
// may not hold, its name and the keys it may.
package tomlerr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Describe rewrites err from decoding a file with unknown fields disallowed:
// "line L column C: unknown key "a.b" (KEYS)" or "line L column C: MESSAGE".
// keys says what the file may hold. Other errors are returned as they are.
func Describe(err error, keys string) error {
	line, col, key, ok := Locate(err)
	switch {
	case !ok:
		return err
	case key != "":
		return fmt.Errorf("line %d column %d: unknown key %q (%s)", line, col, key, keys)
	}
	return fmt.Errorf("line %d column %d: %v", line, col, Explain(err))
}

// Explain rewrites a type error from decoding, which names the Go struct
// field and type, into what the file should hold: `key "step.timeout": want
// a string (in quotes: "…"), not a TOML integer`. Other errors are returned
// as they are.
func Explain(err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) || len(de.Key()) == 0 {
		return err
	}
	// "cannot decode TOML integer into struct field seq.Step.Timeout of type string"
	_, rest, ok := strings.Cut(de.Error(), "cannot decode TOML ")
	got, _, ok2 := strings.Cut(rest, " ")
	i := strings.LastIndex(rest, " of type ")
	if !ok || !ok2 || i < 0 {
		return err
	}
	return fmt.Errorf("key %q: want %s, not a TOML %s", strings.Join(de.Key(), "."), goTypeWords(rest[i+len(" of type "):]), got)
}

// goTypeWords says in TOML's terms what a Go type decodes from.
func goTypeWords(t string) string {
	switch {
	case t == "string":
		return `a string (in quotes: "…")`
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "[]string":
		return `an array of strings (["a", "b"])`
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case t == "map[string]string":
		return `a table of strings ({ KEY = "value" })`
	case strings.HasPrefix(t, "map["):
		return "a table"
	}
	return "a " + t
}

// Locate is where in the file err, from decoding with unknown fields
// disallowed, points: its line and column, and for a key the file may not
// hold, its dotted name (key is "" for a syntax or type error). ok is false
// for an error the decoder did not place.
func Locate(err error) (line, col int, key string, ok bool) {
	var sme *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case errors.As(err, &sme) && len(sme.Errors) > 0:
		e := sme.Errors[0]
		line, col = e.Position()
		return line, col, strings.Join(e.Key(), "."), true
	case errors.As(err, &de):
		line, col = de.Position()
		return line, col, "", true
	}
	return 0, 0, "", false
}

// UnknownKeys lists the dotted names of the unknown keys err reports, or nil.
func UnknownKeys(err error) []string {
	var sme *toml.StrictMissingError
	if !errors.As(err, &sme) {
		return nil
	}
	var out []string
	for _, e := range sme.Errors {
		out = append(out, strings.Join(e.Key(), "."))
	}
	return out
}

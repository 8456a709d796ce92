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
	var sme *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case errors.As(err, &sme) && len(sme.Errors) > 0:
		e := sme.Errors[0]
		row, col := e.Position()
		return fmt.Errorf("line %d column %d: unknown key %q (%s)", row, col, strings.Join(e.Key(), "."), keys)
	case errors.As(err, &de):
		row, col := de.Position()
		return fmt.Errorf("line %d column %d: %v", row, col, de)
	}
	return err
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

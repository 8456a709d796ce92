package store

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Callers test with errors.Is; the cmd layer maps them to exit
// codes and hints.
var (
	// ErrNotFound: no record matches the handle or id.
	ErrNotFound = errors.New("not found")
	// ErrAmbiguous: a prefix matches more than one record; see AmbiguousError.
	ErrAmbiguous = errors.New("ambiguous")
	// ErrBadHandle: the handle does not follow the grammar in docs/handles.md.
	ErrBadHandle = errors.New("malformed handle")
	// ErrLocked: another process held the store's lock past the timeout.
	ErrLocked = errors.New("store is locked")
	// ErrCorrupt: stored bytes do not match their hash, or a record cannot be decoded.
	ErrCorrupt = errors.New("store is damaged")
	// ErrUnsafe: the store directory or a file in it is not this user's own
	// (another owner, writable by others, a symbolic link).
	ErrUnsafe = errors.New("store is not safe to use")
	// ErrRange: a line or byte range lies outside the content.
	ErrRange = errors.New("out of range")
	// ErrPinned: the record is pinned and must be unpinned before removal.
	ErrPinned = errors.New("pinned")
	// ErrDiverged: a layer's log holds rows another copy of it does not, so
	// one cannot be brought up to the other (FastForwardLayerLog).
	ErrDiverged = errors.New("logs have diverged")
)

// Error is an error with a hint for the user: what to do about it.
type Error struct {
	Err  error  // the wrapped error; errors.Is sees through it
	Hint string // one sentence: the fix
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// hint wraps err with a hint.
func hint(err error, format string, args ...any) error {
	return &Error{Err: err, Hint: fmt.Sprintf(format, args...)}
}

// AmbiguousError lists the records an ambiguous prefix matches.
type AmbiguousError struct {
	Prefix     string
	Candidates []string // handles, sorted
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("handle prefix %q is ambiguous: it matches %s", e.Prefix, strings.Join(e.Candidates, ", "))
}

func (e *AmbiguousError) Unwrap() error { return ErrAmbiguous }

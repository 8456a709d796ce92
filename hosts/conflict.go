package hosts

import "fmt"

// conflict is an ErrConflict that knows its fix: what is in the way, and
// what the person can change so that the command succeeds when run again.
// editFile turns the fix into the FileError's Hint.
type conflict struct {
	what string // what is in the way, as the message says it
	fix  string // one sentence: how to clear it
}

func (c *conflict) Error() string   { return fmt.Sprintf("%v: %s", ErrConflict, c.what) }
func (c *conflict) Is(t error) bool { return t == ErrConflict }

// notShaped is the conflict of a settings key that holds the wrong kind of
// JSON value: the host cannot read it as written either.
func notShaped(key, shape, example string) *conflict {
	return &conflict{
		what: fmt.Sprintf("%q is not %s", key, shape),
		fix: fmt.Sprintf("make %q %s, as the host expects (%s), or move the file away, then run the command again; this file is unchanged",
			key, shape, example),
	}
}

// otherCtxServer is the conflict of an MCP server named "ctx" that runs
// something other than ctx (command is what it runs, "" if it names none).
func otherCtxServer(where, command string) *conflict {
	what := `an MCP server named "ctx" already runs something else`
	if command != "" {
		what += fmt.Sprintf(" (%q)", command)
	}
	return &conflict{what: what,
		fix: fmt.Sprintf("rename or delete that entry in %s and run the command again, or leave it and run ctx init without --mcp; this file is unchanged", where)}
}

// markerConflict is the conflict of ctx's marked block in a text file whose
// markers are not one begin line followed by one end line.
func markerConflict(what, begin, end string) *conflict {
	return &conflict{what: what,
		fix: fmt.Sprintf("leave at most one block, from the line %q to the line %q (or delete ctx's lines altogether), then run the command again; this file is unchanged", begin, end)}
}

// Package source owns the static and temporal facts about a repository:
// outlines (declarations, imports and test identities with their line
// ranges), repo: addresses with content anchors, and worktree generations.
//
// Go is outlined with the standard library's go/parser (the parser go doc
// uses; five times faster than tree-sitter's Go grammar here, and no cgo);
// Python, JavaScript, TypeScript/TSX, Rust, Java and C/C++ with tree-sitter.
//
// It reads the working tree and runs git; it never writes to either, and it
// never follows a path out of the repository it was given (see Confine).
// Grammars are cgo code: they are linked only into builds with cgo, and
// nothing here is touched by ctx run, so capture never pays for them.
package source

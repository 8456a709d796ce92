//go:build !linux

package source

// A Watch tells a sequence's next step whether anything git status's
// answer depends on changed since the last look. It is built on inotify,
// which only Linux has: elsewhere no watch is ever set up (WatchTree
// returns nil) and the caller stamps the tree or runs git status, as it
// does where a watch could not vouch for the tree.
type Watch struct{}

// WatchTree returns nil: no watch can vouch for a tree on this system.
func WatchTree(root, skip string) *Watch { return nil }

// Changed reports a change: without a watch nothing vouches for the tree.
func (w *Watch) Changed() bool { return true }

// Dead reports true: there is never a live watch.
func (w *Watch) Dead() bool { return true }

// Close does nothing (nil-safe).
func (w *Watch) Close() {}

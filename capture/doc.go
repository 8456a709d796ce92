// Package capture runs one command and streams its output to sinks: stdout and
// stderr each on its own pseudo-terminal in raw mode (so the program sees a
// terminal, line-buffers, and its bytes arrive unchanged), or on plain pipes.
// The command runs in its own session and process group; on timeout or
// interrupt the whole group gets SIGTERM, a grace period, then SIGKILL, and
// whatever was captured so far is kept.
//
// capture never decides what output means and never holds output in memory
// beyond one read buffer: bytes go to the sinks (the store's spool) as they
// arrive. It must never change the command's argv or environment beyond what
// Options says.
package capture

// Package runstatus is the one definition of how a run ended: the Status words
// run manifests record and the exit codes ctx reports, which follow the
// wrapper convention of timeout(1) and env(1). capture sets them, store keeps
// them, plan and the commands read them; each uses these names (store and
// capture re-export them as aliases) so no layer spells a status as a literal.
//
// It imports nothing, so every layer may import it.
package runstatus

// Status is how a run ended, as its manifest records it (JSON: the word).
type Status string

// The statuses a run can have.
const (
	Exited        Status = "exited"         // the command ran to completion
	Signaled      Status = "signaled"       // killed by a signal it did not get from ctx
	Timeout       Status = "timeout"        // ctx stopped it at --timeout
	Interrupted   Status = "interrupted"    // ctx was interrupted (Ctrl-C, TERM) and stopped it
	NotFound      Status = "not-found"      // the command does not exist
	NotExecutable Status = "not-executable" // it exists but cannot be executed
	Recovered     Status = "recovered"      // ctx died mid-capture; the output was recovered from the spool, the exit status is unknown
	Ingested      Status = "ingested"       // the output was stored with `ctx ingest`
)

// Exit codes ctx reports in place of the command's own, following timeout(1)
// and env(1); any other code is the command's (or 128+N: killed by signal N).
const (
	ExitTimeout       = 124 // the command ran past --timeout and was stopped
	ExitFailed        = 125 // ctx itself failed (the store is locked or damaged, …)
	ExitNotExecutable = 126 // the command exists but cannot be executed
	ExitNotFound      = 127 // the command does not exist
	ExitInterrupted   = 130 // ctx was interrupted (128 + SIGINT) and stopped the command
)

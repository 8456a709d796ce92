package plan

// Reason is a code explaining one decision of a plan. The list is closed: a
// new reason is added here and to docs/reasons.md in the same change (a test
// holds them equal).
type Reason string

// The reasons, grouped by the decision they explain.
const (
	// Outcome.
	ReasonOutcomePass   Reason = "outcome-pass"   // exit status and the tool's own verdict agree: success
	ReasonOutcomeFail   Reason = "outcome-fail"   // the command failed (exit status or the tool's verdict)
	ReasonOutcomeError  Reason = "outcome-error"  // the tool could not do its job: build, collection or usage failure
	ReasonExitConflict  Reason = "exit-conflict"  // exit status and the tool's own summary disagree; the failure wins
	ReasonExitExpected  Reason = "exit-expected"  // a non-zero exit the tool uses for success (grep's 1: no match)
	ReasonTimeout       Reason = "timeout"        // ctx stopped the command at --timeout
	ReasonInterrupted   Reason = "interrupted"    // ctx was interrupted and stopped the command
	ReasonSignaled      Reason = "signaled"       // the command was killed by a signal
	ReasonRecovered     Reason = "recovered"      // ctx died mid-capture; the output was recovered, the exit status is unknown
	ReasonNoVerdict     Reason = "no-verdict"     // the tool printed no summary (killed, truncated); the digest does not claim success
	ReasonNotRecognised Reason = "not-recognised" // no specialised profile recognised the output; generic text

	// Mode.
	ReasonSmallOutput   Reason = "small-output"   // the output is small enough to show whole
	ReasonNoOutput      Reason = "no-output"      // the command printed nothing
	ReasonBinaryOutput  Reason = "binary-output"  // a stream is not text; described, never shown
	ReasonRequiredFit   Reason = "required-fit"   // every REQUIRED item fits one line each within the budget
	ReasonRequiredDense Reason = "required-dense" // REQUIRED items only fit grouped by file or class
	ReasonRequiredFlood Reason = "required-flood" // REQUIRED items do not fit even grouped: complete list in a census blob
	ReasonRawSmaller    Reason = "raw-smaller"    // the planned digest was not clearly smaller than the output (85%): the output is shown whole

	// Budget.
	ReasonBudgetContract  Reason = "budget-contract"  // the budget is the contract's ceiling for this outcome
	ReasonBudgetRequested Reason = "budget-requested" // --budget set the budget
	ReasonPressureHigh    Reason = "pressure-high"    // the context is nearly full: the budget halves (never below the floor)
	ReasonPressureLow     Reason = "pressure-low"     // the context has room: the budget grows by half
	ReasonReflexRerun     Reason = "reflex-rerun"     // an equivalent rerun in the same session: the last digest was not enough, show more

	// Capture.
	ReasonCapped   Reason = "capped"    // a stream passed its byte cap; the middle was dropped and counted
	ReasonFallback Reason = "fallback"  // the specialised profile could not parse safely; a more general one was used
	ReasonDiskFull Reason = "disk-full" // the disk filled during the capture: the stream's end was not stored, and is counted
)

// Reasons lists every reason with its meaning, in the order above.
var Reasons = []struct {
	Code    Reason
	Meaning string
}{
	{ReasonOutcomePass, "exit status and the tool's own verdict agree: success"},
	{ReasonOutcomeFail, "the command failed (exit status or the tool's verdict)"},
	{ReasonOutcomeError, "the tool could not do its job: build, collection or usage failure"},
	{ReasonExitConflict, "exit status and the tool's own summary disagree; the failure wins"},
	{ReasonExitExpected, "a non-zero exit the tool uses for success (grep's 1: no match)"},
	{ReasonTimeout, "ctx stopped the command at --timeout"},
	{ReasonInterrupted, "ctx was interrupted and stopped the command"},
	{ReasonSignaled, "the command was killed by a signal"},
	{ReasonRecovered, "ctx died mid-capture; the output was recovered, the exit status is unknown"},
	{ReasonNoVerdict, "the tool printed no summary (killed, truncated); the digest does not claim success"},
	{ReasonNotRecognised, "no specialised profile recognised the output; generic text"},
	{ReasonSmallOutput, "the output is small enough to show whole"},
	{ReasonNoOutput, "the command printed nothing"},
	{ReasonBinaryOutput, "a stream is not text; described, never shown"},
	{ReasonRequiredFit, "every REQUIRED item fits one line each within the budget"},
	{ReasonRequiredDense, "REQUIRED items only fit grouped by file or class"},
	{ReasonRequiredFlood, "REQUIRED items do not fit even grouped: complete list in a census blob"},
	{ReasonRawSmaller, "the planned digest was not clearly smaller than the output (85%): the output is shown whole"},
	{ReasonBudgetContract, "the budget is the contract's ceiling for this outcome"},
	{ReasonBudgetRequested, "--budget set the budget"},
	{ReasonPressureHigh, "the context is nearly full: the budget halves (never below the floor)"},
	{ReasonPressureLow, "the context has room: the budget grows by half"},
	{ReasonReflexRerun, "an equivalent rerun in the same session: the last digest was not enough, show more"},
	{ReasonCapped, "a stream passed its byte cap; the middle was dropped and counted"},
	{ReasonFallback, "the specialised profile could not parse safely; a more general one was used"},
	{ReasonDiskFull, "the disk filled during the capture: the stream's end was not stored, and is counted"},
}

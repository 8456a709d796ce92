// Package seq runs a declared sequence of steps (ctx seq): each step is
// captured as its own run through the runner, the sequence stops at the first
// failing step unless that step may fail, and the whole sequence gets one
// digest — a line per step, the failing steps' findings under one shared
// budget, one coverage receipt over all steps — and one content-addressed
// record with a seq: handle.
//
// It never captures a process itself (runner.Capture does) and never prints:
// the caller gets the record and the digest bytes back. Timings enter the
// record and digest only as coarse buckets, so the same outcomes give the
// same bytes.
package seq

package script

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"go.starlark.net/starlark"

	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
)

// Version is the execution record and digest format's version.
const Version = 1

// LayerBucket is the store layer bucket executions live in, keyed by hex id.
const LayerBucket = "py.executions"

// RunRecord is one command a script ran.
type RunRecord struct {
	N        int      `json:"n"`
	Argv     []string `json:"argv"`
	Dir      string   `json:"dir,omitempty"`
	Exit     int      `json:"exit"`
	Status   string   `json:"status,omitempty"`
	Run      string   `json:"run,omitempty"` // the full run id
	Headline string   `json:"headline,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// Emit is a line a script added to its digest.
type Emit struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Execution is one run of a script: the script's blob, the commands it ran,
// what it emitted, the Starlark steps it took, and how it ended. Its id is
// the BLAKE3 of all of those, so the same script with the same outcomes is
// the same execution.
type Execution struct {
	Kind    string      `json:"kind"`
	Version int         `json:"version"`
	Script  string      `json:"script"` // the script blob's full id
	Runs    []RunRecord `json:"runs"`
	Emits   []Emit      `json:"emits"`
	Dropped int         `json:"emits_dropped,omitempty"`
	Steps   uint64      `json:"starlark_steps"`
	Exit    int         `json:"exit"`
	Error   string      `json:"error,omitempty"`
	Digest  string      `json:"digest"`

	ctx     context.Context
	env     *runner.Env
	opts    Options
	names   starlark.StringDict
	results map[string]*runner.Result
}

// ID is the execution's content address.
func (x *Execution) ID() store.ID {
	c := *x
	c.Digest = ""
	b, _ := json.Marshal(&c)
	return store.Sum(append([]byte("ctx-py-v1\n"), b...))
}

// Handle is the execution's py: handle.
func (x *Execution) Handle() string { return "py:" + x.ID().Short() }

// Text is the digest the execution was shown.
func (x *Execution) Text() string { return x.Digest }

// render fills in the digest: a header, a line per command, what the script
// emitted, how it ended, and a coverage line.
func (x *Execution) render() {
	var b strings.Builder
	failed := 0
	for _, r := range x.Runs {
		if r.Exit != 0 {
			failed++
		}
	}
	runs := "runs"
	if len(x.Runs) == 1 {
		runs = "run"
	}
	fmt.Fprintf(&b, "%s · script %s · %d %s (%d failed) · exit %d", x.Handle(), x.ScriptBlob(), len(x.Runs), runs, failed, x.Exit)
	if x.Error != "" {
		b.WriteString(" · " + Headline(x.Error))
	}
	b.WriteString("\n")
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	for _, r := range x.Runs {
		run := "-"
		if r.Run != "" {
			run = "run:" + r.Run[:12]
		}
		note := r.Headline
		if r.Error != "" {
			note = "ctx: " + r.Error
		}
		fmt.Fprintf(tw, "%d\texit %d\t%s\t%s\t%s\n", r.N, r.Exit, run, seqName(r.Argv), note)
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(table.String(), "\n") {
		if line != "" {
			b.WriteString(strings.TrimRight(line, " \n") + "\n")
		}
	}
	if len(x.Emits) > 0 {
		b.WriteString("emitted:\n")
		for _, e := range x.Emits {
			// Continuation lines are indented under their finding, so
			// no emitted text can pose as a line of ctx's own (a
			// coverage line, an error).
			text := strings.ReplaceAll(strings.TrimRight(e.Text, "\n"), "\n", "\n    ")
			fmt.Fprintf(&b, "  %s: %s\n", e.Kind, text)
		}
	}
	if x.Error != "" {
		b.WriteString("error:\n")
		for _, l := range strings.Split(x.Error, "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	fmt.Fprintf(&b, "coverage: runs %d · failed %d · emitted %d", len(x.Runs), failed, len(x.Emits))
	if x.Dropped > 0 {
		fmt.Fprintf(&b, " · emits dropped past %d: %d", maxEmits, x.Dropped)
	}
	fmt.Fprintf(&b, " · starlark steps %d of %d · runs %d of %d\n", x.Steps, x.opts.Limits.Steps, len(x.Runs), x.opts.Limits.Runs)
	if len(x.Runs) > 0 {
		fmt.Fprintf(&b, "next: ctx get %s#N (run N's output) · ctx show run:ID (its own digest) · ctx get %s (the script)\n", x.Handle(), x.ScriptBlob())
	}
	text, _ := secrets.Text([]byte(b.String()))
	x.Digest = string(text)
}

// seqName is an argv as a step name: the shell string of sh -c, else the
// words.
func seqName(argv []string) string {
	s := seq.Step{Argv: argv}
	if len(argv) == 3 && argv[0] == "sh" && argv[1] == "-c" {
		s = seq.Step{Shell: argv[2]}
	}
	steps := []seq.Step{s}
	_ = seq.Check(steps)
	return steps[0].Name
}

// Save stores the execution under its id.
func Save(st *store.Store, x *Execution) (store.ID, error) {
	id := x.ID()
	data, err := json.Marshal(x)
	if err != nil {
		return id, fmt.Errorf("encode py execution: %w", err)
	}
	if _, err := st.PutLayerRecord(LayerBucket, []byte(id.String()), data); err != nil {
		return id, fmt.Errorf("store py execution: %w", err)
	}
	return id, nil
}

// Load reads the execution a py: handle names.
func Load(st *store.Store, ref seq.Ref) (*Execution, error) {
	var x Execution
	if err := seq.LoadRecord(st, LayerBucket, "py", ref.Prefix, &x); err != nil {
		return nil, err
	}
	return &x, nil
}

// StepHandle is the run handle (with ref's stream and range) of run N.
func (x *Execution) StepHandle(ref seq.Ref) (string, error) {
	if ref.Step < 1 || ref.Step > len(x.Runs) {
		return "", fmt.Errorf("py:%s ran %d commands; there is no run %d: %w", ref.Prefix, len(x.Runs), ref.Step, store.ErrNotFound)
	}
	r := x.Runs[ref.Step-1]
	if r.Run == "" {
		return "", fmt.Errorf("py:%s#%d did not run: %s: %w", ref.Prefix, ref.Step, r.Error, store.ErrNotFound)
	}
	return "run:" + r.Run + ref.Rest, nil
}

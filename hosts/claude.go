package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Errors returned by the PreToolUse handlers. Whatever they return, they
// have written nothing, so the host runs the original command unchanged.
var (
	// ErrHookInput: stdin was not a PreToolUse payload we understand.
	ErrHookInput = errors.New("hook input not understood")
	// ErrHookPanic: a bug in ctx; recovered so the agent is never blocked.
	ErrHookPanic = errors.New("hook panicked")
)

// maxHookInput bounds what a PreToolUse handler reads from stdin. Payloads are
// a few KiB; a Bash command near MaxCommandBytes plus metadata fits easily.
const maxHookInput = 1 << 20

// hostMaxTimeoutMillis is the longest per-command timeout a host may ask for
// that ctx run's default timeout (10 minutes, DESIGN §3) still covers. A
// longer one would let ctx kill a command the host meant to wait for.
const hostMaxTimeoutMillis = 600000

// Permission decisions a handler can attach to a rewrite.
const (
	// DecisionNone attaches no permissionDecision: the host applies its own
	// permission rules and prompts as it would have. The default for Claude.
	DecisionNone = ""
	// DecisionAllow attaches permissionDecision "allow". Codex requires it to
	// accept updatedInput; for Claude it skips the permission prompt, so it is
	// opt-in only.
	DecisionAllow = "allow"
	// DecisionAsk attaches permissionDecision "ask": the user confirms the
	// rewritten command.
	DecisionAsk = "ask"
)

// HookOptions tune [ClaudePreToolUseWith] and [CodexPreToolUseWith].
type HookOptions struct {
	// Program is the ctx binary named in rewritten commands; see [Options].
	Program string
	// Decision is the permissionDecision attached to a rewrite; see
	// DecisionNone, DecisionAllow, DecisionAsk.
	Decision string
	// RunArgs are extra `ctx run` arguments; see [Options].
	RunArgs []string
}

// HookResult says what a PreToolUse handler decided, for logging and tests.
type HookResult struct {
	// Decision is the rewrite decision; Decision.Rewrite reports whether a
	// response was written.
	Decision Decision
	// Tool is the payload's tool_name.
	Tool string
}

// ClaudePreToolUse handles one Claude Code PreToolUse hook call: it reads the
// hook's JSON payload from in and, when the Bash command should go through
// ctx, writes the response that makes Claude Code run the rewritten command,
// with CTX_SESSION set to the session id for each ctx invocation. ctxPath is
// the ctx binary to name in the rewritten command.
//
// It writes nothing at all unless everything succeeded, so on any error
// (unreadable input, another tool, a bug) the host runs the original command
// unchanged. The caller must exit 0 whatever the error: exit status 2 would
// block the command, and any other status is reported to the user.
func ClaudePreToolUse(in io.Reader, out io.Writer, ctxPath string) error {
	_, err := ClaudePreToolUseWith(in, out, HookOptions{Program: ctxPath})
	return err
}

// ClaudePreToolUseWith is [ClaudePreToolUse] with options.
func ClaudePreToolUseWith(in io.Reader, out io.Writer, opt HookOptions) (HookResult, error) {
	return preToolUse(in, out, opt, HostClaude)
}

// CodexPreToolUse handles one Codex PreToolUse hook call; see
// [ClaudePreToolUse]. Codex applies updatedInput only together with
// permissionDecision "allow", so the response always carries it; Codex's
// sandbox and approval policy still govern the command.
func CodexPreToolUse(in io.Reader, out io.Writer, ctxPath string) error {
	_, err := CodexPreToolUseWith(in, out, HookOptions{Program: ctxPath, Decision: DecisionAllow})
	return err
}

// CodexPreToolUseWith is [CodexPreToolUse] with options. A Decision other
// than DecisionAllow makes Codex ignore the rewrite, so it is forced to
// DecisionAllow.
func CodexPreToolUseWith(in io.Reader, out io.Writer, opt HookOptions) (HookResult, error) {
	opt.Decision = DecisionAllow
	return preToolUse(in, out, opt, HostCodex)
}

// Host is an agent host ctx integrates with.
type Host uint8

const (
	HostClaude Host = iota // Claude Code
	HostCodex              // OpenAI Codex CLI
)

// String returns the host's name as used in ctx commands ("claude", "codex").
func (h Host) String() string {
	if h == HostCodex {
		return "codex"
	}
	return "claude"
}

// hookInput is the part of the PreToolUse payload ctx reads. Claude Code and
// Codex share these field names.
type hookInput struct {
	SessionID      string          `json:"session_id"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	PermissionMode string          `json:"permission_mode"`
}

func preToolUse(in io.Reader, out io.Writer, opt HookOptions, h Host) (res HookResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = HookResult{}
			err = fmt.Errorf("%w: %v", ErrHookPanic, r)
		}
	}()
	data, err := io.ReadAll(io.LimitReader(in, maxHookInput+1))
	if err != nil {
		return res, fmt.Errorf("read hook input: %w", err)
	}
	if len(data) > maxHookInput {
		return res, fmt.Errorf("%w: more than %d bytes", ErrHookInput, maxHookInput)
	}
	var hi hookInput
	if err := json.Unmarshal(data, &hi); err != nil {
		return res, fmt.Errorf("%w: %v", ErrHookInput, err)
	}
	res.Tool = hi.ToolName
	if hi.HookEventName != "" && hi.HookEventName != "PreToolUse" || hi.ToolName != "Bash" {
		res.Decision.Reason = ReasonNotFlooding
		return res, nil
	}
	fields, err := decodeObject(hi.ToolInput)
	if err != nil {
		return res, fmt.Errorf("%w: tool_input: %v", ErrHookInput, err)
	}
	var (
		command     string
		haveCommand bool
		background  bool
		timeoutMS   float64
	)
	for _, f := range fields {
		switch f.key {
		case "command":
			if err := json.Unmarshal(f.raw, &command); err != nil {
				return res, fmt.Errorf("%w: tool_input.command: %v", ErrHookInput, err)
			}
			haveCommand = true
		case "run_in_background":
			_ = json.Unmarshal(f.raw, &background) // not a bool: treat as false
		case "timeout":
			_ = json.Unmarshal(f.raw, &timeoutMS)
		}
	}
	if !haveCommand {
		return res, fmt.Errorf("%w: tool_input has no command", ErrHookInput)
	}
	switch {
	case background:
		// The host streams a background command's output as it arrives;
		// ctx would hold it back until the command ends.
		res.Decision = Decision{Command: command, Reason: ReasonBackground}
		return res, nil
	case timeoutMS > hostMaxTimeoutMillis:
		res.Decision = Decision{Command: command, Reason: ReasonHostLimit}
		return res, nil
	}
	d := RewriteWith(command, Options{Program: opt.Program, Session: hi.SessionID, RunArgs: opt.RunArgs})
	res.Decision = d
	if !d.Rewrite {
		return res, nil
	}
	decision := opt.Decision
	if h == HostClaude && hi.PermissionMode == "bypassPermissions" {
		// Claude Code is reported to drop updatedInput when a decision
		// accompanies it in this mode; there is no prompt to skip anyway.
		decision = DecisionNone
	}
	resp, err := encodeResponse(fields, d.Command, decision)
	if err != nil {
		return HookResult{Tool: hi.ToolName}, fmt.Errorf("encode hook output: %w", err)
	}
	if _, err := out.Write(resp); err != nil {
		return res, fmt.Errorf("write hook output: %w", err)
	}
	return res, nil
}

// member is one key of a JSON object, with its value kept as raw bytes.
type member struct {
	key string
	raw json.RawMessage
}

// decodeObject splits a JSON object into its members, in order, keeping
// each value's bytes, so a response can echo the fields it does not change.
func decodeObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		ms = append(ms, member{key: key, raw: raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return ms, nil
}

// encodeResponse builds the hookSpecificOutput object. updatedInput replaces
// the whole tool input, so every original field is echoed, in order, with
// only command replaced.
func encodeResponse(fields []member, command, decision string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"hookSpecificOutput":{"hookEventName":"PreToolUse",`)
	if decision != DecisionNone {
		b.WriteString(`"permissionDecision":`)
		writeJSONString(&b, decision)
		b.WriteString(`,"permissionDecisionReason":"ctx: flood-prone command wrapped in ctx run",`)
	}
	b.WriteString(`"updatedInput":{`)
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, f.key)
		b.WriteByte(':')
		if f.key == "command" {
			writeJSONString(&b, command)
		} else {
			if err := json.Compact(&b, f.raw); err != nil {
				return nil, err
			}
		}
	}
	b.WriteString("}}}\n")
	return b.Bytes(), nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode appends a newline
}

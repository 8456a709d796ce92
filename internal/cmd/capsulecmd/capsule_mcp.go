package capsulecmd

import (
	"bytes"
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
)

type capsuleCaptureInput struct {
	Capsule string `json:"capsule" jsonschema:"the capture file's text: TOML (goal = \"…\", next_action = \"…\", evidence = [\"run:…\"], [[critical]] …) or the same keys as JSON"`
}

type capsuleInspectInput struct {
	Handle string `json:"handle" jsonschema:"the capsule handle, capsule:ID"`
	With   string `json:"with,omitempty" jsonschema:"the consumer whose rendering fidelity is checked: codex, claude or markdown (empty: sender-side preview)"`
}

type capsuleRenderInput struct {
	Handle string `json:"handle" jsonschema:"the capsule handle, capsule:ID"`
	For    string `json:"for,omitempty" jsonschema:"the consumer: codex, claude or markdown (default markdown)"`
}

// addCapsuleTools registers ctx_capsule_capture, ctx_capsule_inspect and
// ctx_capsule_render.
func addCapsuleTools(s *mcp.Server, ios *cli.IO) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "ctx_capsule_capture",
		Description: `Leave a handoff for the next session at the end of yours: goal, state,
next_action, evidence (handles from ctx_run digests; each must exist), rejected,
constraints, open_questions, up to 10 [[critical]] units (id, field, item),
[[validity]] conditions (git_paths with paths, time_window with not_after,
declared_scope with scope) and [[negative_knowledge]] items (id, hypothesis,
why_invalid, state, applies_while, retry_if), and parent. Returns capsule:ID.`,
	}, func(ctx context.Context, req *mcp.CallToolRequest, in capsuleCaptureInput) (*mcp.CallToolResult, any, error) {
		var out, errb bytes.Buffer
		mio := cli.Buffered(ios, &out, &errb)
		mio.In = strings.NewReader(in.Capsule)
		if err := runCapsuleCapture(ctx, mio, &capsuleCaptureOptions{path: "-"}); err != nil {
			return hostsmcp.Error(err, errb.String()), nil, nil
		}
		return hostsmcp.Text(out.String() + errb.String()), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name: "ctx_capsule_inspect",
		Description: `Check a handoff you were given (by its handle, capsule:ID), on this machine now: fidelity per critical
unit (checks rendering, not comprehension), validity per declared condition on
this checkout (valid, stale, partially_stale, unverifiable; not a trust
judgement), negative knowledge standing (a record, not policy: you may retry),
and the delta against its parent capsule.`,
	}, func(ctx context.Context, req *mcp.CallToolRequest, in capsuleInspectInput) (*mcp.CallToolResult, any, error) {
		var out, errb bytes.Buffer
		if err := runCapsuleInspect(ctx, cli.Buffered(ios, &out, &errb), &capsuleInspectOptions{handle: in.Handle, with: in.With}); err != nil {
			return hostsmcp.Error(err, errb.String()), nil, nil
		}
		return hostsmcp.Text(out.String()), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "ctx_capsule_render",
		Description: `Read a handoff at the start of a session: the capsule as Markdown, every field whole, evidence as handles you can open with ctx_get.`,
	}, func(ctx context.Context, req *mcp.CallToolRequest, in capsuleRenderInput) (*mcp.CallToolResult, any, error) {
		consumer := in.For
		if consumer == "" {
			consumer = "markdown"
		}
		var out, errb bytes.Buffer
		if err := runCapsuleRender(cli.Buffered(ios, &out, &errb), &capsuleRenderOptions{handle: in.Handle, for_: consumer}); err != nil {
			return hostsmcp.Error(err, errb.String()), nil, nil
		}
		return hostsmcp.Text(out.String()), nil, nil
	})
}

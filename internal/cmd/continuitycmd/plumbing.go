package continuitycmd

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
)

// The shared plumbing under the names the command files use.
type (
	// IO is where commands read and write.
	IO        = cli.IO
	exitError = cli.ExitError
)

var (
	usagef    = cli.Usagef
	exactArgs = cli.ExactArgs
	openStore = cli.OpenStore
	writeJSON = cli.WriteJSON
	exitOf    = cli.ExitOf
	mcpIO     = cli.Buffered
)

const mcpResultLimit = hostsmcp.ResultLimit

func textResult(s string) *mcp.CallToolResult { return hostsmcp.Text(s) }

func toolError(err error, stderr string) *mcp.CallToolResult { return hostsmcp.Error(err, stderr) }

// NewCmd is the ctx continuity command group.
func NewCmd(ios *cli.IO) *cobra.Command { return newContinuityCmd(ios) }

// AddTools registers the continuity MCP tools (seal, verify).
func AddTools(s *mcp.Server, ios *cli.IO) { addContinuityTools(s, ios) }

// ExitNotFaithful is the exit status of a verification that found the
// restatement unfaithful.
const ExitNotFaithful = exitNotFaithful

// ReadInput reads a file, or stdin for "-", whole and bounded.
func ReadInput(ios *cli.IO, path string) ([]byte, error) { return readInput(ios, path) }

// BadInput marks an input file's content as the problem, naming the file.
func BadInput(what, path string, err error) error { return badInput(what, path, err) }

// Indent indents every line of s by two spaces.
func Indent(s string) string { return indent(s) }

// Head is the chain head of a log's rows ("" when empty).
func Head(rows [][]byte) string { return head(rows) }

// Package mcpserver serves the knowledge base over MCP: the tools (recall,
// record, appraise, hesitate) with their typed schemas and input
// validation, the resources innate://stats and innate://lesson/{id}, and a
// stdio transport that finishes the calls it has read when stdin closes or
// its context ends. The CLI, a hook or an HTTP team server build the same
// server with New.
package mcpserver

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// New builds the MCP server over a knowledge base: the tools, the stats
// resource (report) and the lesson resource template. version is the
// program's, reported in the handshake; proj resolves the project of a call
// that names none; warm is called once, after the handshake has been
// answered, and must not block.
func New(version string, svc Service, report ReportFunc, proj *ProjectResolver, log *slog.Logger, warm func(), opts ...Option) *server.MCPServer {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	hooks := &server.Hooks{}
	var once sync.Once
	hooks.AddAfterInitialize(func(ctx context.Context, id any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		once.Do(warm)
	})
	s := server.NewMCPServer("innate-mcp", version,
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithInstructions(instructions),
		// Arguments are validated by each tool's handler (argValidator),
		// whose errors say in words what to send; mcp-go's validation
		// prints the validator's Go structs.
		server.WithStrictInputSchemaDefault(),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithToolFilter(hideHookTool),
	)
	proj.server = s
	s.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, func(ctx context.Context, n mcp.JSONRPCNotification) {
		proj.forgetRoots()
	})
	registerTools(s, svc, proj, log, o)
	s.AddResource(statsResource(report))
	s.AddResourceTemplate(lessonResource(svc))
	return s
}

// ServeStdio serves s over newline-delimited JSON-RPC on in and out until in
// ends or ctx does; either way the calls already read finish first, and
// it returns nil. Logs go to log, never to out.
func ServeStdio(ctx context.Context, s *server.MCPServer, log *slog.Logger, in io.Reader, out io.Writer) error {
	t := &stdioTransport{srv: s, log: log}
	return t.serve(ctx, in, out)
}

// Option configures New.
type Option func(*options)

type options struct {
	recorded func() []string
	hook     HookFunc
}

// WithRecorded gives compile_rules the shell lines the user's sessions
// ran, to refuse a consultant's check that would fire on too many of them.
func WithRecorded(f func() []string) Option { return func(o *options) { o.recorded = f } }

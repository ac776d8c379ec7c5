package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/stats"
	"github.com/innate-mcp/innate-mcp/tuning"
)

// newServer builds the MCP server over a knowledge base. warm is called
// once, after the handshake has been answered; it must not block.
func newServer(svc kbService, report reportFunc, proj *projectResolver, log *slog.Logger, warm func()) *server.MCPServer {
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
	)
	proj.server = s
	s.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, func(ctx context.Context, n mcp.JSONRPCNotification) {
		proj.forgetRoots()
	})
	registerTools(s, svc, proj.resolve, log)
	s.AddResource(statsResource(report))
	s.AddResourceTemplate(lessonResource(svc))
	return s
}

// runServe serves MCP over stdio until stdin closes or ctx ends (SIGTERM,
// SIGINT); either way the calls already read finish first (see
// stdioTransport), and it returns nil.
func (m *Main) runServe(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", g, stderr, "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: serve takes no arguments", errUsage)
	}
	a, err := m.open(ctx, g, stderr, "", serveAccess)
	if err != nil {
		return err
	}
	defer a.close()
	cwd, err := m.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	proj := newProjectResolver(cwd)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	reg, err := tuning.New()
	if err != nil {
		return err
	}
	warm := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := a.emb.Preload(); err != nil {
				a.log.Warn("load embedder", "err", err)
			}
			if err := a.store.WarmUp(ctx); err != nil && !errors.Is(err, context.Canceled) {
				a.log.Warn("build vector index", "err", err)
			}
			if regulatorEnabled(m.Getenv) {
				reg.Loop(ctx, a.store, a.kb, a.log.With("component", "regulator"))
			}
		}()
	}
	s := newServer(a.kb, func(ctx context.Context) (stats.Report, error) { return stats.Build(ctx, a.store, a.kb) }, proj, a.log, warm)
	// A client that closes stdout before the last responses are written
	// must not kill the process with SIGPIPE while other calls are still
	// writing to the database: the write fails instead, and is logged.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	t := &stdioTransport{srv: s, log: a.log.With("component", "stdio")}
	a.log.Info("serving MCP on stdio", "db", a.path, "embedder", a.emb.Name())
	err = t.serve(ctx, stdin, stdout)
	cancel()
	wg.Wait()
	return err
}

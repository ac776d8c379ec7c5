package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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
		server.WithInputSchemaValidation(),
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

// runServe serves MCP over stdio until stdin closes or ctx ends.
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
	cwd, _ := m.Getwd()
	proj := newProjectResolver(cwd)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	reg, err := newRegulator()
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
			if err := a.db.WarmUp(ctx); err != nil && !errors.Is(err, context.Canceled) {
				a.log.Warn("build vector index", "err", err)
			}
			if regulatorEnabled(m.Getenv) {
				reg.loop(ctx, a, a.log.With("component", "regulator"))
			}
		}()
	}
	s := newServer(a.kb, func(ctx context.Context) (Report, error) { return buildReport(ctx, a.db, a.kb) }, proj, a.log, warm)
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(slogWriter{a}, "", 0))
	a.log.Info("serving MCP on stdio", "db", a.db.Path(), "embedder", a.emb.Name())
	err = stdio.Listen(ctx, stdin, stdout)
	cancel()
	wg.Wait()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// slogWriter sends the MCP library's log lines to the app's logger.
type slogWriter struct{ a *app }

func (w slogWriter) Write(p []byte) (int, error) {
	w.a.log.Warn("mcp", "msg", string(p))
	return len(p), nil
}

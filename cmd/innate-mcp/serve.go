package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/stats"
	"github.com/innate-mcp/innate-mcp/tuning"
)

// runServe serves MCP over stdio until stdin closes or ctx ends (SIGTERM,
// SIGINT); either way the calls already read finish first (see
// mcpserver.ServeStdio), and it returns nil.
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
		// Serve anyway, as before: a call that names no project and comes
		// from a client without roots is then global.
		a.log.Warn("no working directory: calls without a project or client roots are global", "err", err)
		cwd = ""
	}
	proj := mcpserver.NewProjectResolver(cwd)

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
	s := mcpserver.New(version, a.kb, func(ctx context.Context) (stats.Report, error) { return stats.Build(ctx, a.store, a.kb) }, proj, a.log, warm)
	// A client that closes stdout before the last responses are written
	// must not kill the process with SIGPIPE while other calls are still
	// writing to the database: the write fails instead, and is logged.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	a.log.Info("serving MCP on stdio", "db", a.path, "embedder", a.emb.Name())
	err = mcpserver.ServeStdio(ctx, s, a.log.With("component", "stdio"), stdin, stdout)
	cancel()
	wg.Wait()
	return err
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/stats"
	"github.com/innate-mcp/innate-mcp/tuning"
)

// runServe serves MCP over stdio until stdin closes or ctx ends (SIGTERM,
// SIGINT); either way the calls already read finish first (see
// mcpserver.ServeStdio), and it returns nil.
func (m *Main) runServe(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", g, stderr, "[--http ADDR [--tls-cert F --tls-key F] [--allow-origin O]... [--rate R] [--burst N] [--max-body BYTES]]")
	httpAddr := fs.String("http", "", "serve MCP's Streamable HTTP transport on ADDR (e.g. 127.0.0.1:8765), endpoint /mcp, bearer tokens required (innate-mcp token create), instead of stdio")
	tlsCert := fs.String("tls-cert", "", "TLS certificate file (with --tls-key); without them --http serves plain HTTP, for loopback or behind a TLS proxy")
	tlsKey := fs.String("tls-key", "", "TLS key file")
	rate := fs.Float64("rate", mcpserver.DefaultRate, "with --http: requests a second each token may make")
	burst := fs.Int("burst", mcpserver.DefaultBurst, "with --http: requests a token may make at once beyond the rate")
	maxBody := fs.Int64("max-body", mcpserver.DefaultMaxBodyBytes, "with --http: the largest request body, in bytes")
	var origins stringList
	fs.Var(&origins, "allow-origin", "a browser origin allowed to call /mcp (repeatable); requests with another Origin header are refused")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		return fmt.Errorf("%w: --tls-cert and --tls-key go together", errUsage)
	}
	if *rate <= 0 || *burst < 1 || *maxBody < 1024 {
		return fmt.Errorf("%w: --rate must be above 0, --burst at least 1, --max-body at least 1024", errUsage)
	}
	if *httpAddr == "" && (*tlsCert != "" || len(origins) > 0) {
		return fmt.Errorf("%w: --tls-cert, --tls-key and --allow-origin need --http", errUsage)
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
	// The rule files of the project of each call are synced on stdio only:
	// over HTTP the projects are paths on the clients' machines, and a
	// token holder must not make the server read files of its own.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var syncer *rulesync.Syncer
	if *httpAddr == "" {
		syncer = m.ruleSyncer(a, inBackground(ctx, &wg))
	}
	if syncer != nil {
		proj.OnProject(syncer.Seen)
	}
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
			if syncer != nil {
				// The first sync of the working directory's project, after
				// the handshake; a call that comes meanwhile waits for it.
				syncer.Seen(ctx, mcpserver.ProjectRoot(cwd))
			}
			if err := a.store.WarmUp(ctx); err != nil && !errors.Is(err, context.Canceled) {
				a.log.Warn("build vector index", "err", err)
			}
			if regulatorEnabled(m.Getenv) {
				reg.Loop(ctx, a.store, a.kb, a.log.With("component", "regulator"))
			}
		}()
	}
	opts := []mcpserver.Option{mcpserver.WithRecorded(m.recordedCommands)}
	if *httpAddr == "" {
		opts = append(opts, mcpserver.WithHook(m.hookOverMCP(a, syncer)))
	}
	s := mcpserver.New(version, a.kb, func(ctx context.Context) (stats.Report, error) { return stats.Build(ctx, a.store, a.kb) }, proj, a.log, warm, opts...)
	// A client that closes stdout before the last responses are written
	// must not kill the process with SIGPIPE while other calls are still
	// writing to the database: the write fails instead, and is logged.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	if *httpAddr != "" {
		err = serveHTTP(ctx, *httpAddr, *tlsCert, *tlsKey, mcpserver.NewHTTPHandler(s, mcpserver.HTTPOptions{
			Tokens: a.store, Lessons: a.kb, AllowOrigins: origins, Log: a.log.With("component", "http"), Version: version,
			Rate: *rate, Burst: *burst, MaxBodyBytes: *maxBody,
		}), a, warm)
		cancel()
		wg.Wait()
		return err
	}
	a.log.Info("serving MCP on stdio", "db", a.where, "embedder", a.emb.Name())
	err = mcpserver.ServeStdio(ctx, s, a.log.With("component", "stdio"), stdin, stdout)
	cancel()
	wg.Wait()
	return err
}

// httpDrain bounds how long a stopping HTTP server waits for the requests
// in flight.
const httpDrain = 10 * time.Second

// serveHTTP serves h on addr until ctx ends or SIGTERM/SIGINT, then stops
// accepting and lets the requests in flight finish (httpDrain at most).
func serveHTTP(ctx context.Context, addr, cert, key string, h http.Handler, a *app, warm func()) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	warm()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() {
		if cert != "" {
			errc <- srv.ServeTLS(ln, cert, key)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	a.log.Info("serving MCP over HTTP", "addr", ln.Addr().String(), "endpoint", "/mcp", "tls", cert != "", "db", a.where)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), httpDrain)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		a.log.Warn("HTTP shutdown", "err", err)
	}
	return nil
}

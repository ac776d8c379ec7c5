package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"github.com/innate-mcp/innate-mcp/dashboard"
)

// runUI serves the dashboard (package dashboard) on --addr until a signal,
// and prints the URL with its one-time token.
func (m *Main) runUI(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("ui", g, stderr, "[--addr 127.0.0.1:0] [--open]")
	addr := fs.String("addr", "127.0.0.1:0", "listen on this address (port 0: any free port); a non-loopback address is reachable from other machines")
	open := fs.Bool("open", false, "open the URL in the default browser")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: ui takes no arguments, only flags", errUsage)
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), logAccess)
	if err != nil {
		return err
	}
	defer a.close()
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", *addr)
	if err != nil {
		return fmt.Errorf("ui: listen on %s: %w (give a free host:port with --addr)", *addr, err)
	}
	defer ln.Close()
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !isLoopback(host) {
		fmt.Fprintf(stderr, "innate-mcp ui: warning: %s is not a loopback address: anyone who can reach it and holds the URL's token can act on the knowledge base, over plain HTTP\n", ln.Addr())
	}
	srv, err := dashboard.New(dashboard.Config{Store: a.store, KB: a.kb, Addr: ln.Addr().String(), Where: a.where, Log: a.log,
		HookSessions: m.hookSessions})
	if err != nil {
		return err
	}
	// The lesson snapshot the overview and the lessons table share is read
	// while the person opens the link.
	go func() {
		if err := srv.Warm(ctx); err != nil && ctx.Err() == nil {
			a.log.Warn("dashboard: could not read the lessons ahead of the first page", "err", err)
		}
	}()
	fmt.Fprintf(stdout, "innate-mcp dashboard: %s\n(the link works once; Ctrl-C stops the dashboard)\n", srv.LoginURL())
	if *open {
		if err := openBrowser(ctx, srv.LoginURL()); err != nil {
			fmt.Fprintf(stderr, "innate-mcp ui: could not open a browser (%v); open the URL above\n", err)
		}
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("ui: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("ui: shut down: %w", err)
	}
	return nil
}

// isLoopback reports whether a listening host is a loopback address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// openBrowser opens url in the user's default browser.
func openBrowser(ctx context.Context, url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.CommandContext(ctx, "open", url)
	case "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

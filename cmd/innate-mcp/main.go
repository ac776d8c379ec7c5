// Command innate-mcp gives coding agents a fast, deterministic "System 1"
// over MCP: recall of lessons before acting, appraisal of a candidate answer,
// hesitation before acting on a draft, and a record of outcomes and
// corrections, backed by a local SQLite knowledge base and a built-in
// sentence embedder. Run without arguments it serves MCP over stdio; every
// tool is also a command (see `innate-mcp help`).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal lets the server finish the calls it has read; a
	// second one kills the process the default way.
	context.AfterFunc(ctx, stop)
	m := NewMain()
	if err := m.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "innate-mcp:", err)
		os.Exit(exitCode(err))
	}
}

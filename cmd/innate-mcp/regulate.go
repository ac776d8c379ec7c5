package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/tuning"
)

// runRegulate runs one regulation step (package tuning) and prints what it
// changed, or with --dry-run what it would change.
func (m *Main) runRegulate(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var dry bool
	fs := newFlagSet("regulate", g, stderr, "[--dry-run]")
	fs.BoolVar(&dry, "dry-run", false, "show what the regulator would change, change nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	acc := writeAccess
	if dry {
		acc = readAccess
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), acc)
	if err != nil {
		return err
	}
	defer a.close()
	r, err := tuning.New()
	if err != nil {
		return err
	}
	res, err := r.Once(ctx, a.store, a.kb, time.Now().UTC(), dry)
	if err != nil {
		return err
	}
	out := struct {
		DryRun bool `json:"dry_run"`
		regulate.Result
	}{dry, res}
	if out.Changes == nil {
		out.Changes = []regulate.Change{}
	}
	return writeJSON(stdout, out)
}

// regulatorEnabled reports whether the server runs the regulator in the
// background (INNATE_REGULATE=off switches it off).
func regulatorEnabled(getenv func(string) string) bool {
	switch strings.ToLower(getenv("INNATE_REGULATE")) {
	case "off", "0", "false", "no":
		return false
	}
	return true
}

// hesitationOverride reads INNATE_HESITATION: off switches hesitation off
// and on switches it on, whatever the stored configuration says; nil when
// unset.
func hesitationOverride(getenv func(string) string) *bool {
	var on bool
	switch strings.ToLower(getenv("INNATE_HESITATION")) {
	case "off", "0", "false", "no":
		on = false
	case "on", "1", "true", "yes":
		on = true
	default:
		return nil
	}
	return &on
}

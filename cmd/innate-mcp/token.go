package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/auth"
	"github.com/innate-mcp/innate-mcp/internal/randid"
	"github.com/innate-mcp/innate-mcp/kb"
)

// runToken manages the team server's bearer tokens: create (the secret is
// printed once, on stdout, and only its hash is stored), list, revoke.
func (m *Main) runToken(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if ok, err := helpFirst("token", "create --name NAME [--project P]... [--scope read|write|admin] | list | revoke ID   (innate-mcp token SUB -h lists its flags)", g, stderr, args); ok {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: token needs create, list or revoke", errUsage)
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "create":
		return m.tokenCreate(ctx, g, args, stdout, stderr)
	case "list":
		fs := newFlagSet("token list", g, stderr, "")
		if err := fs.Parse(args); err != nil {
			return err
		}
		st, closeStore, err := m.openAdmin(ctx, g, stderr, readAccess)
		if err != nil {
			return err
		}
		defer closeStore()
		ts, err := st.Tokens(ctx)
		if err != nil {
			return err
		}
		if ts == nil {
			ts = []kb.Token{}
		}
		return writeJSON(stdout, ts)
	case "revoke":
		fs := newFlagSet("token revoke", g, stderr, "NAME|ID...")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			return fmt.Errorf("%w: token revoke needs the name or id of a token (innate-mcp token list)", errUsage)
		}
		st, closeStore, err := m.openAdmin(ctx, g, stderr, writeAccess)
		if err != nil {
			return err
		}
		defer closeStore()
		for _, name := range fs.Args() {
			if err := st.RevokeToken(ctx, name, time.Now()); err != nil {
				if errors.Is(err, kb.ErrNotFound) {
					return fmt.Errorf("no token named %q (innate-mcp token list shows them)", name)
				}
				return err
			}
			fmt.Fprintf(stdout, "revoked %s\n", name)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown token command %q: use create, list or revoke", errUsage, sub)
}

func (m *Main) tokenCreate(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("token create", g, stderr, "--name NAME [--project P]... [--scope read|write|admin]")
	name := fs.String("name", "", "the token's name, unique (who or what uses it)")
	scope := fs.String("scope", "write", "read (recall, appraise, hesitate, stats), write (and record) or admin (and approve, reject, archive, restore)")
	var projects stringList
	fs.Var(&projects, "project", "limit the token to this project (repeatable); none: every project")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: token create takes flags only, not %q", errUsage, fs.Arg(0))
	}
	if strings.TrimSpace(*name) == "" || len(*name) > 100 || strings.ContainsAny(*name, "\n\r\t") {
		return fmt.Errorf("%w: token create needs --name, one line of at most 100 bytes", errUsage)
	}
	sc, err := auth.ParseScope(*scope)
	if err != nil {
		return fmt.Errorf("%w: --scope: %v", errUsage, err)
	}
	for i, p := range projects {
		if p == "" {
			return fmt.Errorf("%w: --project is empty", errUsage)
		}
		if !strings.Contains(p, "://") && !filepath.IsAbs(p) && strings.ContainsRune(p, filepath.Separator) {
			if abs, err := filepath.Abs(p); err == nil {
				projects[i] = abs
			}
		}
	}
	st, closeStore, err := m.openAdmin(ctx, g, stderr, writeAccess)
	if err != nil {
		return err
	}
	defer closeStore()
	secret, hash := auth.NewToken()
	t := kb.Token{ID: randid.New("tk_", 8), Name: strings.TrimSpace(*name), Scope: string(sc), Projects: projects, CreatedAt: time.Now().UTC()}
	if err := st.CreateToken(ctx, t, hash); err != nil {
		if errors.Is(err, kb.ErrExists) {
			return fmt.Errorf("a token named %q exists (revoked tokens keep their names): choose another name", t.Name)
		}
		return err
	}
	// The secret goes to stdout alone, once: it is not stored anywhere.
	fmt.Fprintln(stdout, secret)
	fmt.Fprintf(stderr, "token %s (%s, scope %s%s) created; the secret above is shown once and only its hash is stored\n",
		t.Name, t.ID, t.Scope, projectsNote(projects))
	return nil
}

func projectsNote(ps []string) string {
	if len(ps) == 0 {
		return ", every project"
	}
	return ", projects " + strings.Join(ps, ", ")
}

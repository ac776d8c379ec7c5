package setup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/atomicfile"
	"github.com/innate-mcp/innate-mcp/internal/linediff"
)

// Env is what setup reads of the machine: the home and project
// directories, the environment, and the programs on PATH. Tests give it a
// temporary home.
type Env struct {
	Home    string
	Project string // the project's root directory (project scope)
	GOOS    string
	Getenv  func(string) string
	// LookPath finds a program on PATH (exec.LookPath).
	LookPath func(string) (string, error)
	// Run runs a client's own CLI (claude mcp add); nil runs it with
	// os/exec, with Env.Home as HOME.
	Run func(ctx context.Context, argv []string) ([]byte, error)
	// Now stamps backup file names; time.Now when nil.
	Now func() time.Time
}

func (e *Env) isDir(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
func (e *Env) isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
func (e *Env) onPath(prog string) bool {
	if e.LookPath == nil {
		return false
	}
	_, err := e.LookPath(prog)
	return err == nil
}

func (e *Env) run(ctx context.Context, argv []string) ([]byte, error) {
	if e.Run != nil {
		return e.Run(ctx, argv)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = e.Project
	cmd.Env = append(os.Environ(), "HOME="+e.Home)
	return cmd.CombinedOutput()
}

func (e *Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Options is what the user asked of setup.
type Options struct {
	// Clients to set up: names from ClientNames; empty or "all" means
	// every client found installed.
	Clients []string
	Scope   Scope
	// Hooks installs hooks in the clients that support them.
	Hooks bool
	// DryRun changes nothing and reports the diff of every file.
	DryRun bool
	// Uninstall removes what setup added.
	Uninstall bool
	// Binary is the absolute path of the innate-mcp executable.
	Binary string
	// DB, when set, is the absolute database path the server and hooks
	// are given (--db); else they use the per-user default.
	DB string
	// StateFile records, for each file setup changed, its backup and its
	// hash right after the change, so that uninstall can restore the file
	// byte for byte when nothing else changed it since.
	StateFile string
	// HookTransport is how Claude Code's hooks reach innate-mcp:
	// HookCommand, HookMCP, or HookAuto (the default).
	HookTransport HookTransport
}

func (o *Options) serveArgs() []string {
	if o.DB != "" {
		return []string{"--db", o.DB, "serve"}
	}
	return []string{"serve"}
}

// edit is one file setup changes for a client.
type edit struct {
	path string
	what string // "MCP server innate", "hooks"
	// check refuses a file setup cannot parse.
	check func(text []byte) error
	// apply returns the text with setup's entries in place; remove
	// returns it without them. Both leave every other byte as it was.
	apply, remove func(text []byte) ([]byte, error)
	// cli, when set, makes the change through the client's own CLI.
	cli *cliEdit
}

// cliEdit is a change made by running a client's CLI.
type cliEdit struct{ add, remove []string }

// Change is what setup did (or would do) to one file.
type Change struct {
	Client string `json:"client"`
	File   string `json:"file"`
	What   string `json:"what"`
	// Action: "added", "updated", "unchanged", "removed", "restored"
	// (uninstall put back the original bytes), "deleted" (uninstall
	// removed a file setup had created), "absent" (nothing to remove).
	Action string `json:"action"`
	Backup string `json:"backup,omitempty"`
	// Via names the client CLI command that made the change.
	Via  string `json:"via,omitempty"`
	Diff string `json:"diff,omitempty"`
}

// Report is the outcome of Run.
type Report struct {
	Changes []Change `json:"changes"`
	// Skipped names the clients not found installed when all were asked.
	Skipped []string `json:"skipped,omitempty"`
	DryRun  bool     `json:"dry_run,omitempty"`
	// HookTransport is how Claude Code's hooks reach innate-mcp, when
	// setup installed them.
	HookTransport HookTransport `json:"hook_transport,omitempty"`
}

// Changed reports whether any file changed (or would).
func (r Report) Changed() bool {
	return slices.ContainsFunc(r.Changes, func(c Change) bool { return c.Action != "unchanged" && c.Action != "absent" })
}

// ErrUnknownClient is wrapped by the error for a client name setup does
// not know.
var ErrUnknownClient = errors.New("unknown client")

// Run sets up (or with Uninstall removes) innate-mcp in the chosen
// clients. Every file is checked before any is written: a file setup
// cannot parse stops it with an error naming the file, and nothing is
// written.
func Run(ctx context.Context, e *Env, o Options) (Report, error) {
	if o.Scope == "" {
		o.Scope = ScopeUser
	}
	if o.Scope != ScopeUser && o.Scope != ScopeProject {
		return Report{}, fmt.Errorf("unknown scope %q: use user or project", o.Scope)
	}
	if !filepath.IsAbs(o.Binary) {
		return Report{}, fmt.Errorf("binary path %q is not absolute", o.Binary)
	}
	clients, skipped, err := chooseClients(e, o.Clients)
	if err != nil {
		return Report{}, err
	}
	st, err := loadState(o.StateFile)
	if err != nil {
		return Report{}, err
	}
	if o.Hooks && !o.Uninstall && slices.ContainsFunc(clients, func(c Client) bool { return c.Name == "claude-code" }) {
		if o.HookTransport, err = resolveHookTransport(ctx, e, o.HookTransport); err != nil {
			return Report{}, err
		}
	}
	type planned struct {
		client string
		edit   edit
		before []byte
		exists bool
	}
	var plan []planned
	for _, c := range clients {
		edits, err := c.edits(e, &o)
		if err != nil {
			return Report{}, fmt.Errorf("%s: %w", c.Name, err)
		}
		for _, ed := range edits {
			before, exists, err := readConfig(ed.path)
			if err != nil {
				return Report{}, fmt.Errorf("%s: %w", c.Name, err)
			}
			if err := ed.check(before); err != nil {
				return Report{}, fmt.Errorf("%s: cannot read %s, so it was left alone (fix or move it, then run setup again): %w", c.Name, ed.path, err)
			}
			plan = append(plan, planned{c.Name, ed, before, exists})
		}
	}
	rep := Report{Skipped: skipped, DryRun: o.DryRun, HookTransport: o.HookTransport}
	for _, p := range plan {
		var ch Change
		var err error
		if o.Uninstall {
			ch, err = uninstallOne(ctx, e, &o, st, p.edit, p.before, p.exists)
		} else {
			ch, err = installOne(ctx, e, &o, st, p.edit, p.before, p.exists)
		}
		ch.Client = p.client
		rep.Changes = append(rep.Changes, ch)
		if err != nil {
			return rep, fmt.Errorf("%s: %s: %w", p.client, p.edit.path, err)
		}
	}
	if !o.DryRun {
		if err := st.save(o.StateFile); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// chooseClients resolves the names the user gave.
func chooseClients(e *Env, names []string) (chosen []Client, skipped []string, err error) {
	all := Clients()
	if len(names) == 0 || slices.Contains(names, "all") {
		for _, c := range all {
			if c.detect(e) {
				chosen = append(chosen, c)
			} else {
				skipped = append(skipped, c.Name)
			}
		}
		if len(chosen) == 0 {
			return nil, skipped, fmt.Errorf("no supported client found installed for this user (looked for %s): name one, e.g. innate-mcp setup claude-code",
				strings.Join(ClientNames()[:len(all)], ", "))
		}
		return chosen, skipped, nil
	}
	for _, n := range names {
		i := slices.IndexFunc(all, func(c Client) bool { return c.Name == n })
		if i < 0 {
			return nil, nil, fmt.Errorf("%w %q: the clients are %s", ErrUnknownClient, n, strings.Join(ClientNames(), ", "))
		}
		if !slices.ContainsFunc(chosen, func(c Client) bool { return c.Name == n }) {
			chosen = append(chosen, all[i])
		}
	}
	return chosen, nil, nil
}

// maxConfigBytes bounds the configuration files setup reads.
const maxConfigBytes = 16 << 20

// readConfig reads a configuration file; a missing one is empty. Symlinks
// are followed (dotfile managers link them), but only to regular files.
func readConfig(path string) ([]byte, bool, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > maxConfigBytes {
		return nil, false, fmt.Errorf("%s is larger than %d MiB: not a configuration file setup can edit", path, maxConfigBytes>>20)
	}
	b, err := os.ReadFile(path)
	return b, true, err
}

func installOne(ctx context.Context, e *Env, o *Options, st *state, ed edit, before []byte, exists bool) (Change, error) {
	ch := Change{File: ed.path, What: ed.what}
	after, err := ed.apply(before)
	if err != nil {
		return ch, err
	}
	if bytes.Equal(after, before) && exists {
		ch.Action = "unchanged"
		return ch, nil
	}
	ch.Action = "added"
	if rm, err := ed.remove(before); exists && err == nil && !bytes.Equal(rm, before) {
		ch.Action = "updated"
	}
	if ed.cli != nil {
		ch.Via = strings.Join(ed.cli.add[:3], " ")
	}
	if o.DryRun {
		ch.Diff = unifiedDiff(ed.path, before, after)
		return ch, nil
	}
	backup, err := writeBackup(e, ed.path, before, exists)
	if err != nil {
		return ch, err
	}
	ch.Backup = backup
	if ed.cli != nil {
		if ch.Action == "updated" {
			if out, err := e.run(ctx, ed.cli.remove); err != nil {
				return ch, fmt.Errorf("%s: %w: %s", strings.Join(ed.cli.remove, " "), err, bytes.TrimSpace(out))
			}
		}
		if out, err := e.run(ctx, ed.cli.add); err != nil {
			return ch, fmt.Errorf("%s: %w: %s", strings.Join(ed.cli.add, " "), err, bytes.TrimSpace(out))
		}
		if after, _, err = readConfig(ed.path); err != nil {
			return ch, err
		}
	} else if err := writeAtomic(ed.path, after, exists); err != nil {
		return ch, err
	}
	st.recordWrite(ed.path, exists, backup, after)
	return ch, nil
}

func uninstallOne(ctx context.Context, e *Env, o *Options, st *state, ed edit, cur []byte, exists bool) (Change, error) {
	ch := Change{File: ed.path, What: ed.what}
	rec, known := st.Files[ed.path]
	if exists && known && rec.After == hashOf(cur) {
		// Nothing changed the file since setup wrote it: put back the
		// original bytes (or remove the file setup created).
		var original []byte
		if rec.Existed {
			b, err := os.ReadFile(rec.Backup)
			if err != nil {
				return ch, fmt.Errorf("read the backup %s: %w", rec.Backup, err)
			}
			original = b
		}
		ch.Action = "restored"
		if !rec.Existed {
			ch.Action = "deleted"
		}
		if o.DryRun {
			ch.Diff = unifiedDiff(ed.path, cur, original)
			return ch, nil
		}
		if rec.Existed {
			if err := writeAtomic(ed.path, original, true); err != nil {
				return ch, err
			}
		} else if err := os.Remove(ed.path); err != nil {
			return ch, err
		}
		st.forget(ed.path)
		return ch, nil
	}
	if !exists {
		ch.Action = "absent"
		st.forget(ed.path)
		return ch, nil
	}
	after, err := ed.remove(cur)
	if err != nil {
		return ch, err
	}
	if bytes.Equal(after, cur) {
		ch.Action = "absent"
		return ch, nil
	}
	ch.Action = "removed"
	if o.DryRun {
		ch.Diff = unifiedDiff(ed.path, cur, after)
		return ch, nil
	}
	backup, err := writeBackup(e, ed.path, cur, true)
	if err != nil {
		return ch, err
	}
	ch.Backup = backup
	if ed.cli != nil {
		ch.Via = strings.Join(ed.cli.remove[:3], " ")
		if out, err := e.run(ctx, ed.cli.remove); err != nil {
			return ch, fmt.Errorf("%s: %w: %s", strings.Join(ed.cli.remove, " "), err, bytes.TrimSpace(out))
		}
	} else if err := writeAtomic(ed.path, after, true); err != nil {
		return ch, err
	}
	st.forget(ed.path)
	return ch, nil
}

// writeBackup copies a file's text beside it, as FILE.innate-backup-STAMP,
// before setup changes it; a file that did not exist has no backup.
func writeBackup(e *Env, path string, text []byte, exists bool) (string, error) {
	if !exists {
		return "", nil
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	base := path + ".innate-backup-" + e.now().UTC().Format("20060102T150405.000")
	for i := 0; ; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue // an earlier backup of the same moment is kept
		}
		if err != nil {
			return "", fmt.Errorf("write backup: %w", err)
		}
		_, werr := f.Write(text)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return "", fmt.Errorf("write backup %s: %w", name, werr)
		}
		return name, nil
	}
}

// writeAtomic writes text to path through a temporary file in the same
// directory and a rename, so that the file is never half written. An
// existing file keeps its mode (and the file a symlink points to is the
// one written); a new one is created 0600, its directory 0700.
func writeAtomic(path string, text []byte, exists bool) error {
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		path = resolved
	}
	mode := fs.FileMode(0o600)
	if exists {
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(path, mode, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// state is setup's record of the files it changed.
type state struct {
	Files map[string]fileRecord `json:"files"`
	dirty bool
}

// fileRecord is one file setup changed.
type fileRecord struct {
	// Existed tells whether the file was there before setup first
	// changed it; Backup holds its bytes from then.
	Existed bool   `json:"existed"`
	Backup  string `json:"backup,omitempty"`
	// After is the SHA-256 of the file right after setup's last change.
	After string `json:"after_sha256"`
}

func hashOf(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func loadState(path string) (*state, error) {
	st := &state{Files: map[string]fileRecord{}}
	if path == "" {
		return st, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("read setup state %s (delete it to start afresh; uninstall then removes only innate's entries): %w", path, err)
	}
	if st.Files == nil {
		st.Files = map[string]fileRecord{}
	}
	return st, nil
}

// recordWrite notes a change: the first one keeps the original's backup.
func (s *state) recordWrite(path string, existed bool, backup string, after []byte) {
	rec, ok := s.Files[path]
	if !ok {
		rec = fileRecord{Existed: existed, Backup: backup}
	}
	rec.After = hashOf(after)
	s.Files[path] = rec
	s.dirty = true
}

func (s *state) forget(path string) {
	if _, ok := s.Files[path]; ok {
		delete(s.Files, path)
		s.dirty = true
	}
}

func (s *state) save(path string) error {
	if path == "" || !s.dirty {
		return nil
	}
	if len(s.Files) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, statErr := os.Stat(path)
	return writeAtomic(path, append(b, '\n'), statErr == nil)
}

// Print writes the report for a person: one line a file, and the diffs of
// a dry run.
func (r Report) Print(w io.Writer) {
	for _, c := range r.Changes {
		verb := map[string]string{
			"added": "added", "updated": "updated", "unchanged": "already set up, unchanged",
			"removed": "removed", "restored": "restored the original", "deleted": "deleted (setup had created it)",
			"absent": "nothing of innate's there",
		}[c.Action]
		if r.DryRun && c.Action != "unchanged" && c.Action != "absent" {
			verb = "would be " + verb
		}
		line := fmt.Sprintf("%s: %s %s: %s", c.Client, c.File, c.What, verb)
		if c.Via != "" {
			line += " (through " + c.Via + ")"
		}
		if c.Backup != "" {
			line += "; backup " + c.Backup
		}
		fmt.Fprintln(w, line)
		if c.Diff != "" {
			fmt.Fprint(w, c.Diff)
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "not found installed, skipped: %s (name one to set it up anyway)\n", strings.Join(r.Skipped, ", "))
	}
	switch r.HookTransport {
	case HookMCP:
		fmt.Fprintln(w, "Claude Code's hooks: PreToolUse, PostToolUse and Stop call the server's hook tool over the session's MCP connection (no process per event); SessionStart and UserPromptSubmit run `innate-mcp hook EVENT`")
	case HookCommand:
		fmt.Fprintln(w, "Claude Code's hooks: each event runs `innate-mcp hook EVENT` (--hook-transport mcp needs Claude Code 2.1.118 or later)")
	}
	if !r.Changed() {
		fmt.Fprintln(w, "nothing to change")
	}
}

// unifiedDiff is the dry run's diff of one file.
func unifiedDiff(path string, before, after []byte) string {
	return linediff.Unified(path, path+" (after setup)", string(before), string(after))
}

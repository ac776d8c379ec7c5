// Package rulesync keeps a project's agent rule files and the knowledge
// base in step without anyone running import: when a project is first seen
// (a tool call naming it, a SessionStart hook, `setup --scope project`) and
// again after a file changed, it reads the rule files at the project's root
// (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules,
// .windsurfrules, .github/copilot-instructions.md, .cursor/rules/**/*.mdc,
// .github/instructions/**/*.instructions.md), the nested ones below it
// (src-ui/CLAUDE.md, src-ui/.cursor/rules/*.mdc, which govern their
// directory: nested.go) and the user's
// ~/.claude/CLAUDE.md (global, no project), and imports each changed one
// with kb's re-import semantics (changed rules linked, removed ones
// superseded, unchanged ones untouched).
//
// It is cheap when nothing changed: a project checked in the last Interval
// by this process is not looked at; otherwise each file's size and
// modification time are compared with the sync state stored in the
// database (one meta key a project, so that every process sees it), and
// only a file whose size or time differs is read and hashed; only one
// whose content hash differs is parsed, embedded and imported.
//
// It is bounded: at most MaxFiles files, each at most rulefile.MaxFileBytes
// and MaxProjectBytes together; files are opened through an os.Root, so a
// symbolic link that resolves outside the project root, or a name that
// would, is refused. Every refusal is a log line that says why, once per
// process for each file and reason; the sync goes on with the other files.
package rulesync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/regfile"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/rulefile"
)

// Limits of one project's sync.
const (
	// MaxFiles is the most rule files read in a project; the rest are
	// refused.
	MaxFiles = 64
	// MaxProjectBytes is the most the rule files of a project may hold
	// together; a file that would pass it is refused.
	MaxProjectBytes = 16 << 20
	// DefaultInterval is how long a project checked by this process is not
	// checked again.
	DefaultInterval = 2 * time.Second
	// maxWalkEntries bounds the entries a walk of a rule directory visits.
	maxWalkEntries = 4096
	// maxProjects bounds the projects a process remembers checking.
	maxProjects = 1024
)

// projectFiles are the rule files read at a project's root by name,
// slash-separated (ruleDirs are walked for the others).
func projectFiles() []string {
	return []string{
		"CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", "AGENTS.md", "GEMINI.md", ".cursorrules", ".windsurfrules",
		".github/copilot-instructions.md",
	}
}

// HoldsRules reports whether dir holds a rule file of a project at its
// root (CLAUDE.md, AGENTS.md, .cursorrules, .cursor/rules/, …): a
// directory outside any git repository is a project when it does.
func HoldsRules(dir string) bool {
	if dir == "" {
		return false
	}
	for _, f := range projectFiles() {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	for _, d := range ruleDirs() {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(d.dir))); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

// ruleDir is a directory of a project walked for rule files: those whose
// names end with suffix, at any depth.
type ruleDir struct{ dir, suffix string }

// ruleDirs are Cursor's rules (.cursor/rules/**/*.mdc) and GitHub
// Copilot's path-specific instructions
// (.github/instructions/**/*.instructions.md).
func ruleDirs() []ruleDir {
	return []ruleDir{{".cursor/rules", ".mdc"}, {".github/instructions", ".instructions.md"}}
}

// GlobalDir and GlobalFile are the user's own rule file, under the home
// directory: ~/.claude/CLAUDE.md, synced as global rules (no project).
const (
	GlobalDir  = ".claude"
	GlobalFile = "CLAUDE.md"
)

// metaKey prefixes the meta key of a project's sync state; the global
// rules' state is under metaKey alone.
const metaKey = "rule_sync:"

// Store is what the sync reads and writes of a store: its state in the
// meta table; nothing is synced into a read-only store.
type Store interface {
	kb.MetaStore
	ReadOnly() bool
}

// Importer imports a rule file with re-import semantics (kb.KB).
type Importer interface {
	ImportRuleFile(ctx context.Context, path, project string, data []byte) (kb.AddReport, error)
}

// Options configure a Syncer; the zero value syncs every project with the
// default interval and no global file.
type Options struct {
	// Home is the user's home directory, where ~/.claude/CLAUDE.md is
	// read; "" reads no global file.
	Home string
	// Interval is how long a project checked by this process is skipped;
	// 0 is DefaultInterval, a negative value checks on every call.
	Interval time.Duration
	// Enabled says whether the rule files of a project ("" for the
	// global file) are synced; nil syncs all. It is asked once a check,
	// after the interval, never on a skipped call.
	Enabled func(project string) bool
	// Log receives one line for every refused file and every failed sync.
	Log *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Background runs f apart from the call, in a process that lives on
	// (a server): the look for nested rule files, once NestedInterval has
	// passed since the last, is then not made in a sync call (unless no
	// look was ever made). nil: the call makes it.
	Background func(f func(ctx context.Context))
}

// Syncer syncs projects' rule files into a knowledge base. It is safe for
// concurrent use: one sync of a project runs at a time, and a call that
// comes while one runs waits for it rather than starting another.
type Syncer struct {
	kb    Importer
	store Store
	opt   Options

	mu       sync.Mutex
	projects map[string]*project
	refused  map[string]bool
	looking  map[string]bool // projects a background look runs for
}

// project is what a process remembers of a project: when it was last
// checked, and the token of the sync running (a channel of one).
type project struct {
	running chan struct{}
	checked time.Time
}

// New returns a Syncer of the rule files into k, keeping its state in
// store.
func New(k Importer, store Store, opt Options) *Syncer {
	if opt.Interval == 0 {
		opt.Interval = DefaultInterval
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Syncer{kb: k, store: store, opt: opt, projects: map[string]*project{}, refused: map[string]bool{}, looking: map[string]bool{}}
}

// Refusal is a rule file the sync did not read, and why.
type Refusal struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Report says what one Sync did.
type Report struct {
	Project string `json:"project"`
	// Skipped says why nothing was looked at ("" when the files were
	// checked): checked within the interval, turned off, not a directory,
	// a read-only store.
	Skipped string `json:"skipped,omitempty"`
	// Imported are the files whose content changed and was imported.
	Imported []FileState `json:"imported,omitempty"`
	// Gone are the files synced before and missing now, whose lessons
	// were superseded.
	Gone    []string  `json:"gone,omitempty"`
	Refused []Refusal `json:"refused,omitempty"`
}

// Why a Sync looked at nothing.
const (
	SkipRecent   = "checked within the interval"
	SkipDisabled = "rule sync is off for this project"
	SkipNoDir    = "the project is not a directory"
	SkipReadOnly = "the database is read-only"
)

// Seen syncs the global rule file and then project's, as a server does for
// the project of a call; a failure is logged, never returned: the call
// goes on with what the knowledge base holds.
func (s *Syncer) Seen(ctx context.Context, project string) {
	for _, p := range uniq("", project) {
		if _, err := s.Sync(ctx, p); err != nil && ctx.Err() == nil {
			s.opt.Log.Warn("rule sync failed; serving on with the lessons held", "project", p, "err", err)
		}
	}
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// Sync brings the lessons of project's rule files ("" for the user's
// global file) in line with the files, unless this process checked it
// within the interval. A project that is not an absolute path to a
// directory (a name an agent made up) has nothing to sync.
func (s *Syncer) Sync(ctx context.Context, projectName string) (Report, error) {
	return s.sync(ctx, projectName, false)
}

// sync is Sync; look also looks for nested rule files anew, whatever the
// interval (a background look).
func (s *Syncer) sync(ctx context.Context, projectName string, look bool) (Report, error) {
	rep := Report{Project: projectName}
	root, ok := s.root(projectName)
	if !ok {
		rep.Skipped = SkipNoDir
		return rep, nil
	}
	p := s.entry(projectName)
	if !look && s.fresh(p) {
		rep.Skipped = SkipRecent
		return rep, nil
	}
	select {
	case p.running <- struct{}{}:
	case <-ctx.Done():
		return rep, fmt.Errorf("wait for the rule sync of %q: %w", projectName, ctx.Err())
	}
	defer func() { <-p.running }()
	if !look && s.fresh(p) {
		rep.Skipped = SkipRecent
		return rep, nil
	}
	switch {
	case s.store.ReadOnly():
		rep.Skipped = SkipReadOnly
	case s.opt.Enabled != nil && !s.opt.Enabled(projectName):
		rep.Skipped = SkipDisabled
	}
	if rep.Skipped == "" {
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			rep.Skipped = SkipNoDir
		}
	}
	if rep.Skipped != "" {
		s.markChecked(p)
		return rep, nil
	}
	if err := s.syncRoot(ctx, projectName, root, &rep, look); err != nil {
		return rep, err
	}
	s.markChecked(p)
	return rep, nil
}

// root is the directory of a project's rule files: the project itself, or
// ~/.claude for the global rules.
func (s *Syncer) root(projectName string) (string, bool) {
	if projectName == "" {
		if s.opt.Home == "" {
			return "", false
		}
		return filepath.Join(s.opt.Home, GlobalDir), true
	}
	if !filepath.IsAbs(projectName) {
		return "", false
	}
	return filepath.Clean(projectName), true
}

func (s *Syncer) entry(name string) *project {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[name]
	if p == nil {
		if len(s.projects) >= maxProjects {
			clear(s.projects)
		}
		p = &project{running: make(chan struct{}, 1)}
		s.projects[name] = p
	}
	return p
}

func (s *Syncer) fresh(p *project) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !p.checked.IsZero() && s.opt.Now().Sub(p.checked) < s.opt.Interval
}

func (s *Syncer) markChecked(p *project) {
	s.mu.Lock()
	p.checked = s.opt.Now()
	s.mu.Unlock()
}

// syncRoot checks the rule files under root against the stored state,
// imports the changed ones, supersedes the lessons of the files gone, and
// stores the new state when anything changed.
func (s *Syncer) syncRoot(ctx context.Context, projectName, root string, rep *Report, look bool) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("open the project root %s: %w", root, err)
	}
	defer r.Close()
	prev, err := s.load(ctx, projectName)
	if err != nil {
		return err
	}
	before := map[string]FileState{}
	for _, f := range prev.Files {
		before[f.Path] = f
	}
	names := s.candidates(r, projectName, root, rep)
	next := State{Project: projectName, Root: root}
	changed := false
	if projectName != "" {
		next.Nested, next.Walked = s.nestedFiles(r, projectName, prev, look)
		names = append(names, next.Nested...)
		changed = !next.Walked.Equal(prev.Walked)
	}
	seen := map[string]bool{}
	var budget int64
	for i, name := range names {
		abs := filepath.Join(root, filepath.FromSlash(name))
		seen[abs] = true
		old, had := before[abs]
		keep := func() {
			if had {
				next.Files = append(next.Files, old)
			}
		}
		if i >= MaxFiles {
			s.refuse(rep, projectName, abs, fmt.Sprintf("the project has more than %d rule files; the files after the first %d (in name order) are not read", MaxFiles, MaxFiles))
			keep()
			continue
		}
		st, err := r.Stat(name)
		if err != nil {
			s.refuse(rep, projectName, abs, unreadable(r, root, name, err))
			keep()
			continue
		}
		if !st.Mode().IsRegular() {
			s.refuse(rep, projectName, abs, fmt.Sprintf("is %s, not a regular file", regfile.Type(st)))
			keep()
			continue
		}
		if st.Size() > rulefile.MaxFileBytes {
			s.refuse(rep, projectName, abs, fmt.Sprintf("holds %d bytes, more than %s, the limit of a rule file: split it", st.Size(), regfile.ByteSize(rulefile.MaxFileBytes)))
			keep()
			continue
		}
		if budget+st.Size() > MaxProjectBytes {
			s.refuse(rep, projectName, abs, fmt.Sprintf("the project's rule files would hold more than %s together with this one: remove or shorten large rule files", regfile.ByteSize(MaxProjectBytes)))
			keep()
			continue
		}
		budget += st.Size()
		if had && old.Size == st.Size() && old.ModTime.Equal(st.ModTime()) && old.Import >= ImportVersion {
			next.Files = append(next.Files, old)
			continue
		}
		f, imported, err := s.syncFile(ctx, r, name, abs, projectName, old)
		if err != nil {
			var bad *badFileError
			if errors.As(err, &bad) {
				s.refuse(rep, projectName, abs, bad.reason)
				keep()
				continue
			}
			return err
		}
		next.Files = append(next.Files, f)
		changed = true
		if imported {
			rep.Imported = append(rep.Imported, f)
		}
	}
	for _, f := range prev.Files {
		if seen[f.Path] {
			continue
		}
		// The file is gone: its rules are no longer the user's.
		if _, err := s.kb.ImportRuleFile(ctx, f.Path, projectName, nil); err != nil {
			return fmt.Errorf("supersede the lessons of %s, which is gone: %w", f.Path, err)
		}
		rep.Gone = append(rep.Gone, f.Path)
		changed = true
	}
	if !changed {
		return nil
	}
	return s.save(ctx, next)
}

// badFileError is a rule file the sync refuses for what it holds.
type badFileError struct{ reason string }

func (e *badFileError) Error() string { return e.reason }

// syncFile reads one rule file whose size or time changed: when its hash
// is old's it only notes the new size and time; otherwise it imports it.
func (s *Syncer) syncFile(ctx context.Context, r *os.Root, name, abs, projectName string, old FileState) (FileState, bool, error) {
	data, st, err := regfile.ReadFile(r, name, rulefile.MaxFileBytes)
	if err != nil {
		var big *regfile.TooLargeError
		if errors.As(err, &big) {
			return FileState{}, false, &badFileError{fmt.Sprintf("holds more than %s, the limit of a rule file: split it", regfile.ByteSize(rulefile.MaxFileBytes))}
		}
		return FileState{}, false, &badFileError{"cannot be read: " + err.Error()}
	}
	sum := sha256.Sum256(data)
	f := FileState{Path: abs, Size: st.Size(), ModTime: st.ModTime().UTC(), Hash: hex.EncodeToString(sum[:]), Import: ImportVersion}
	if f.Hash == old.Hash && old.Import >= ImportVersion {
		f.SyncedAt, f.Rules, f.Added, f.Changed, f.Removed = old.SyncedAt, old.Rules, old.Added, old.Changed, old.Removed
		return f, false, nil
	}
	ar, err := s.kb.ImportRuleFile(ctx, abs, projectName, data)
	if errors.Is(err, rulefile.ErrNotText) || errors.Is(err, rulefile.ErrFrontMatter) {
		return FileState{}, false, &badFileError{err.Error() + ": fix the file"}
	}
	if err != nil {
		return FileState{}, false, fmt.Errorf("import the rule file %s: %w", abs, err)
	}
	f.SyncedAt = s.opt.Now().UTC()
	f.Rules, f.Added, f.Changed, f.Removed = len(ar.Items), ar.Added, len(ar.Changed), len(ar.Removed)
	s.opt.Log.Info("rule file synced", "file", abs, "project", projectName, "rules", f.Rules, "added", f.Added,
		"changed", f.Changed, "removed", f.Removed)
	return f, true, nil
}

// unreadable says why name cannot be stat'ed in r: most often a symbolic
// link that leads outside the root, which os.Root refuses.
func unreadable(r *os.Root, root, name string, err error) string {
	if lst, lerr := r.Lstat(name); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
		abs := filepath.Join(root, filepath.FromSlash(name))
		dest, derr := filepath.EvalSymlinks(abs)
		realRoot, rerr := filepath.EvalSymlinks(root)
		if derr == nil && rerr == nil && !within(realRoot, dest) {
			return fmt.Sprintf("is a symbolic link to %s, outside the project root %s: rule files are read from inside the project only; copy the file in", dest, root)
		}
		target, _ := os.Readlink(abs)
		return fmt.Sprintf("is a symbolic link (to %s) that cannot be followed inside the project root %s: %v", target, root, err)
	}
	return "cannot be read: " + err.Error()
}

// within reports whether path is dir or under it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// candidates lists the rule files present under the root r, by name
// relative to it: the global file alone for the global rules, else Files
// then the files of Dirs, each walk in lexical order, symbolic links to
// directories not followed.
func (s *Syncer) candidates(r *os.Root, projectName, root string, rep *Report) []string {
	if projectName == "" {
		if _, err := r.Lstat(GlobalFile); err == nil {
			return []string{GlobalFile}
		}
		return nil
	}
	var out []string
	for _, name := range projectFiles() {
		if name == path.Join(GlobalDir, GlobalFile) && s.opt.Home != "" && filepath.Clean(root) == filepath.Clean(s.opt.Home) {
			continue // the user's own file, synced as the global rules
		}
		if _, err := r.Lstat(name); err == nil {
			out = append(out, name)
		}
	}
	fsys := r.FS()
	for _, d := range ruleDirs() {
		visited := 0
		err := fs.WalkDir(fsys, d.dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if p == d.dir {
					if _, lerr := r.Lstat(d.dir); lerr == nil {
						s.refuse(rep, projectName, filepath.Join(root, filepath.FromSlash(p)), unreadable(r, root, p, err))
					}
					return fs.SkipDir // no such directory: nothing to read
				}
				s.refuse(rep, projectName, filepath.Join(root, filepath.FromSlash(p)), "cannot be listed: "+err.Error())
				return nil
			}
			if visited++; visited > maxWalkEntries {
				s.refuse(rep, projectName, filepath.Join(root, filepath.FromSlash(d.dir)),
					fmt.Sprintf("holds more than %d entries; the rest are not read", maxWalkEntries))
				return fs.SkipAll
			}
			if !e.IsDir() && strings.HasSuffix(path.Base(p), d.suffix) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			s.refuse(rep, projectName, filepath.Join(root, filepath.FromSlash(d.dir)), "cannot be listed: "+err.Error())
		}
	}
	return out
}

// refuse notes a refused file in the report and logs it, once per process
// for each file and reason.
func (s *Syncer) refuse(rep *Report, projectName, abs, reason string) {
	rep.Refused = append(rep.Refused, Refusal{Path: abs, Reason: reason})
	s.mu.Lock()
	key := abs + "\x00" + reason
	first := !s.refused[key]
	if first {
		if len(s.refused) >= maxProjects*MaxFiles {
			clear(s.refused)
		}
		s.refused[key] = true
	}
	s.mu.Unlock()
	if first {
		s.opt.Log.Warn("rule file refused", "file", abs, "project", projectName, "reason", reason)
	}
}

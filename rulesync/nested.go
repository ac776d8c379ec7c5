package rulesync

import (
	"context"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Nested rule files: a CLAUDE.md, AGENTS.md or .cursorrules below the
// root governs its directory (src-ui/CLAUDE.md holds for src-ui), as the
// agents read them when they work there. Their rules are imported with
// that directory as their scope (rulefile.ScopeDir), which confines their
// checks to it (check.Scope).
const (
	// maxNestedDepth is how deep below the root nested rule files are
	// looked for: src/app/ui/CLAUDE.md is at depth 3.
	maxNestedDepth = 4
	// maxNestedDirs bounds the directories one look visits.
	maxNestedDirs = 2048
	// NestedInterval is how long the nested files a look found are
	// trusted: within it a sync checks the files it found (their edits
	// and removals are seen at once) without walking the tree again; a new
	// nested file is seen within it.
	NestedInterval = time.Minute
)

// skipDirs are directories that hold no rule file of the project's own:
// dependencies, build output and caches. Hidden directories are skipped
// too, but for the rule directories (ruleDirs) of a nested directory.
var skipDirs = map[string]bool{
	"node_modules": true, "vendor": true, "third_party": true, "bower_components": true, "Pods": true,
	"target": true, "dist": true, "build": true, "out": true, "bin": true, "obj": true,
	"venv": true, "env": true, "__pycache__": true, "site-packages": true, "coverage": true,
	"testdata": true, "fixtures": true,
}

// nestedNames are the rule files looked for in a nested directory.
func nestedNames() []string {
	return slices.DeleteFunc(projectFiles(), func(n string) bool { return strings.Contains(n, "/") })
}

// nestedFiles returns the project's nested rule files, slash-separated
// from the root, and when they were looked for: what the previous look
// found while it is within NestedInterval (less the files removed since),
// else what a new look finds. A stale look is not redone in the call when
// the Syncer has a Background and a look is stored: the call goes on with
// the files found then, and the look runs in the background (lookLater).
func (s *Syncer) nestedFiles(r *os.Root, projectName string, prev State, force bool) (names []string, walked time.Time) {
	now := s.opt.Now()
	stale := prev.Walked.IsZero() || now.Sub(prev.Walked) >= NestedInterval || now.Before(prev.Walked)
	if force || stale && (prev.Walked.IsZero() || s.opt.Background == nil) {
		// Listing goes by path, not through r: os.Root opens each
		// directory component by component, several times slower, and a
		// listing reads no file. Directories behind symbolic links are not
		// entered, and the files found are read through r, which refuses
		// any that leads out.
		return walkNested(os.DirFS(r.Name())), now
	}
	if stale {
		s.lookLater(projectName)
	}
	// A file removed since is gone, as one at the root is.
	return slices.DeleteFunc(slices.Clone(prev.Nested), func(n string) bool {
		_, err := r.Lstat(n)
		return err != nil
	}), prev.Walked
}

// lookLater has the Background look for a project's nested rule files
// again and sync what it finds, once at a time for a project.
func (s *Syncer) lookLater(projectName string) {
	s.mu.Lock()
	if s.looking[projectName] {
		s.mu.Unlock()
		return
	}
	s.looking[projectName] = true
	s.mu.Unlock()
	s.opt.Background(func(ctx context.Context) {
		defer func() {
			s.mu.Lock()
			delete(s.looking, projectName)
			s.mu.Unlock()
		}()
		if _, err := s.sync(ctx, projectName, true); err != nil && ctx.Err() == nil {
			s.opt.Log.Warn("look for nested rule files failed", "project", projectName, "err", err)
		}
	})
}

// walkNested looks for nested rule files breadth first, in name order, at
// most maxNestedDepth deep and maxNestedDirs directories in all; a
// directory it cannot list is passed over.
func walkNested(fsys fs.FS) []string {
	var out []string
	names := nestedNames()
	queue := []string{"."}
	for visited := 0; len(queue) > 0 && visited < maxNestedDirs; visited++ {
		dir := queue[0]
		queue = queue[1:]
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			continue
		}
		depth := 0
		if dir != "." {
			depth = strings.Count(dir, "/") + 1
		}
		for _, e := range entries {
			name := e.Name()
			p := path.Join(dir, name)
			switch {
			case e.IsDir() && depth > 0 && name == ".cursor":
				out = append(out, walkSuffix(fsys, path.Join(p, "rules"), ".mdc")...)
			case e.IsDir():
				if depth+1 <= maxNestedDepth && !skipDirs[name] && !strings.HasPrefix(name, ".") {
					queue = append(queue, p)
				}
			case depth > 0 && e.Type().IsRegular() && slices.Contains(names, name):
				out = append(out, p)
			}
		}
	}
	return out
}

// walkSuffix lists the files under dir whose names end with suffix, at any
// depth, at most maxWalkEntries entries visited.
func walkSuffix(fsys fs.FS, dir, suffix string) []string {
	var out []string
	visited := 0
	_ = fs.WalkDir(fsys, dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if visited++; visited > maxWalkEntries {
			return fs.SkipAll
		}
		if !e.IsDir() && strings.HasSuffix(path.Base(p), suffix) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

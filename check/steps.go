package check

import (
	"path"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// Steps before a commit: what makes a commit, what a session staged or
// wrote since its last one, and whether an earlier step ran.

// Committing reports whether a command makes a commit.
func Committing(c action.Command) bool {
	sub := c.Sub(1)
	return c.Program == "git" && len(sub) == 1 && sub[0] == "commit"
}

// sinceCommit is what was written or staged since the session's last
// commit, as of the action's i-th command: the history's, and what the
// action itself wrote and staged before it.
func sinceCommit(h History, a action.Action, i int) []string {
	out := slices.Clone(h.SinceCommit)
	for _, w := range a.Writes {
		out = append(out, w.Path)
	}
	for _, c := range a.Commands[:i] {
		if Committing(c) {
			out = out[:0]
			continue
		}
		if paths, ok := Stages(c); ok {
			out = append(out, paths...)
		}
	}
	return out
}

// docsAlone reports whether paths are known and all documents.
func docsAlone(paths []string) bool {
	return len(paths) > 0 && !slices.ContainsFunc(paths, func(p string) bool { return !IsDoc(p) })
}

// Stages reports whether a command stages files for the next commit (`git
// add`), and which, relative to the project root as far as the command
// shows them. A stage of everything (`-A`, `-u`, `.`, a pattern, an
// expansion, a file list read elsewhere) is ".": not a document, so that a
// commit after it is never read as one of docs alone.
func Stages(c action.Command) ([]string, bool) {
	if c.Program != "git" {
		return nil, false
	}
	if sub := c.Sub(1); len(sub) != 1 || sub[0] != "add" {
		return nil, false
	}
	all := func() ([]string, bool) { return []string{"."}, true }
	for _, f := range []string{"-A", "--all", "-u", "--update", "-p", "--patch", "-i", "--interactive", "--pathspec-from-file"} {
		if c.Has(f) {
			return all()
		}
	}
	for _, a := range c.Args {
		if !a.Known {
			return all()
		}
	}
	pos := c.Positionals()
	if len(pos) < 2 {
		return all() // nothing named: git stages nothing, but say so safely
	}
	var out []string
	for _, p := range pos[1:] {
		p = strings.TrimPrefix(strings.ReplaceAll(p, `\`, "/"), "./")
		if p == "" || p == "." || strings.ContainsAny(p, "*?[:") || strings.HasPrefix(p, "../") {
			return all()
		}
		if c.Dir == "?" {
			return all()
		}
		if c.Dir != "" && !strings.HasPrefix(p, "/") {
			p = path.Join(c.Dir, p)
		}
		out = append(out, path.Clean(p))
	}
	return out, true
}

// verifies reports whether a step is a test, a build or a type check: by
// its classes, or by what its program and subcommand words run.
func verifies(step *CommandPattern) bool {
	kinds := []string{"test", "build", "typecheck"}
	if len(step.Classes) > 0 {
		return slices.ContainsFunc(step.Classes, func(cl string) bool { return slices.Contains(kinds, cl) })
	}
	for _, p := range step.Programs {
		c := action.Command{Program: action.ProgramName(p)}
		for _, w := range step.Sub {
			c.Args = append(c.Args, action.Arg{Value: w, Known: true})
		}
		if slices.ContainsFunc(kinds, func(k string) bool { return InClass(c, k) }) {
			return true
		}
	}
	return false
}

// ranBefore reports whether one of cmds matches the step.
func ranBefore(step *CommandPattern, cmds []action.Command) bool {
	return slices.ContainsFunc(cmds, step.matches)
}

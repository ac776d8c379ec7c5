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

// SinceCommit is since, what was written or staged since the session's
// last commit, after the writes and the commands cmds of one action (its
// writes first, as a line's redirections land before its commit is
// judged): a commit empties it, `git add` adds what it stages. Paths are
// kept once each; a write outside the project (absolute) is none of a
// commit. It returns a new slice.
func SinceCommit(since []string, writes []action.Write, cmds []action.Command) []string {
	out := slices.Clone(since)
	add := func(p string) {
		if p != "" && !path.IsAbs(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, w := range writes {
		add(w.Path)
	}
	for _, c := range cmds {
		if Committing(c) {
			out = out[:0]
			continue
		}
		paths, _ := Stages(c)
		for _, p := range paths {
			add(p)
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

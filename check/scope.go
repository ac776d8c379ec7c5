package check

import (
	"path"
	"slices"
	"strings"
)

// Scope is where a rule holds, from where its rule file sits and what the
// file says: Dir is the project-relative directory of a nested rule file
// (src-ui/CLAUDE.md governs src-ui; "" at the root), Globs the files the
// rule file names (Cursor's and Copilot's front matter), relative to Dir.
type Scope struct {
	Dir   string
	Globs []string
}

// Confine limits a check to the rule's scope, the same for every author of
// a check, and returns it (c is not changed):
//   - a write check with no paths applies to the scope's files (Globs,
//     else everything under Dir);
//   - under a Dir, the check's own paths and conditions are read from that
//     directory, as the rule file's author wrote them ("generated/" in
//     src-ui/CLAUDE.md is src-ui/**/generated/, "/build" is src-ui/build);
//   - under a Dir, a command or message check holds only in a session that
//     works there (Condition.In), as an agent reads a nested rule file only
//     when it works there.
//
// Globs alone never confine a command or a message: front matter names the
// files whose editing brings a rule in, not the commands it governs.
func (s Scope) Confine(c Check) Check {
	dir := strings.Trim(path.Clean("/"+strings.ReplaceAll(s.Dir, `\`, "/")), "/")
	if dir == "" && len(s.Globs) == 0 {
		return c
	}
	if c.When != nil {
		w := *c.When
		w.Touched = reroot(dir, w.Touched)
		c.When = &w
	}
	switch {
	case c.Write != nil:
		w := *c.Write
		switch {
		case len(w.Paths) == 0 && len(s.Globs) > 0:
			w.Paths = reroot(dir, s.Globs)
		case len(w.Paths) == 0:
			w.Paths = []string{dir + "/"}
		default:
			w.Paths = reroot(dir, w.Paths)
		}
		c.Write = &w
	case dir != "":
		w := Condition{}
		if c.When != nil {
			w = *c.When
		}
		if !slices.Contains(w.In, dir) {
			w.In = append(slices.Clone(w.In), dir)
		}
		c.When = &w
	}
	return c
}

// reroot reads globs written in dir as globs from the project root: an
// anchored glob is joined to dir, one that matches at any depth matches at
// any depth under dir. An absolute or home glob is kept.
func reroot(dir string, globs []string) []string {
	if dir == "" || len(globs) == 0 {
		return globs
	}
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(g, "!")), "./")
		switch {
		case strings.HasPrefix(g, "~"), strings.HasPrefix(g, dir+"/"):
		case strings.HasPrefix(g, "/"), strings.Contains(strings.Trim(g, "/"), "/"):
			g = dir + "/" + strings.TrimPrefix(g, "/")
		default:
			g = dir + "/**/" + g
		}
		if neg {
			g = "!" + g
		}
		out = append(out, g)
	}
	return out
}

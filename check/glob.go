package check

import (
	"errors"
	"path"
	"slices"
	"strings"
)

// validGlob reports whether a glob is one Glob accepts (a leading "!"
// excludes, as in .gitignore; see Globs).
func validGlob(g string) error {
	g = strings.TrimPrefix(strings.TrimSpace(g), "!")
	if strings.TrimSpace(g) == "" {
		return errors.New("empty")
	}
	for _, seg := range strings.Split(strings.Trim(g, "/"), "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

// Glob reports whether a slash-separated path relative to the project root
// matches a pattern as .gitignore reads it: "*.lock" and "generated/"
// match at any depth, "src/gen/*.go" and "/build" from the root, "dir/"
// and "dir/**" everything under dir, "**" any number of directories. A
// path outside the project (absolute) matches only an absolute pattern.
func Glob(pattern, p string) bool {
	pattern = strings.TrimSpace(strings.ReplaceAll(pattern, `\`, "/"))
	pattern = strings.TrimPrefix(pattern, "./")
	p = strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, `\`, "/")), "./")
	if pattern == "" || p == "" || p == "." {
		return false
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		if !strings.HasPrefix(pattern, "/") && !strings.HasPrefix(pattern, "~") {
			return false
		}
		return matchSegs(split(pattern), split(p))
	}
	if strings.HasPrefix(p, "../") || p == ".." {
		return false
	}
	dir := strings.HasSuffix(pattern, "/")
	trimmed := strings.Trim(pattern, "/")
	if trimmed == "" {
		return false // "/" is the root itself, not everything under it
	}
	anchored := strings.HasPrefix(pattern, "/") || strings.Contains(trimmed, "/")
	segs := split(trimmed)
	if dir {
		segs = append(segs, "**")
	} else {
		// "gen" names a file or a directory: everything under it too.
		segs = append(segs, "**")
	}
	if !anchored {
		segs = append([]string{"**"}, segs...)
	}
	return matchSegs(segs, split(p))
}

// GlobTail is Glob for a path known only by its tail: a plan's
// "client/net.ts" or "Toast.test.tsx" may lie under folders it does not
// name. It matches where some file ending with p matches the pattern,
// the tail's first folder standing where the pattern names a folder, by
// more than a directory's "everything under it": "frontend/**/*.test.tsx"
// holds "Toast.test.tsx", "src/client/" holds "client/net.ts" but no
// "net.ts", and "sdk/src/**/*.py" no "core/src/a.py".
func GlobTail(pattern, p string) bool {
	if Glob(pattern, p) {
		return true
	}
	pattern = strings.TrimPrefix(strings.TrimSpace(strings.ReplaceAll(pattern, `\`, "/")), "./")
	p = strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, `\`, "/")), "./")
	if strings.Trim(pattern, "/") == "" || p == "" || p == "." || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "..") {
		return false
	}
	segs, want := append(split(pattern), "**"), split(p)
	for i := 1; i < len(segs); i++ {
		rest := segs[i:]
		if !slices.ContainsFunc(rest, func(s string) bool { return s != "**" }) {
			break // "everything under a folder": no file's tail is in it
		}
		if len(want) > 1 && rest[0] == "**" {
			continue // a tail's first folder stands where the glob names one
		}
		if matchSegs(rest, want) {
			return true
		}
	}
	return false
}

// GlobsTail is Globs with GlobTail: an exclusion excludes a path whose
// tail it may hold.
func GlobsTail(patterns []string, p string) bool {
	return globs(patterns, p, GlobTail)
}

func split(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// matchSegs matches path segments against pattern segments, "**" matching
// any number of them (a trailing "**" also none).
func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for len(rest) > 0 && rest[0] == "**" {
				rest = rest[1:]
			}
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegs(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// Globs reports whether a path matches a list of patterns as .gitignore
// reads one: the last pattern that matches decides, and a pattern opening
// with "!" excludes what it matches ("src/**/*.ts", "!*.test.ts"). A list
// of exclusions alone excludes from everything.
func Globs(patterns []string, p string) bool {
	return globs(patterns, p, Glob)
}

func globs(patterns []string, p string, glob func(pattern, p string) bool) bool {
	in, onlyNot := false, true
	for _, g := range patterns {
		g = strings.TrimSpace(g)
		neg := strings.HasPrefix(g, "!")
		if !neg {
			onlyNot = false
		}
		if glob(strings.TrimPrefix(g, "!"), p) {
			in = !neg
		}
	}
	if onlyNot && len(patterns) > 0 {
		for _, g := range patterns {
			if glob(strings.TrimPrefix(strings.TrimSpace(g), "!"), p) {
				return false
			}
		}
		return true
	}
	return in
}

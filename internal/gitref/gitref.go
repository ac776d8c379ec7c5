// Package gitref tells which branch a working tree has checked out, by
// reading its HEAD file: no git process, no network, a few small reads.
package gitref

import (
	"os"
	"path/filepath"
	"strings"
)

// maxUp bounds how many directories Branch climbs to find the repository.
const maxUp = 32

// maxHeadBytes bounds what is read of a HEAD or .git file.
const maxHeadBytes = 4 << 10

// Branch returns the branch checked out in the repository that holds dir
// ("main"), or "" when there is none, HEAD is detached, or it cannot be
// read. A linked worktree's or a submodule's ".git" file is followed.
func Branch(dir string) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	for range maxUp {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := dotgit
			if !fi.IsDir() {
				b, err := readSmall(dotgit)
				if err != nil {
					return ""
				}
				gitDir = GitDir(b)
				if gitDir == "" {
					return ""
				}
				if !filepath.IsAbs(gitDir) {
					gitDir = filepath.Join(dir, gitDir)
				}
			}
			b, err := readSmall(filepath.Join(gitDir, "HEAD"))
			if err != nil {
				return ""
			}
			name := HeadBranch(b)
			if name != "" && unborn(gitDir, name) {
				// A repository's first commit is made on a branch that
				// does not exist yet: no work stands on it.
				return ""
			}
			return name
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

// unborn reports whether branch has no commit yet: neither a loose ref
// nor a packed one in the repository's common directory (a linked
// worktree's "commondir"). A repository that keeps its refs in a reftable
// cannot be read here, and its branches count as born.
func unborn(gitDir, branch string) bool {
	common := gitDir
	if b, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
		if c := strings.TrimSpace(string(b)); c != "" {
			if !filepath.IsAbs(c) {
				c = filepath.Join(gitDir, c)
			}
			common = c
		}
	}
	if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil {
		return false
	}
	if _, err := os.Stat(filepath.Join(common, "refs", "heads", filepath.FromSlash(branch))); err == nil {
		return false
	}
	packed, err := os.ReadFile(filepath.Join(common, "packed-refs"))
	if err != nil {
		return true
	}
	return !strings.Contains(string(packed), " refs/heads/"+branch+"\n")
}

// HeadBranch reads a HEAD file's content: the branch of "ref:
// refs/heads/NAME", or "" for a detached HEAD or anything else.
func HeadBranch(head []byte) string {
	s := strings.TrimSpace(string(head))
	ref, ok := strings.CutPrefix(s, "ref:")
	if !ok {
		return ""
	}
	name, ok := strings.CutPrefix(strings.TrimSpace(ref), "refs/heads/")
	if !ok || name == "" || strings.ContainsAny(name, " \t\n\r~^:?*[\\") {
		return ""
	}
	return name
}

// GitDir reads a ".git" file's content ("gitdir: PATH"): the path, or "".
func GitDir(dotgit []byte) string {
	s := strings.TrimSpace(string(dotgit))
	p, ok := strings.CutPrefix(s, "gitdir:")
	if !ok {
		return ""
	}
	return strings.TrimSpace(p)
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, maxHeadBytes)
	n, err := f.Read(b)
	if n > 0 {
		return b[:n], nil
	}
	return nil, err
}

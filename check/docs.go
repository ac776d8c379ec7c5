package check

import (
	"path"
	"slices"
	"strings"
)

// docExts and docNames are the files that document rather than run, and
// agentDirs hold coding agents' and editors' own state and instructions:
// an edit of them alone needs no test.
var (
	docExts   = []string{".md", ".mdx", ".markdown", ".rst", ".adoc", ".org"}
	docNames  = []string{"LICENSE", "LICENCE", "CHANGELOG", "AUTHORS", "NOTICE", "CONTRIBUTORS"}
	agentDirs = []string{".claude", ".cursor", ".specstory", ".taskmaster", ".windsurf", ".kiro", ".codex", ".gemini", ".aider", ".vscode", ".idea", ".innate-mcp"}
)

// IsDoc reports whether a file of the root is documentation or an agent's
// own state rather than code.
func IsDoc(p string) bool {
	if p == "" {
		return false
	}
	if first, _, _ := strings.Cut(p, "/"); slices.Contains(agentDirs, first) {
		return true
	}
	base := path.Base(p)
	ext := strings.ToLower(path.Ext(base))
	return slices.Contains(docExts, ext) || slices.Contains(docNames, strings.ToUpper(strings.TrimSuffix(base, path.Ext(base))))
}

package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is a Markdown link: [label](target).
var mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// TestDocs_relativeLinksResolve: every relative link of README.md,
// ARCHITECTURE.md and docs/*.md names a file of the repository, and every
// #anchor a heading of the Markdown file it points at.
func TestDocs_relativeLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	files := []string{filepath.Join(root, "README.md"), filepath.Join(root, "ARCHITECTURE.md")}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, docs...)
	if len(docs) == 0 {
		t.Fatal("no docs/*.md found")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(stripFences(string(b)), -1) {
			target := m[1]
			if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s: link %q: %s does not exist", f, target, dest)
				continue
			}
			if frag != "" && strings.HasSuffix(dest, ".md") && !headings(t, dest)[frag] {
				t.Errorf("%s: link %q: %s has no heading #%s", f, target, dest, frag)
			}
		}
	}
}

// stripFences removes fenced code blocks, whose brackets are not links.
func stripFences(s string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// headings returns the anchors GitHub gives a Markdown file's headings.
func headings(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for line := range strings.Lines(stripFences(string(b))) {
		line = strings.TrimRight(line, "\r\n")
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var s strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				s.WriteRune('-')
			case r == '-' || r == '_' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r > 127:
				s.WriteRune(r)
			}
		}
		out[s.String()] = true
	}
	return out
}

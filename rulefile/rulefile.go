package rulefile

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// Rule is one lesson parsed from a rule file.
type Rule struct {
	// Content is the rule as Markdown: a list item without its marker
	// (with continuation lines, nested items and attached code blocks), a
	// paragraph, a table, or a heading followed by merged short items.
	// Never empty.
	Content string `json:"content"`
	// Trigger says when the rule applies: the front matter description,
	// the globs ("files: **/*.go") and the heading path ("Testing > Table
	// tests"), joined with "; ". Empty when the file gives no context.
	Trigger string `json:"trigger,omitempty"`
	// Tags come from the kind of file, its folder, the glob extensions,
	// "always-apply" for rules marked alwaysApply, and the headings; lower
	// case, without duplicates.
	Tags []string `json:"tags,omitempty"`
	// Source locates the rule: the file name, "#" and the slug of the
	// nearest heading when there is one, ":" and the 1-based line.
	Source string `json:"source"`
}

// MaxFileBytes is the most a rule file may hold: a rule file is pages of
// Markdown a person writes, and what is larger is refused unread by import
// and by the rule files' sync.
const MaxFileBytes = 4 << 20

// Errors returned by Parse, wrapped with detail; compare with errors.Is.
var (
	// ErrNotText means the data is not UTF-8 text (invalid encoding or
	// binary content).
	ErrNotText = errors.New("not a text file")
	// ErrFrontMatter means a front matter block opened with --- is never
	// closed.
	ErrFrontMatter = errors.New("unterminated front matter")
)

// Parse splits a rule file into rules. name is the file's path or base name
// and selects the format: *.mdc and *.md files may open with YAML front
// matter (description, globs, alwaysApply, applyTo); every file, including
// .cursorrules and other names, is then read as Markdown, and a file without
// Markdown structure becomes one rule per paragraph.
//
// A file that is empty or holds only front matter gives no rules and no
// error. Parse returns an error wrapping ErrNotText for invalid UTF-8 or
// binary data, and one wrapping ErrFrontMatter for a .mdc file whose front
// matter is never closed (in a .md file an unclosed "---" is read as a
// thematic break). It is safe for concurrent use.
func Parse(name string, data []byte) ([]Rule, error) {
	return ParseIn("", name, data)
}

// Trigger parts that say where a rule holds: FilesPrefix opens the globs
// of the file's front matter, DirPrefix the directory a nested rule file
// governs (ParseIn).
const (
	FilesPrefix = "files: "
	DirPrefix   = "in: "
)

// ParseIn is Parse for a rule file nested in a project: dir is the
// project-relative directory it governs (ScopeDir), named in every rule's
// trigger (DirPrefix); "" is the project's root, as Parse reads it.
func ParseIn(dir, name string, data []byte) ([]Rule, error) {
	if err := checkText(data); err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	text := string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var fm frontMatter
	body, bodyLine := text, 1
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".mdc", ".md", ".markdown":
		f, b, l, err := splitFrontMatter(text)
		switch {
		case err == nil:
			fm, body, bodyLine = f, b, l
		case ext == ".mdc":
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		// In a Markdown file an unclosed "---" is a thematic break.
	}
	ctx := fileContext(name, fm)
	ctx.dir = strings.Trim(path.Clean("/"+strings.ReplaceAll(strings.ToValidUTF8(dir, "\uFFFD"), "\\", "/")), "/")
	blocks := parseBlocks(strings.Split(body, "\n"), bodyLine)
	return buildRules(ctx, blocks), nil
}

// checkText rejects invalid UTF-8 and binary data: NUL bytes, or more than
// 1% control characters other than tab, newline, carriage return and form
// feed.
func checkText(data []byte) error {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return fmt.Errorf("%w: invalid UTF-8 at byte %d", ErrNotText, i)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return fmt.Errorf("%w: NUL byte at %d (binary data)", ErrNotText, i)
	}
	ctrl := 0
	for _, c := range data {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			ctrl++
		}
	}
	if ctrl > 0 && ctrl*100 > len(data) {
		return fmt.Errorf("%w: %d control characters in %d bytes (binary data)", ErrNotText, ctrl, len(data))
	}
	return nil
}

// context is what a file tells about all its rules.
type context struct {
	name        string
	description string
	globs       []string
	dir         string   // the directory a nested file governs
	tags        []string // kind, folder and glob tags
	skipTitle   string   // an H1 that only repeats the file name
}

// genericDirs are folder names that say nothing about the rules inside.
var genericDirs = map[string]bool{
	"rules": true, "rules-new": true, "instructions": true, "prompts": true, "docs": true,
	"": true, ".": true, "/": true,
}

func fileContext(name string, fm frontMatter) context {
	name = strings.ReplaceAll(strings.ToValidUTF8(name, "\uFFFD"), "\\", "/")
	base := path.Base(name)
	c := context{name: name, description: fm.description, globs: fm.globs, skipTitle: base}
	lower := strings.ToLower(base)
	switch {
	case lower == "claude.md" || lower == "claude.local.md":
		c.tags = append(c.tags, "claude")
	case lower == "agents.md":
		c.tags = append(c.tags, "agents")
	case lower == "gemini.md":
		c.tags = append(c.tags, "gemini")
	case lower == ".cursorrules" || strings.HasSuffix(lower, ".mdc"):
		c.tags = append(c.tags, "cursor")
	case lower == ".windsurfrules":
		c.tags = append(c.tags, "windsurf")
	case lower == "copilot-instructions.md" || strings.HasSuffix(lower, ".instructions.md"):
		c.tags = append(c.tags, "copilot")
	}
	// The nearest folder that is neither hidden nor generic.
	for dir := path.Dir(name); dir != "." && dir != "/"; dir = path.Dir(dir) {
		d := path.Base(dir)
		if strings.HasPrefix(d, ".") || genericDirs[strings.ToLower(d)] {
			continue
		}
		c.tags = append(c.tags, slug(d))
		break
	}
	for _, g := range fm.globs {
		c.tags = append(c.tags, globExts(g)...)
	}
	if fm.alwaysApply {
		c.tags = append(c.tags, "always-apply")
	}
	c.tags = dedup(c.tags)
	return c
}

// globExts returns the file extensions a glob selects: "**/*.go" gives
// "go", "src/**/*.{ts,tsx}" gives "ts" and "tsx".
func globExts(g string) []string {
	i := strings.LastIndex(g, "*.")
	if i < 0 {
		return nil
	}
	ext := g[i+2:]
	if strings.HasPrefix(ext, "{") && strings.HasSuffix(ext, "}") {
		var out []string
		for _, e := range strings.Split(ext[1:len(ext)-1], ",") {
			if e = strings.TrimSpace(e); isExt(e) {
				out = append(out, strings.ToLower(e))
			}
		}
		return out
	}
	if isExt(ext) {
		return []string{strings.ToLower(ext)}
	}
	return nil
}

func isExt(e string) bool {
	if e == "" || len(e) > 12 {
		return false
	}
	for _, r := range e {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// slug lower-cases s and joins its words with "-", as heading anchors do.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '/' || r == '.':
			dash = b.Len() > 0
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= utf8.RuneSelf && isLetterOrDigit(r):
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

func dedup(tags []string) []string {
	seen := map[string]bool{}
	out := tags[:0]
	for _, t := range tags {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// configDirs hold an agent's rule files for the directory that holds
// them: .cursor/rules/x.mdc governs the directory above .cursor.
var configDirs = map[string]bool{".cursor": true, ".github": true, ".claude": true, ".windsurf": true}

// ScopeDir is the directory a rule file governs, from its slash-separated
// path relative to the project's root: "" for the root's own files
// (CLAUDE.md, .cursor/rules/go.mdc), "src-ui" for src-ui/CLAUDE.md and
// src-ui/.cursor/rules/ts.mdc. A path that leaves the root governs the
// root.
func ScopeDir(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, `\`, "/"))
	if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	segs := strings.Split(path.Dir(rel), "/")
	for i, s := range segs {
		if configDirs[s] {
			segs = segs[:i]
			break
		}
	}
	dir := strings.Join(segs, "/")
	if dir == "." {
		return ""
	}
	return dir
}

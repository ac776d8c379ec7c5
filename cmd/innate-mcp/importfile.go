package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/regfile"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/rulefile"
)

// Limits on what import reads (a rule file's is rulefile.MaxFileBytes, a
// page of Markdown): a JSONL file is an export (a lesson's content is at most kb.MaxContentBytes, which
// JSON escaping can make six times longer on its line).
const (
	maxJSONLFileBytes  = 512 << 20
	maxImportLineBytes = 1 << 20
)

// lessonsFile is one file given to import, read and parsed.
type lessonsFile struct {
	path string
	// rules is true for an agent rule file, whose lessons are the file's
	// current rules (kb.ImportRules); false for JSONL lessons (kb.Add).
	rules   bool
	lessons []kb.NewLesson
}

// ruleFileNames are the names of agent rule files that are not *.md,
// *.mdc or *.markdown.
var ruleFileNames = map[string]bool{".cursorrules": true, ".windsurfrules": true, ".clinerules": true}

// fileKind says how import reads a file: by its name (*.jsonl and *.ndjson
// are lessons; *.md, *.mdc, *.markdown, .cursorrules, .windsurfrules and
// .clinerules rule files), else by its first bytes (a JSON object: lessons;
// a Markdown heading, list item or front matter: a rule file). Anything
// else is refused, with the reason.
func fileKind(path string, head []byte) (rules bool, err error) {
	base := strings.ToLower(filepath.Base(path))
	switch ext := filepath.Ext(base); {
	case ext == ".jsonl" || ext == ".ndjson":
		return false, nil
	case ext == ".md" || ext == ".mdc" || ext == ".markdown" || ruleFileNames[base]:
		return true, nil
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case bytes.HasPrefix(text, []byte("{")):
		return false, nil
	case bytes.HasPrefix(text, []byte("# ")) || bytes.HasPrefix(text, []byte("## ")) || bytes.HasPrefix(text, []byte("---\n")) ||
		bytes.HasPrefix(text, []byte("- ")) || bytes.HasPrefix(text, []byte("* ")):
		return true, nil
	}
	return false, errors.New("does not look like lessons or rules: import reads lesson JSONL (one JSON object per line, as export writes; " +
		"*.jsonl) and agent rule files in Markdown (CLAUDE.md, AGENTS.md, *.md, *.mdc, .cursorrules); rename the file if it is one of those")
}

// readLessonsFile reads one file of lessons, refusing what is not a regular
// file, what does not look like lessons or rules (fileKind), and a file or
// line beyond the limits, each with a reason that names the limit.
func readLessonsFile(path, project string) (lessonsFile, error) {
	f, st, err := regfile.Open(regfile.OS{}, path)
	if regfile.IsNotRegular(err) {
		return lessonsFile{}, fmt.Errorf("%w: import reads regular files of lessons or rules", err)
	}
	if err != nil {
		return lessonsFile{}, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(512)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return lessonsFile{}, err
	}
	rules, err := fileKind(path, head)
	if err != nil {
		return lessonsFile{}, err
	}
	limit := int64(maxJSONLFileBytes)
	if rules {
		limit = rulefile.MaxFileBytes
	}
	if st.Size() > limit {
		return lessonsFile{}, tooLarge(st.Size(), limit, rules)
	}
	if rules {
		data, err := regfile.ReadAll(br, limit)
		var big *regfile.TooLargeError
		if errors.As(err, &big) {
			return lessonsFile{}, tooLarge(big.N, limit, rules)
		}
		if err != nil {
			return lessonsFile{}, err
		}
		ls, err := kb.RuleFileLessons(path, project, data)
		return lessonsFile{path: path, rules: true, lessons: ls}, err
	}
	// The file may grow while it is read: read one byte past the limit to
	// tell.
	cr := &countingReader{r: io.LimitReader(br, limit+1)}
	ls, err := parseJSONL(cr)
	if cr.n > limit {
		return lessonsFile{}, tooLarge(cr.n, limit, rules)
	}
	return lessonsFile{path: path, lessons: ls}, err
}

// tooLarge says that a file of n bytes passes its limit.
func tooLarge(n, limit int64, rules bool) error {
	kind := "a lesson JSONL file"
	if rules {
		kind = "a rule file"
	}
	return fmt.Errorf("holds more than %s, the limit for %s (%d bytes read): split it, or check that it is what you meant to import",
		regfile.ByteSize(limit), kind, n)
}

// parseJSONL decodes lesson lines, refusing unknown fields and lines over
// maxImportLineBytes; blank lines are skipped and errors name the line.
func parseJSONL(r io.Reader) ([]kb.NewLesson, error) {
	var out []kb.NewLesson
	err := eachJSONLine(r, maxImportLineBytes, func(_ int, b []byte) error {
		var l importLine
		if err := mcpserver.DecodeStrict(bytes.NewReader(b), &l); err != nil {
			return err
		}
		out = append(out, l.newLesson())
		return nil
	})
	var long *lineTooLongError
	if errors.As(err, &long) {
		return nil, fmt.Errorf("%w: a line of lesson JSONL holds one lesson, whose content is at most %s", err, regfile.ByteSize(kb.MaxContentBytes))
	}
	return out, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

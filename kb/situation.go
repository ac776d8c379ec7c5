package kb

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Situation is what the agent is about to do: the query it would act on, an
// error it faces, the files involved, the stage of its work and the project.
type Situation struct {
	Query   string   `json:"query"`
	Error   string   `json:"error,omitempty"`
	Files   []string `json:"files,omitempty"`
	Stage   string   `json:"stage,omitempty"`
	Project string   `json:"project,omitempty"`
}

// Limits of a situation's fields beyond the query and error (see
// MaxQueryBytes and MaxErrorBytes): generous bounds for what the fields
// hold, so that a mistaken or hostile call cannot make a situation huge.
const (
	// MaxFiles is the most file paths a situation may name.
	MaxFiles = 64
	// MaxStageBytes bounds the stage: one word such as plan, edit or
	// debug.
	MaxStageBytes = 64
	// MaxProjectBytes bounds the project: a repository root path or name.
	MaxProjectBytes = 1024
	// MaxPathBytes bounds one file path: PATH_MAX on Linux.
	MaxPathBytes = 4096
)

// maxQueryTerms caps a situation's distinct lexical terms, so that a huge
// error message cannot blow up the full-text query.
const maxQueryTerms = 64

// maxFirstLineBytes bounds the error line added to the embedded text:
// about 128 tokens, the built-in embedder's whole window, which the query
// shares.
const maxFirstLineBytes = 512

// validate checks the situation's sizes and encoding.
func (s *Situation) validate() error {
	s.Query = strings.TrimSpace(s.Query)
	switch {
	case s.Query == "":
		return inputErrorf("query", "is empty: describe what you are about to do")
	case len(s.Query) > MaxQueryBytes:
		return inputErrorf("query", "is %d bytes; the limit is %d: summarise the situation in a few sentences", len(s.Query), MaxQueryBytes)
	case len(s.Error) > MaxErrorBytes:
		return inputErrorf("error", "is %d bytes; the limit is %d: pass the first lines of the error", len(s.Error), MaxErrorBytes)
	case len(s.Files) > MaxFiles:
		return inputErrorf("files", "names %d files; the limit is %d", len(s.Files), MaxFiles)
	case len(s.Stage) > MaxStageBytes:
		return inputErrorf("stage", "is longer than %d bytes", MaxStageBytes)
	case len(s.Project) > MaxProjectBytes:
		return inputErrorf("project", "is longer than %d bytes", MaxProjectBytes)
	case !utf8.ValidString(s.Query) || !utf8.ValidString(s.Error):
		return inputErrorf("query", "is not valid UTF-8")
	}
	for _, f := range s.Files {
		if len(f) > MaxPathBytes {
			return inputErrorf("files", "has a path longer than %d bytes", MaxPathBytes)
		}
	}
	return nil
}

// embedText is the text embedded for the dense channels: the query, then
// the error's first line, which names the failure; the embedder window is
// short, so the most telling text comes first.
func (s Situation) embedText() string {
	t := s.Query
	if e := firstLine(s.Error); e != "" {
		t += "\n" + e
	}
	return t
}

// lexicalText is the text whose terms feed the lexical channel: query,
// error and the files' base names (which carry identifiers).
func (s Situation) lexicalText() string {
	var b strings.Builder
	b.WriteString(s.Query)
	if s.Error != "" {
		b.WriteByte('\n')
		b.WriteString(s.Error)
	}
	for _, f := range s.Files {
		b.WriteByte(' ')
		b.WriteString(strings.TrimSuffix(path.Base(f), path.Ext(f)))
	}
	return b.String()
}

// key is the coarse situation bucket under which outcome history is kept:
// the stage and the main file type, e.g. "debug|.go".
func (s Situation) key() string {
	ext := ""
	for _, f := range s.Files {
		if e := strings.ToLower(path.Ext(f)); e != "" {
			ext = e
			break
		}
	}
	return strings.ToLower(strings.TrimSpace(s.Stage)) + "|" + ext
}

// queryTerms returns the distinct lexical terms of the situation, at most
// maxQueryTerms.
func (s Situation) queryTerms() []string {
	seen := make(map[string]struct{})
	var out []string
	for _, t := range terms.Tokens(s.lexicalText()) {
		if _, ok := seen[t]; ok {
			continue
		}
		seen[t] = struct{}{}
		out = append(out, t)
		if len(out) == maxQueryTerms {
			break
		}
	}
	return out
}

// firstLine returns the first non-empty line of s, at most
// maxFirstLineBytes.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > maxFirstLineBytes {
				l = l[:maxFirstLineBytes]
			}
			return l
		}
	}
	return ""
}

package check

import (
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// Messages: their kinds, and how a message pattern reads one (its first
// line, or the whole message).

func kindWord(k action.MessageKind) string {
	switch k {
	case action.PRTitle:
		return "PR title"
	case action.BranchName:
		return "branch name"
	case action.TagName:
		return "tag name"
	case action.PRBody:
		return "PR description"
	}
	return "commit message"
}

// messageKinds are the kinds a message check may name.
var messageKinds = []action.MessageKind{action.CommitMessage, action.PRTitle, action.PRBody, action.BranchName, action.TagName}

// anchored reports whether a regular expression (valid RE2) holds an
// anchor of the text or of a line: `^.{73,}` and `^(wip|fix)$` are forms
// of a first line, `(?i)co-authored-by` is text anywhere.
func anchored(re string) bool {
	r, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return true // Validate refuses it first; read it as a first line's form
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
			return true
		}
		return slices.ContainsFunc(r.Sub, walk)
	}
	return walk(r)
}

// namesLineBreak reports whether a regular expression (valid RE2) holds
// a line break as a literal ("^[^\n]+\n[^\n]": a body right under the
// subject); a class that merely leaves one out (`[^\n]*`) does not.
func namesLineBreak(re string) bool {
	r, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return false
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		if r.Op == syntax.OpLiteral && slices.Contains(r.Rune, '\n') {
			return true
		}
		return slices.ContainsFunc(r.Sub, walk)
	}
	return walk(r)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func clipQuote(s string) string {
	if len(s) > 60 {
		cut := 60
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

func (m *MessagePattern) name() string {
	if m.Name != "" {
		return m.Name
	}
	return "of the form the rule asks for"
}

package kb

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/rulefile"
)

// RuleFileLessons parses an agent rule file (CLAUDE.md, AGENTS.md,
// .cursorrules, *.mdc, other Markdown) into lessons for project ("" for
// global rules), one per rule, with the file's path in their source. A rule
// file holds the user's own words, written for exactly this purpose: its
// rules are user-stated, active and trusted from the start.
func RuleFileLessons(path, project string, data []byte) ([]NewLesson, error) {
	rules, err := rulefile.ParseIn(scopeDir(path, project), filepath.Base(path), data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	out := make([]NewLesson, 0, len(rules))
	for _, r := range rules {
		src := path
		if r.Source != "" {
			src += "#" + r.Source
		}
		out = append(out, NewLesson{Content: r.Content, Trigger: ruleTrigger(r), Tags: r.Tags, Project: project,
			Origin: OriginUserStated, Source: src})
	}
	return out, nil
}

// scopeDir is the directory of project a rule file at path governs
// (rulefile.ScopeDir): "" for a file at the root, or outside the project.
func scopeDir(path, project string) string {
	if project == "" || !filepath.IsAbs(path) {
		return ""
	}
	rel, err := filepath.Rel(project, path)
	if err != nil {
		return ""
	}
	return rulefile.ScopeDir(filepath.ToSlash(rel))
}

// ruleTrigger is when a rule applies: the file's description, globs and the
// heading path (rulefile's trigger), then, for a rule that directs, what it
// governs ("about: " and directive.Subject, its objects), so that a situation about the
// thing a rule governs resonates with it.
func ruleTrigger(r rulefile.Rule) string {
	d := directive.Parse(r.Content, r.Trigger)
	if !d.Directs() || d.Subject == "" {
		return r.Trigger
	}
	about := directive.AboutPrefix + d.Subject
	if r.Trigger == "" {
		return about
	}
	return r.Trigger + "; " + about
}

// ImportRuleFile parses an agent rule file and brings its lessons in the
// knowledge base under project ("" for global rules) in line with its
// rules, as ImportRules does: the first import adds them, a re-import after
// an edit adds, supersedes and keeps.
func (k *KB) ImportRuleFile(ctx context.Context, path, project string, data []byte) (AddReport, error) {
	ls, err := RuleFileLessons(path, project, data)
	if err != nil {
		return AddReport{}, err
	}
	return k.ImportRules(ctx, path, project, ls)
}

// SourceLabel is a lesson's source as a person reads it: the rule file
// relative to the project's root, its line, and its section
// ("CLAUDE.md:11 (files)"), from the stored form "PATH#NAME#SECTION:LINE".
// A source of another form is returned as it is.
func SourceLabel(source, project string) string {
	parts := strings.Split(source, "#")
	if len(parts) < 2 {
		return source
	}
	path := parts[0]
	if project != "" {
		path = strings.TrimPrefix(path, strings.TrimRight(project, "/")+"/")
	}
	last := parts[len(parts)-1]
	i := strings.LastIndexByte(last, ':')
	if i < 0 {
		return source
	}
	line := last[i+1:]
	section := ""
	if len(parts) >= 3 {
		section = last[:i]
	}
	out := path + ":" + line
	if section != "" {
		out += " (" + sectionTitle(section) + ")"
	}
	return out
}

// sectionTitle turns a heading's slug back into words: "code-style" →
// "Code style".
func sectionTitle(slug string) string {
	t := strings.ReplaceAll(slug, "-", " ")
	if r, n := utf8.DecodeRuneInString(t); n > 0 {
		t = string(unicode.ToUpper(r)) + t[n:]
	}
	return t
}

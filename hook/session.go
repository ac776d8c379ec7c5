package hook

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// maxCorrections is the most corrections SessionStart reads.
const maxCorrections = 20

// loadedFiles are the rule files Claude Code loads into the agent's
// context itself: SessionStart does not repeat their rules.
var loadedFiles = []string{"CLAUDE.md", "CLAUDE.local.md"}

// sessionStart gives, within the token budget, what the agent cannot
// otherwise know: after a compaction, what the project's checks forbid, in
// short form; what the user's corrections told it to do from now on; the
// rules of files its client does not load (AGENTS.md, .cursorrules, …) and
// the user's own recorded rules; and, when a session resumes or was
// compacted, the recent corrections that became no lesson.
func (h *Handler) sessionStart(ctx context.Context, in Input, project string) (Output, error) {
	invite := ""
	if h.Consult != nil {
		invite = h.Consult(ctx, project)
	}
	budget := h.Config.SessionStart.BudgetTokens * clip.BytesPerToken
	if budget == 0 {
		if invite != "" {
			return contextOutput(SessionStart, invite), nil
		}
		return Output{}, nil
	}
	rules, corrections, err := h.userRules(ctx, project)
	if err != nil {
		return Output{}, err
	}
	var out strings.Builder
	add := func(header string, lines []string) {
		for i, line := range lines {
			if i == 0 {
				line = header + "\n" + line
			}
			if out.Len()+len(line) > budget {
				return
			}
			out.WriteString(line)
		}
	}
	if in.Source == "compact" && project != "" {
		lines, err := h.forbidden(ctx, project)
		if err != nil {
			return Output{}, err
		}
		add("innate-mcp: after the compaction, what this project's rules forbid (innate-mcp asks before an action breaks one):", lines)
	}
	var lines []string
	for _, l := range corrections {
		lines = append(lines, fmt.Sprintf("- %s [%s]\n", clip.Line(l.Content, 200), l.ID))
	}
	add("innate-mcp: the user corrected the agent; from now on:", lines)
	lines = lines[:0]
	for _, l := range rules {
		if !h.Config.SessionStart.RepeatLoadedFiles && loadedByClient(l) {
			continue
		}
		if l.Directive != nil && l.Directive.Dir != "" {
			// A nested rule file's rule holds in its directory only; its
			// checks enforce it there, and the agents read the file when
			// they work there.
			continue
		}
		lines = append(lines, fmt.Sprintf("- %s [%s]\n", clip.Line(l.Content, 240), l.ID))
	}
	add("innate-mcp: this project's rules that your client does not load itself, in the user's own words (the whole lesson is at innate://lesson/ID):", lines)
	if in.Source == "resume" || in.Source == "compact" {
		since := h.now().AddDate(0, 0, -h.Config.SessionStart.CorrectionDays)
		recent, err := h.KB.RecentCorrections(ctx, project, since, maxCorrections)
		if err != nil {
			return Output{}, err
		}
		lines = lines[:0]
		for _, c := range recent {
			if !slices.ContainsFunc(corrections, func(l kb.Lesson) bool { return strings.Contains(c.Text, l.Content) }) {
				lines = append(lines, fmt.Sprintf("- %s: %q\n", c.CreatedAt.Format("Jan 2"), clip.Line(c.Text, 200)))
			}
		}
		add("innate-mcp: the user corrected the agent in this work:", lines)
	}
	out.WriteString(invite)
	return contextOutput(SessionStart, out.String()), nil
}

// userRules returns the user's own active rules of the project and the
// global ones (rule files, the user's messages, the CLI) that direct
// something, most confident first, and apart from them the lessons the
// user's corrections left (kb.TagCorrection), newest first.
func (h *Handler) userRules(ctx context.Context, project string) (rules, corrections []kb.Lesson, err error) {
	collect := func(l kb.Lesson) error {
		switch {
		case slices.Contains(l.Tags, kb.TagCorrection):
			corrections = append(corrections, l)
		case l.Kind == kb.KindRule && l.Directive != nil && l.Directive.Directs():
			rules = append(rules, l)
		}
		return nil
	}
	filter := kb.LessonFilter{States: []kb.State{kb.StateActive}, Origin: kb.OriginUserStated}
	if project != "" {
		filter.Project = project
		if err := h.KB.Lessons(ctx, filter, collect); err != nil {
			return nil, nil, err
		}
	}
	filter.Project, filter.Global = "", true
	if err := h.KB.Lessons(ctx, filter, collect); err != nil {
		return nil, nil, err
	}
	slices.SortStableFunc(rules, func(a, b kb.Lesson) int { return cmp.Compare(b.Confidence, a.Confidence) })
	slices.SortStableFunc(corrections, func(a, b kb.Lesson) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return rules, corrections, nil
}

// loadedByClient reports whether a lesson is a rule of a file Claude Code
// loads itself.
func loadedByClient(l kb.Lesson) bool {
	p := kb.ProvenanceOf(l)
	if p.Kind != kb.ProvenanceRuleFile {
		return false
	}
	file, _, _ := strings.Cut(p.Source, "#")
	return slices.Contains(loadedFiles, path.Base(strings.ReplaceAll(file, `\`, "/")))
}

// forbidden is what the project's enforced checks forbid, one short line
// per rule.
func (h *Handler) forbidden(ctx context.Context, project string) ([]string, error) {
	cs, err := h.KB.Checks(ctx, kb.CheckFilter{Project: project})
	if err != nil {
		return nil, err
	}
	var lines []string
	seen := map[string]bool{}
	for _, c := range kb.Enforced(cs) {
		if seen[c.LessonID] {
			continue
		}
		seen[c.LessonID] = true
		lines = append(lines, fmt.Sprintf("- %s [%s]\n", clip.Line(check.Describe(c.Check), 200), c.LessonID))
	}
	return lines, nil
}

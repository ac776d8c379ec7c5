package hook

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// recordCorrection records a user's correction of the agent's previous
// reply (hesitate learns its error pattern), and turns what it directs
// into a lesson of the user's words tagged kb.TagCorrection, whose checks
// (compiled by the built-in reader, or later by a consultant) remind the
// first time the agent repeats the mistake and ask from then on. A
// directive whose checks a correction lesson of the project already has is
// merged into that lesson, not stored again. It returns the confirmation
// line (what was recorded, and the commands that undo it) and the lesson
// recorded, if any.
func (h *Handler) recordCorrection(ctx context.Context, message, prev, directive, project string) (string, string, error) {
	req := kb.RecordRequest{
		Correction: &kb.CorrectionInput{Text: message, Draft: clip.Bytes(prev, maxDraftBytes), Source: "user_correction"},
		Project:    project, Message: message, Author: kb.AuthorHook,
	}
	var checks []check.Check
	merged := ""
	if directive != "" && project != "" {
		nl := kb.NewLesson{Content: directive, Tags: []string{kb.TagCorrection}}
		checks = kb.CompileChecks(nl)
		var err error
		if merged, err = h.sameCorrection(ctx, project, checks); err != nil {
			return "", "", err
		}
		if merged == "" {
			req.Lesson = &kb.LessonInput{Content: directive, Origin: kb.OriginUserStated, Tags: []string{kb.TagCorrection}}
		}
	}
	res, err := h.KB.Record(ctx, req)
	if err != nil {
		return "", "", err
	}
	var undo []string
	var b strings.Builder
	b.WriteString("innate-mcp recorded this message as a correction")
	switch id := lessonOf(res); {
	case merged != "":
		fmt.Fprintf(&b, "; lesson %s already enforces what it asks", merged)
	case id != "":
		fmt.Fprintf(&b, ": lesson %s %q", id, clip.Line(directive, 120))
		if len(checks) > 0 {
			fmt.Fprintf(&b, " (%s)", check.Describe(checks[0]))
		} else {
			b.WriteString(" (no check yet; a consultant may compile one)")
		}
		undo = append(undo, "innate-mcp lessons reject "+id)
	}
	if res.PatternID != "" {
		fmt.Fprintf(&b, "; hesitate watches for a repeat (error pattern %s)", res.PatternID)
		undo = append(undo, "innate-mcp patterns remove "+res.PatternID)
	}
	b.WriteString(".")
	if len(undo) > 0 {
		b.WriteString(" Undo: " + strings.Join(undo, "; ") + ".")
	}
	return b.String(), lessonOf(res), nil
}

// sameCorrection returns the lesson of the project (a correction's or a
// rule file's) that already enforces one of checks, or "".
func (h *Handler) sameCorrection(ctx context.Context, project string, checks []check.Check) (string, error) {
	if len(checks) == 0 {
		return "", nil
	}
	stored, err := h.KB.Checks(ctx, kb.CheckFilter{Project: project})
	if err != nil {
		return "", err
	}
	for _, sc := range stored {
		k := sameKey(sc.Check)
		if slices.ContainsFunc(checks, func(c check.Check) bool { return sameKey(c) == k }) {
			return sc.LessonID, nil
		}
	}
	return "", nil
}

// sameKey is a check's key whether or not it escalates: a correction that
// says what a rule file already enforces is that rule.
func sameKey(c check.Check) string {
	c.Escalate = false
	return check.Key(c)
}

// lessonOf is the first lesson a record changed.
func lessonOf(res kb.RecordResult) string {
	for _, c := range res.Changes {
		if c.LessonID != "" {
			return c.LessonID
		}
	}
	return ""
}

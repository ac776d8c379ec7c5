package storerow

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/kb"
)

// BaseLessonColumns are the columns of a lesson (over lessons l) as of
// SQLite's schema version 6 (its migration 6's data step reads them);
// LessonColumns adds the directive.
const BaseLessonColumns = `l.seq, l.id, l.content, l.trigger, l.anti_trigger, l.tags, l.project, l.origin, l.kind, l.state,
	l.confidence, l.recalls, l.uses, l.successes, l.failures, l.approvals, l.rejects, l.observed, l.source,
	l.created_at, l.updated_at, l.last_used_at, l.content_hash, l.conf_state, l.tier`

// LessonColumns is the column list Lesson reads, in order.
const LessonColumns = BaseLessonColumns + `, l.directive`

// Lesson reads one row of LessonColumns (of BaseLessonColumns without
// withDirective) and returns the lesson and its seq. With lazy, the
// confidence state is left raw in ConfRaw for the caller to decode when
// needed. A scan error wrapping kb.ErrNotFound (the store's reading of
// "no rows") is returned as kb.ErrNotFound.
func Lesson(scan Scan, lazy, withDirective bool) (kb.Lesson, int64, error) {
	var (
		l                      kb.Lesson
		seq                    int64
		tags, created, updated string
		lastUsed               *string
		origin, kind, state    string
		confState, tier, dir   string
	)
	c := &l.Counters
	dest := []any{&seq, &l.ID, &l.Content, &l.Trigger, &l.AntiTrigger, &tags, &l.Project, &origin, &kind, &state,
		&l.Confidence, &c.Recalls, &c.Uses, &c.Successes, &c.Failures, &c.Approvals, &c.Rejects, &c.Observed, &l.Source,
		&created, &updated, &lastUsed, &l.Hash, &confState, &tier}
	if withDirective {
		dest = append(dest, &dir)
	}
	err := scan(dest...)
	if errors.Is(err, kb.ErrNotFound) {
		return kb.Lesson{}, 0, kb.ErrNotFound
	}
	if err != nil {
		return kb.Lesson{}, 0, fmt.Errorf("scan lesson: %w", err)
	}
	l.Origin, l.Kind, l.State = kb.Origin(origin), kb.Kind(kind), kb.State(state)
	if err := json.Unmarshal([]byte(tags), &l.Tags); err != nil {
		l.Tags = nil
	}
	l.CreatedAt, l.UpdatedAt = ParseTime(created), ParseTime(updated)
	l.Tier = confidence.Tier(tier)
	if confState != "" && lazy {
		l.ConfRaw = []byte(confState)
	} else if confState != "" {
		if err := json.Unmarshal([]byte(confState), &l.Conf); err != nil {
			return kb.Lesson{}, 0, fmt.Errorf("lesson %s: bad confidence state: %w", l.ID, err)
		}
	}
	if lastUsed != nil {
		t := ParseTime(*lastUsed)
		l.LastUsedAt = &t
	}
	if dir != "" {
		var d directive.Directive
		if err := json.Unmarshal([]byte(dir), &d); err == nil {
			l.Directive = &d
		}
		// A directive that does not decode is derived again, like one of
		// an older parser version.
	}
	return l, seq, nil
}

// LessonFilter is the SQL condition (over lessons l, "" for none, else
// beginning with " AND ") of the lessons f selects. arg binds a value and
// returns its placeholder; oneOf binds a list and returns the condition
// that col is one of its values.
func LessonFilter(f kb.LessonFilter, arg func(v any) string, oneOf func(col string, vals []string) string) string {
	cond := ""
	if len(f.States) > 0 {
		states := make([]string, len(f.States))
		for i, s := range f.States {
			states[i] = string(s)
		}
		cond += ` AND ` + oneOf("l.state", states)
	}
	switch {
	case f.Global:
		cond += ` AND l.project = ''`
	case f.Project != "":
		cond += ` AND l.project = ` + arg(f.Project)
	}
	if f.Origin != "" {
		cond += ` AND l.origin = ` + arg(string(f.Origin))
	}
	return cond
}

// InsertLessonColumns are the columns InsertLessonArgs gives values of,
// in order.
const InsertLessonColumns = `id, content, trigger, anti_trigger, tags, project, origin, kind,
		state, confidence, recalls, uses, successes, failures, approvals, rejects, observed, source, created_at,
		updated_at, last_used_at, content_hash, shape_hash, vec_rev, conf_state, tier, directive`

// InsertLessonArgs are the values of InsertLessonColumns of a new lesson
// stored with id at now (its created and updated times when it has none)
// and vector revision rev.
func InsertLessonArgs(id string, nl kb.NewLesson, now time.Time, rev int64) ([]any, error) {
	tags, err := Strings(nl.Tags)
	if err != nil {
		return nil, fmt.Errorf("encode tags: %w", err)
	}
	created, updated := nl.CreatedAt, nl.UpdatedAt
	if created.IsZero() {
		created = now
	}
	if updated.IsZero() {
		updated = now
	}
	var confState, tier string
	if nl.Conf != nil {
		if confState, err = ConfState(*nl.Conf); err != nil {
			return nil, fmt.Errorf("encode confidence state: %w", err)
		}
		tier = string(nl.Conf.Tier)
	}
	dir, err := Directive(nl.Directive)
	if err != nil {
		return nil, err
	}
	c := nl.Counters
	return []any{id, nl.Content, nl.Trigger, nl.AntiTrigger, tags, nl.Project, string(nl.Origin), string(nl.Kind),
		string(nl.State), Confidence(nl.Confidence), c.Recalls, c.Uses, c.Successes, c.Failures, c.Approvals, c.Rejects, c.Observed,
		nl.Source, FormatTime(created), FormatTime(updated), lastUsedArg(nl.LastUsedAt), kb.LessonHash(nl.Content, nl.Trigger, nl.Project),
		kb.ShapeHash(nl.Content, nl.Trigger), rev, confState, tier, dir}, nil
}

// lastUsedArg is the stored last-used time: nil (NULL) for none.
func lastUsedArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return FormatTime(*t)
}

// UpdateLessonArgs are the values UpdateLesson writes of l at now, of the
// columns origin, state, confidence, recalls, uses, successes, failures,
// approvals, rejects, observed, tags, updated_at, last_used_at, conf_state
// and tier, in that order.
func UpdateLessonArgs(l kb.Lesson, now time.Time) ([]any, error) {
	tags, err := Strings(l.Tags)
	if err != nil {
		return nil, fmt.Errorf("encode tags of %s: %w", l.ID, err)
	}
	confState, err := ConfState(l.Conf)
	if err != nil {
		return nil, fmt.Errorf("encode confidence state of %s: %w", l.ID, err)
	}
	c := l.Counters
	return []any{string(l.Origin), string(l.State), Confidence(l.Confidence), c.Recalls, c.Uses, c.Successes,
		c.Failures, c.Approvals, c.Rejects, c.Observed, tags, FormatTime(now), lastUsedArg(l.LastUsedAt), confState, string(l.Tier)}, nil
}

// HistoryColumns are the columns of confidence_history that History reads
// and HistoryArgs writes, after the lesson id, in order.
const HistoryColumns = `at, kind, reason, before, after, lifecycle_before, lifecycle_after, ignored`

// History reads one row of HistoryColumns. Scores that do not decode read
// as zero.
func History(scan Scan) (confidence.Change, error) {
	var at, kind, reason, before, after, lb, la string
	var ignored bool
	if err := scan(&at, &kind, &reason, &before, &after, &lb, &la, &ignored); err != nil {
		return confidence.Change{}, err
	}
	return HistoryRow(ParseTime(at), kind, reason, before, after, lb, la, ignored), nil
}

// HistoryArgs are the values of HistoryColumns of a confidence change of
// lessonID, that id first.
func HistoryArgs(lessonID string, ch confidence.Change) ([]any, error) {
	before, after, err := Scores(ch)
	if err != nil {
		return nil, fmt.Errorf("encode confidence history of %s: %w", lessonID, err)
	}
	return []any{lessonID, FormatTime(ch.At), string(ch.Kind), ch.Reason, before, after, string(ch.LifecycleBefore),
		string(ch.LifecycleAfter), ch.Ignored}, nil
}

// LinkColumns are the columns of lesson_links that Link reads, in order.
const LinkColumns = `a, b, kind, reason, created_at`

// Link reads one row of LinkColumns.
func Link(scan Scan) (kb.Link, error) {
	var l kb.Link
	var at string
	if err := scan(&l.A, &l.B, &l.Kind, &l.Reason, &at); err != nil {
		return l, err
	}
	l.At = ParseTime(at)
	return l, nil
}

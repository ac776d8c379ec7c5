package pgstore

// Temporary: the kb.Tx and kb.Store methods below are not written yet
// (issue 16, work in progress); each returns errTODO. This file is deleted
// when they are.

import (
	"context"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

func (t *Tx) Evidence(ctx context.Context, traceID string) ([]kb.Evidence, error) {
	return nil, errTODO
}
func (t *Tx) PutEvidence(ctx context.Context, e kb.Evidence) (string, error) { return "", errTODO }
func (t *Tx) Links(ctx context.Context, id string) ([]kb.Link, error)        { return nil, errTODO }
func (t *Tx) LessonByHash(ctx context.Context, hash string) (kb.Lesson, error) {
	return kb.Lesson{}, errTODO
}
func (t *Tx) NearDuplicate(ctx context.Context, shape, project string, kind kb.Kind) (kb.Lesson, error) {
	return kb.Lesson{}, errTODO
}
func (t *Tx) UpdateLesson(ctx context.Context, l kb.Lesson) error { return errTODO }
func (t *Tx) AddContextOutcome(ctx context.Context, lessonID, key string, successes, failures int) error {
	return errTODO
}
func (t *Tx) CountRecalls(ctx context.Context, ids []string) error            { return errTODO }
func (t *Tx) ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error) { return nil, errTODO }
func (t *Tx) PutPattern(ctx context.Context, p hesitation.Pattern) error      { return errTODO }
func (t *Tx) LogHesitation(ctx context.Context, e kb.HesitationEntry) error   { return errTODO }
func (t *Tx) ReviewHesitation(ctx context.Context, traceID, verdict string, at time.Time) error {
	return errTODO
}
func (t *Tx) AddHistory(ctx context.Context, lessonID string, changes []confidence.Change) error {
	return errTODO
}
func (t *Tx) LinkLessons(ctx context.Context, a, b, kind, reason string, at time.Time) error {
	return errTODO
}
func (t *Tx) SetDirectives(ctx context.Context, version int, ds map[string]directive.Directive) error {
	return errTODO
}
func (t *Tx) InsertVerdict(ctx context.Context, v kb.VerdictRecord) error { return errTODO }
func (t *Tx) InsertRouting(ctx context.Context, r kb.RoutingRecord) error { return errTODO }
func (t *Tx) SetVerdictOutcome(ctx context.Context, traceID string, o kb.Outcome, heeded *bool, at time.Time) error {
	return errTODO
}
func (t *Tx) SetMisroute(ctx context.Context, traceID string, kind route.Misroute, at time.Time) error {
	return errTODO
}

func (db *DB) ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error) { return nil, errTODO }
func (db *DB) DirectiveVersion(ctx context.Context) (int, error)               { return 0, errTODO }
func (db *DB) AppraiseState(ctx context.Context, session string, window int) (kb.AppraiseState, error) {
	return kb.AppraiseState{}, errTODO
}
func (db *DB) CalibrationPoints(ctx context.Context) ([]appraise.Point, error) { return nil, errTODO }
func (db *DB) History(ctx context.Context, lessonID string) ([]confidence.Change, error) {
	return nil, errTODO
}
func (db *DB) Links(ctx context.Context, id string) ([]kb.Link, error) { return nil, errTODO }
func (db *DB) DeletePattern(ctx context.Context, id string) error      { return errTODO }
func (db *DB) VerdictFooting(ctx context.Context, traceID string) (kb.VerdictFooting, error) {
	return kb.VerdictFooting{}, errTODO
}

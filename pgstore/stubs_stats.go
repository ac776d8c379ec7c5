package pgstore

// Temporary: the kb.StatsReader and kb.RegulatorStore methods below are not
// written yet (issue 16, work in progress); each returns errTODO. This file
// is deleted when they are.

import (
	"context"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
)

func (db *DB) RecallStats(ctx context.Context, since time.Time, top int) (kb.RecallStats, error) {
	return kb.RecallStats{}, errTODO
}
func (db *DB) AppraiseStats(ctx context.Context, since time.Time) (kb.AppraiseStats, error) {
	return kb.AppraiseStats{}, errTODO
}
func (db *DB) ModeCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	return nil, errTODO
}
func (db *DB) HesitationStats(ctx context.Context, since time.Time) (kb.HesitationStats, error) {
	return kb.HesitationStats{}, errTODO
}
func (db *DB) Contradictions(ctx context.Context) ([]kb.Contradiction, error) { return nil, errTODO }
func (db *DB) Params(ctx context.Context) (map[string]float64, error)         { return nil, errTODO }
func (db *DB) RegulatorHistory(ctx context.Context) ([]regulate.Change, error) {
	return nil, errTODO
}
func (db *DB) Regulate(ctx context.Context, plan func(params map[string]float64, history []regulate.Change) regulate.Result) (regulate.Result, error) {
	return regulate.Result{}, errTODO
}
func (db *DB) HesitationMetrics(ctx context.Context, since time.Time) (regulate.HesitationMetrics, error) {
	return regulate.HesitationMetrics{}, errTODO
}
func (db *DB) RoutingMetrics(ctx context.Context, since time.Time) (regulate.RoutingMetrics, error) {
	return regulate.RoutingMetrics{}, errTODO
}
func (db *DB) AppraiseMetrics(ctx context.Context, since time.Time) (regulate.AppraiseMetrics, error) {
	return regulate.AppraiseMetrics{}, errTODO
}

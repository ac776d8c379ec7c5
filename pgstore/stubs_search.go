package pgstore

// Temporary: the search methods below are not written yet (issue 16, work
// in progress); each returns errTODO. This file is deleted when they are.

import (
	"context"
	"errors"

	"github.com/innate-mcp/innate-mcp/kb"
)

// errTODO is what a method not written yet returns.
var errTODO = errors.New("pgstore: not implemented yet")

var (
	_ kb.Admin = (*DB)(nil)
	_ kb.Tx    = (*Tx)(nil)
)

func (db *DB) SetVectors(ctx context.Context, id string, content, trigger []float32) error {
	return errTODO
}
func (db *DB) Search(ctx context.Context, p kb.Probe) ([]kb.Candidate, error) { return nil, errTODO }
func (db *DB) DocFreqs(ctx context.Context, ts []string) (map[string]int, error) {
	return nil, errTODO
}
func (db *DB) ReadOnly() bool                   { return false }
func (db *DB) WarmUp(ctx context.Context) error { return errTODO }

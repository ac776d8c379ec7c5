package pgstore

// Temporary: errTODO is what the methods not written yet return (issue 16,
// work in progress); this file is deleted when they are.

import (
	"errors"

	"github.com/innate-mcp/innate-mcp/kb"
)

// errTODO is what a method not written yet returns.
var errTODO = errors.New("pgstore: not implemented yet")

var (
	_ kb.Admin = (*DB)(nil)
	_ kb.Tx    = (*Tx)(nil)
)

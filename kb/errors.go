package kb

import (
	"errors"
	"fmt"
)

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrNotFound is returned when a lesson or trace does not exist.
	ErrNotFound = errors.New("not found")
	// ErrEmbedderMismatch is returned when a knowledge base built with one
	// embedder is opened with another; `innate-mcp reembed` fixes it.
	ErrEmbedderMismatch = errors.New("embedder mismatch")
	// ErrInput marks every InputError: input the caller can fix.
	ErrInput = errors.New("invalid input")
	// ErrReadOnly is returned by a write to a knowledge base opened
	// read-only (a read-only database file or directory); the message says
	// which and what to do.
	ErrReadOnly = errors.New("read-only knowledge base")
	// ErrExists is returned when a name that must be unique (a token's)
	// is taken.
	ErrExists = errors.New("already exists")
)

// InputError is input that the caller (usually an agent) can correct: the
// message names the field and says what to change. Tools return it as an
// isError result; nothing has been written when it is returned.
type InputError struct {
	Field string
	Msg   string
}

// Error implements error.
func (e *InputError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + " " + e.Msg
}

// Is makes errors.Is(err, ErrInput) true for every InputError.
func (e *InputError) Is(target error) bool { return target == ErrInput }

// inputErrorf builds an InputError for field.
func inputErrorf(field, format string, args ...any) error {
	return &InputError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

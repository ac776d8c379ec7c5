package pgstore

import (
	"context"
	"database/sql/driver"
	"reflect"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

// Secrets never reach the database: every statement of a write transaction
// runs through a redactTx, which redacts the text arguments it binds, and
// DB methods write only inside such transactions (DB.update), as in
// package storage (storage/redact.go). The arguments of the reads a
// transaction makes are redacted too, so that a lookup by a value that was
// stored redacted finds it.
//
// redactText, redactArgs and textArg duplicate storage's: the next session
// moves them to one place both stores import, so that the two cannot
// redact differently.

// redactText returns s with the secrets sanitize recognises replaced by
// placeholders: a JSON object or array with sanitize.RedactJSON, which
// keeps it valid JSON, any other text with sanitize.Redact.
func redactText(s string) string {
	if t := strings.TrimLeft(s, " \t\r\n"); t != "" && (t[0] == '{' || t[0] == '[') {
		out, _ := sanitize.RedactJSON(s) // plain redaction when s is not JSON
		return out
	}
	out, _ := sanitize.Redact(s)
	return out
}

// redactArgs returns statement arguments with every text argument passed
// through redactText: strings, values of string types, and driver.Valuers
// whose value is a string, and the elements of a []string (a text[]).
// Byte slices are BYTEA (vectors, term
// statistics) and pass unchanged, as do numbers, booleans and nil: pgstore
// always binds text as a string. args itself is never modified.
func redactArgs(args []any) []any {
	var out []any
	for i, a := range args {
		if ss, ok := a.([]string); ok { // a text[] argument
			if r := redactStrings(ss); r != nil {
				if out == nil {
					out = slices.Clone(args)
				}
				out[i] = r
			}
			continue
		}
		s, ok := textArg(a)
		if !ok {
			continue
		}
		if r := redactText(s); r != s {
			if out == nil {
				out = slices.Clone(args)
			}
			out[i] = r
		}
	}
	if out == nil {
		return args
	}
	return out
}

// redactStrings returns ss with its elements redacted, or nil when none
// changed.
func redactStrings(ss []string) []string {
	var out []string
	for i, s := range ss {
		if r := redactText(s); r != s {
			if out == nil {
				out = slices.Clone(ss)
			}
			out[i] = r
		}
	}
	return out
}

// textArg returns the text an argument binds, if it binds text.
func textArg(a any) (string, bool) {
	switch v := a.(type) {
	case string:
		return v, true
	case *string:
		if v != nil {
			return *v, true
		}
		return "", false
	case []byte, nil:
		return "", false
	case driver.Valuer:
		x, err := v.Value()
		if s, ok := x.(string); ok && err == nil {
			return s, true
		}
		return "", false
	}
	if rv := reflect.ValueOf(a); rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}

// redactTx is a write transaction whose statements bind redacted text. It
// has only the statement methods pgstore needs, so that no statement can
// reach the pgx.Tx underneath without redaction.
type redactTx struct {
	tx pgx.Tx
}

// Exec runs a statement with its text arguments redacted.
func (t *redactTx) Exec(ctx context.Context, query string, args ...any) (pgconn.CommandTag, error) {
	return t.tx.Exec(ctx, query, redactArgs(args)...)
}

// QueryRow runs a query (or an INSERT ... RETURNING) with its text
// arguments redacted.
func (t *redactTx) QueryRow(ctx context.Context, query string, args ...any) pgx.Row {
	return t.tx.QueryRow(ctx, query, redactArgs(args)...)
}

// Query runs a query with its text arguments redacted.
func (t *redactTx) Query(ctx context.Context, query string, args ...any) (pgx.Rows, error) {
	return t.tx.Query(ctx, query, redactArgs(args)...)
}

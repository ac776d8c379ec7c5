// Package pgstore is the knowledge base's PostgreSQL store, for a team
// (issue 16): several innate-mcp instances share one database, through
// github.com/jackc/pgx/v5 (pgxpool; LISTEN/NOTIFY for the change feed).
// It implements kb.Admin with the SQLite store's semantics (package
// storage); the conformance suite internal/storetest runs against both.
//
// The schema is storage's (migrations/0001_schema.sql), in PostgreSQL
// types, applied by numbered migrations, one transaction each under an
// advisory lock, the version in table schema_version. Times are TEXT in
// storage's format and JSON stays TEXT, so that the two stores keep the
// same bytes (`innate-mcp migrate` copies one into the other).
//
// Writes are transactions serialised by an advisory lock (see DB.update),
// and every statement in them binds its text redacted
// (sanitize.RedactArgs), as in storage. A failed statement aborts a
// PostgreSQL transaction, where SQLite's carries on; kb goes on after a Tx
// error only for kb.ErrNotFound, which pgstore reports from a read or a
// zero row count, never from a failed statement, so no savepoint is
// needed.
//
// Search is storage's: the lexical channel is BM25 computed in Go from the
// term statistics (package internal/bm25), the lessons holding a term
// found in term_postings (which stands in for SQLite's FTS5 index); the
// dense channel is an in-memory index per instance (package
// internal/vecindex), brought up to date from the vector revision, which
// every write of a lesson's vectors or recallability advances and
// announces with pg_notify (see DB.listen).
package pgstore

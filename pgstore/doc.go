// Package pgstore is the knowledge base's PostgreSQL store, for a team
// (issue 16): several innate-mcp instances share one database, through
// github.com/jackc/pgx/v5 (pgxpool; LISTEN/NOTIFY for the change feed to
// come).
//
// The schema is storage's as it stands (migrations/0001_schema.sql), in
// PostgreSQL types, applied by numbered migrations, one transaction each
// under an advisory lock, the version in table schema_version. Times are
// TEXT in storage's format and JSON stays TEXT, so that the two stores
// keep the same bytes. The lexical channel keeps term statistics
// (lesson_terms, term_df, and term_postings in place of SQLite's FTS5
// index) from which BM25 is to be computed as storage computes it.
//
// Writes are transactions serialised by an advisory lock (see DB.update),
// and every statement in them binds its text redacted (see redactTx), as
// in storage.
//
// Status: work in progress; DB and Tx satisfy kb.Admin and kb.Tx, but
// the methods in stubs_*.go return errTODO, and nothing opens it (the
// command does not know postgres:// yet). Done: Open and the migrations;
// Meta, SetMeta, SetMetaDefault; EmbedderInfo, SetEmbedderInfo; Update;
// Lesson, Lessons, Vectors; every kb.Tx method (UpdateLesson keeps the
// term statistics, postings and vector revision in step as storage does);
// DB.Trace, Corrections, AppraiseState, CalibrationPoints, ErrorPatterns,
// DirectiveVersion, History, Links, DeletePattern, VerdictFooting; the
// tokens (CreateToken, Tokens, TokenByHash, RevokeToken). Not done:
// SetVectors, Search and DocFreqs (BM25 from the statistics, matching
// storage's figures), the vector index and its LISTEN/NOTIFY change feed
// with a revision, the StatsReader and RegulatorStore methods, read-only
// opening, retention. What both stores compute in Go around their SQL
// (the stored JSON forms, the verdict log's rules) is package
// internal/storerow's. Unlike SQLite, a failed statement aborts a
// PostgreSQL transaction (Update then fails at commit): kb goes on after
// a Tx error only for ErrNotFound, which pgstore reports from a read or a
// count of rows changed, never from a failed statement. redactText and the
// lexical statistics duplicate storage's code and should move to one
// shared package.
package pgstore

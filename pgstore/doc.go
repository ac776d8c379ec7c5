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
// Status: work in progress; DB does not implement kb.Store, kb.Tx or
// kb.Admin yet, and nothing opens it (the command does not know
// postgres:// yet). Done: Open and the migrations; Meta, SetMeta,
// SetMetaDefault; EmbedderInfo, SetEmbedderInfo; Update (which takes a
// *Tx until Tx implements kb.Tx); Lesson, Lessons, Vectors; Tx.Lesson,
// Tx.Lessons, Tx.InsertLesson (with the term statistics),
// Tx.InsertTrace, Tx.Trace, Tx.SetTraceOutcome, Tx.InsertCorrection;
// DB.Trace, Corrections; the tokens (CreateToken, Tokens, TokenByHash,
// RevokeToken); Load and RowCounts, which copy a SQLite knowledge base in
// (innate-mcp migrate, see load.go). Not done: the rest of kb.Tx (UpdateLesson, evidence,
// links, patterns, the logs, directives, context tallies), SetVectors,
// Search and DocFreqs (BM25 from the statistics, matching storage's
// figures), the vector index and its LISTEN/NOTIFY change feed with a
// revision, the remaining kb.Store and kb.Admin reads (AppraiseState,
// CalibrationPoints, ErrorPatterns, DirectiveVersion, the StatsReader and
// RegulatorStore methods, History, Links, VerdictFooting), read-only
// opening, retention. Unlike SQLite, a failed statement aborts a
// PostgreSQL transaction (Update then fails at commit): before kb runs on
// it, check whether kb goes on after a Tx write error, and use savepoints
// there if so. redactText and the lexical statistics duplicate
// storage's code and should move to one shared package.
package pgstore

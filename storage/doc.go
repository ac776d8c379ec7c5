// Package storage is innate-mcp's persistence: one SQLite database (through
// modernc.org/sqlite, pure Go) that is the single source of truth, and an
// in-memory chromem-go vector index derived from it.
//
// Several server processes may open the same database: every connection
// runs in WAL mode with foreign keys on (set in the DSN so every pooled
// connection gets them), writes are short BEGIN IMMEDIATE transactions on
// one writer connection per process, taken in turn by the process's writers
// and polled for while another process holds the lock (see writer), and the
// vector index notices other processes' writes through a revision counter
// before every search. The index is built lazily
// on the first search, never persisted by chromem-go, and never the source
// of truth.
//
// No secret reaches the database: every statement that writes runs in a
// transaction that binds its text arguments redacted by package sanitize
// (see redactTx), whichever method issues it.
package storage

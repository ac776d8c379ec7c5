-- Exact BM25 needs each indexed lesson's term frequencies and length, and
-- each term's document frequency; FTS5 only finds the matching lessons.
-- Filled for existing lessons by the Go step of this migration.
CREATE TABLE term_df (
    term TEXT PRIMARY KEY,
    df   INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE lesson_terms (
    seq INTEGER PRIMARY KEY REFERENCES lessons (seq) ON DELETE CASCADE,
    len INTEGER NOT NULL,
    tf  BLOB NOT NULL
);

INSERT INTO meta (key, value) VALUES ('lex_docs', '0'), ('lex_len', '0');

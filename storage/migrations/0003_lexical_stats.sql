-- Exact BM25 needs each indexed lesson's term frequencies and length, and
-- each term's document frequency; FTS5 only finds the matching lessons.
-- The full-text index gains a title column (the first line of the content,
-- which for rule files is a heading and for code a signature) so that BM25
-- weighs it twice, as BM25F does a title field. The Go step of this
-- migration fills the new index and statistics from the lessons.
DROP TABLE lessons_vocab;
DROP TABLE lessons_fts;
CREATE VIRTUAL TABLE lessons_fts USING fts5 (
    title_terms,
    content_terms,
    trigger_terms,
    tokenize = 'unicode61 remove_diacritics 0'
);

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

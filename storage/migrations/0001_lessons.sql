-- Lessons, their vectors and the full-text index over their terms.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE lessons (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    content      TEXT NOT NULL,
    trigger      TEXT NOT NULL DEFAULT '',
    anti_trigger TEXT NOT NULL DEFAULT '',
    tags         TEXT NOT NULL DEFAULT '[]',
    project      TEXT NOT NULL DEFAULT '',
    origin       TEXT NOT NULL CHECK (origin IN ('user_stated', 'agent_inferred', 'imported')),
    kind         TEXT NOT NULL DEFAULT 'rule' CHECK (kind IN ('rule', 'caution')),
    state        TEXT NOT NULL CHECK (state IN ('pending', 'active', 'archived')),
    confidence   REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    recalls      INTEGER NOT NULL DEFAULT 0,
    uses         INTEGER NOT NULL DEFAULT 0,
    successes    INTEGER NOT NULL DEFAULT 0,
    failures     INTEGER NOT NULL DEFAULT 0,
    approvals    INTEGER NOT NULL DEFAULT 0,
    rejects      INTEGER NOT NULL DEFAULT 0,
    observed     INTEGER NOT NULL DEFAULT 0,
    source       TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    last_used_at TEXT,
    content_hash TEXT NOT NULL UNIQUE,
    -- revision of the last change to the lesson's vectors or recallability;
    -- other processes refresh their in-memory vector index from it.
    vec_rev      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX lessons_vec_rev ON lessons (vec_rev);
CREATE INDEX lessons_state ON lessons (state);

CREATE TABLE lesson_vectors (
    seq     INTEGER PRIMARY KEY REFERENCES lessons (seq) ON DELETE CASCADE,
    content BLOB NOT NULL,
    trigger BLOB
);

-- Terms as produced by package terms (identifiers split, stemmed), space
-- separated; rowid is lessons.seq. Holds exactly the recallable lessons.
CREATE VIRTUAL TABLE lessons_fts USING fts5 (
    content_terms,
    trigger_terms,
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE lessons_vocab USING fts5vocab (lessons_fts, 'row');

INSERT INTO meta (key, value) VALUES ('vec_rev', '0');

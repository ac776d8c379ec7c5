-- Traces of tool calls, the evidence recorded against them, per-situation
-- outcome tallies and user corrections.
CREATE TABLE traces (
    id            TEXT PRIMARY KEY,
    tool          TEXT NOT NULL,
    session       TEXT NOT NULL DEFAULT '',
    project       TEXT NOT NULL DEFAULT '',
    situation_key TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    request       TEXT NOT NULL,
    response      TEXT NOT NULL,
    outcome       TEXT CHECK (outcome IN ('success', 'failure', 'unknown'))
);
CREATE INDEX traces_created ON traces (created_at);
CREATE INDEX traces_session ON traces (session, created_at);

CREATE TABLE trace_lessons (
    trace_id  TEXT NOT NULL REFERENCES traces (id) ON DELETE CASCADE,
    lesson_id TEXT NOT NULL REFERENCES lessons (id),
    rank      INTEGER NOT NULL,
    score     REAL NOT NULL,
    PRIMARY KEY (trace_id, lesson_id)
);
CREATE INDEX trace_lessons_lesson ON trace_lessons (lesson_id);

CREATE TABLE evidence (
    trace_id   TEXT NOT NULL REFERENCES traces (id) ON DELETE CASCADE,
    lesson_id  TEXT NOT NULL REFERENCES lessons (id),
    kind       TEXT NOT NULL CHECK (kind IN ('used', 'outcome', 'feedback')),
    signal     TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    session    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (trace_id, lesson_id, kind)
);
CREATE INDEX evidence_lesson ON evidence (lesson_id);

CREATE TABLE lesson_context (
    lesson_id TEXT NOT NULL REFERENCES lessons (id),
    key       TEXT NOT NULL,
    successes INTEGER NOT NULL DEFAULT 0,
    failures  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (lesson_id, key)
);

CREATE TABLE corrections (
    id         INTEGER PRIMARY KEY,
    trace_id   TEXT,
    text       TEXT NOT NULL,
    keywords   TEXT NOT NULL DEFAULT '[]',
    session    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);

-- Hesitation: error patterns learned from corrections, and the audit log of
-- every hesitate call with the review of what it held.
CREATE TABLE error_patterns (
    id                TEXT PRIMARY KEY,
    keywords          TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    source            TEXT NOT NULL CHECK (source IN ('user_correction', 'self_review', 'external')),
    strength          REAL NOT NULL,
    trigger_count     INTEGER NOT NULL DEFAULT 0,
    corrections       INTEGER NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    last_triggered_at TEXT NOT NULL
);

CREATE TABLE hesitation_log (
    trace_id    TEXT PRIMARY KEY REFERENCES traces (id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    score       INTEGER NOT NULL,
    threshold   INTEGER NOT NULL,
    confident   INTEGER NOT NULL,
    held        INTEGER NOT NULL,
    signals     TEXT NOT NULL,
    actions     TEXT NOT NULL,
    plan        TEXT NOT NULL,
    patterns    TEXT NOT NULL DEFAULT '[]',
    review      TEXT CHECK (review IN ('confirmed', 'rejected')),
    reviewed_at TEXT
);
CREATE INDEX hesitation_log_created ON hesitation_log (created_at);

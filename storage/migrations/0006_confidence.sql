-- Composite confidence (seed 001): each lesson's confidence state (the
-- counters and timestamps of package confidence, as JSON) and its tier; a
-- history of every confidence change with its reason; links between
-- contradicting lessons. The Go step derives a state for existing lessons
-- from their counters.
ALTER TABLE lessons ADD COLUMN conf_state TEXT NOT NULL DEFAULT '';
ALTER TABLE lessons ADD COLUMN tier TEXT NOT NULL DEFAULT '';
CREATE INDEX lessons_tier ON lessons (tier);

CREATE TABLE confidence_history (
    id               INTEGER PRIMARY KEY,
    lesson_id        TEXT NOT NULL REFERENCES lessons (id),
    at               TEXT NOT NULL,
    kind             TEXT NOT NULL,
    reason           TEXT NOT NULL,
    before           TEXT NOT NULL,
    after            TEXT NOT NULL,
    lifecycle_before TEXT NOT NULL,
    lifecycle_after  TEXT NOT NULL,
    ignored          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX confidence_history_lesson ON confidence_history (lesson_id, id);

CREATE TABLE lesson_links (
    a          TEXT NOT NULL REFERENCES lessons (id),
    b          TEXT NOT NULL REFERENCES lessons (id),
    kind       TEXT NOT NULL CHECK (kind IN ('contradicts', 'supersedes')),
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    PRIMARY KEY (a, b, kind)
);
CREATE INDEX lesson_links_b ON lesson_links (b);

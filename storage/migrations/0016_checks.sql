-- The checks a rule compiles to (package check), one row each: the
-- built-in reader's (written with the lesson, and again when the reader's
-- version changes), a person's and a consultant's. spec is the check as
-- JSON; state is active (asks), remind (overridden twice: only reminds)
-- or disabled (a person turned it off); approved checks are not demoted.
CREATE TABLE checks (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT NOT NULL UNIQUE,
    lesson_id  TEXT NOT NULL REFERENCES lessons (id),
    origin     TEXT NOT NULL CHECK (origin IN ('reader', 'person', 'consultant')),
    spec       TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'remind', 'disabled')),
    approved   INTEGER NOT NULL DEFAULT 0,
    fired      INTEGER NOT NULL DEFAULT 0,
    overridden INTEGER NOT NULL DEFAULT 0,
    last_fired TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX checks_lesson ON checks (lesson_id);
-- Every stored lesson's checks are compiled on the next open.
UPDATE meta SET value = '0' WHERE key = 'directive_version';

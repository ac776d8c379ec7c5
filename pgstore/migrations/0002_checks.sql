-- The checks a rule compiles to (package check): see storage's
-- 0016_checks.sql, which this mirrors.
CREATE TABLE checks (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    lesson_id  TEXT NOT NULL REFERENCES lessons (id),
    origin     TEXT NOT NULL CHECK (origin IN ('reader', 'person', 'consultant')),
    spec       TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'remind', 'disabled')),
    approved   BOOLEAN NOT NULL DEFAULT FALSE,
    fired      BIGINT NOT NULL DEFAULT 0,
    overridden BIGINT NOT NULL DEFAULT 0,
    last_fired TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX checks_lesson ON checks (lesson_id);
UPDATE meta SET value = '0' WHERE key = 'directive_version';

-- The schema of the SQLite store (storage/migrations 0001 to 0015) as it
-- stands, in PostgreSQL types. Times are TEXT in storage's format (UTC,
-- nanoseconds, fixed width, so sortable as text): TIMESTAMPTZ keeps only
-- microseconds, and a copy between the stores must keep every value
-- unchanged. Text that storage keeps as JSON stays TEXT, so that both
-- stores redact and return the same bytes. Vectors and term statistics are
-- BYTEA in storage's encodings; flags are BOOLEAN.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE lessons (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    content      TEXT NOT NULL,
    trigger      TEXT NOT NULL DEFAULT '',
    anti_trigger TEXT NOT NULL DEFAULT '',
    tags         TEXT NOT NULL DEFAULT '[]',
    project      TEXT NOT NULL DEFAULT '',
    origin       TEXT NOT NULL CHECK (origin IN ('user_stated', 'agent_inferred', 'imported')),
    kind         TEXT NOT NULL DEFAULT 'rule' CHECK (kind IN ('rule', 'caution')),
    state        TEXT NOT NULL CHECK (state IN ('pending', 'active', 'archived')),
    confidence   DOUBLE PRECISION NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    recalls      BIGINT NOT NULL DEFAULT 0,
    uses         BIGINT NOT NULL DEFAULT 0,
    successes    BIGINT NOT NULL DEFAULT 0,
    failures     BIGINT NOT NULL DEFAULT 0,
    approvals    BIGINT NOT NULL DEFAULT 0,
    rejects      BIGINT NOT NULL DEFAULT 0,
    observed     BIGINT NOT NULL DEFAULT 0,
    source       TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    last_used_at TEXT,
    content_hash TEXT NOT NULL UNIQUE,
    -- revision of the last change to the lesson's vectors or
    -- recallability; the instances' vector indexes catch up from it.
    vec_rev      BIGINT NOT NULL DEFAULT 0,
    conf_state   TEXT NOT NULL DEFAULT '',
    tier         TEXT NOT NULL DEFAULT '',
    directive    TEXT NOT NULL DEFAULT '',
    shape_hash   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX lessons_vec_rev ON lessons (vec_rev);
CREATE INDEX lessons_state ON lessons (state);
CREATE INDEX lessons_tier ON lessons (tier);
CREATE INDEX lessons_project ON lessons (project, state);
CREATE INDEX lessons_shape ON lessons (shape_hash);

CREATE TABLE lesson_vectors (
    seq     BIGINT PRIMARY KEY REFERENCES lessons (seq) ON DELETE CASCADE,
    content BYTEA NOT NULL,
    trigger BYTEA
);

-- The lexical channel. SQLite's FTS5 table has no twin here: BM25 is
-- computed from these statistics (as storage/lexical.go does), over the
-- recallable lessons only. lesson_terms holds each lesson's length and
-- term frequencies (storage's encoding); term_df each term's document
-- frequency; term_postings, which replaces the FTS5 index for finding
-- the lessons that hold a term, one row per (term, lesson). meta keeps
-- lex_docs and lex_len, the collection's size and total length.
CREATE TABLE term_df (
    term TEXT PRIMARY KEY,
    df   BIGINT NOT NULL
);

CREATE TABLE lesson_terms (
    seq BIGINT PRIMARY KEY REFERENCES lessons (seq) ON DELETE CASCADE,
    len BIGINT NOT NULL,
    tf  BYTEA NOT NULL
);

CREATE TABLE term_postings (
    term TEXT NOT NULL,
    seq  BIGINT NOT NULL REFERENCES lessons (seq) ON DELETE CASCADE,
    tf   BIGINT NOT NULL,
    PRIMARY KEY (term, seq)
);
CREATE INDEX term_postings_seq ON term_postings (seq);

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
    rank      BIGINT NOT NULL,
    score     DOUBLE PRECISION NOT NULL,
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
    successes BIGINT NOT NULL DEFAULT 0,
    failures  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (lesson_id, key)
);

CREATE TABLE corrections (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trace_id   TEXT,
    project    TEXT NOT NULL DEFAULT '',
    text       TEXT NOT NULL,
    keywords   TEXT NOT NULL DEFAULT '[]',
    session    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE INDEX corrections_created ON corrections (created_at);

CREATE TABLE verdict_log (
    seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trace_id       TEXT NOT NULL UNIQUE REFERENCES traces (id) ON DELETE CASCADE,
    session        TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL,
    mode           TEXT NOT NULL CHECK (mode IN ('focus', 'brainstorm', 'quiet')),
    has_candidate  BOOLEAN NOT NULL,
    support        DOUBLE PRECISION NOT NULL,
    valence        TEXT NOT NULL CHECK (valence IN ('affirm', 'caution', 'mixed', 'neutral')),
    directional    TEXT NOT NULL CHECK (directional IN ('affirm', 'caution', 'mixed', 'neutral')),
    strength       DOUBLE PRECISION NOT NULL,
    confidence     DOUBLE PRECISION NOT NULL,
    dispersion     DOUBLE PRECISION NOT NULL,
    tier           TEXT NOT NULL CHECK (tier IN ('weak', 'medium', 'strong')),
    abstained      BOOLEAN NOT NULL,
    abstain_reason TEXT NOT NULL DEFAULT '',
    evidence       DOUBLE PRECISION NOT NULL,
    agreement      DOUBLE PRECISION NOT NULL,
    resonating     BIGINT NOT NULL,
    top_resonance  DOUBLE PRECISION NOT NULL,
    contributors   TEXT NOT NULL DEFAULT '[]',
    outcome        TEXT CHECK (outcome IN ('success', 'failure', 'unknown')),
    outcome_at     TEXT,
    heeded         BOOLEAN,
    censored       BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX verdict_log_session ON verdict_log (session, seq);
CREATE INDEX verdict_log_outcome ON verdict_log (seq) WHERE outcome IN ('success', 'failure') AND NOT censored;

CREATE TABLE raise_log (
    trace_id   TEXT NOT NULL REFERENCES verdict_log (trace_id) ON DELETE CASCADE,
    lesson_id  TEXT NOT NULL,
    relevance  DOUBLE PRECISION NOT NULL,
    novelty    DOUBLE PRECISION NOT NULL,
    confidence DOUBLE PRECISION NOT NULL,
    damping    DOUBLE PRECISION NOT NULL,
    will       DOUBLE PRECISION NOT NULL,
    raised     BOOLEAN NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (trace_id, lesson_id)
);

CREATE TABLE routing_weights (
    id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    params TEXT NOT NULL UNIQUE
);

CREATE TABLE routing_log (
    seq              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trace_id         TEXT NOT NULL UNIQUE REFERENCES traces (id) ON DELETE CASCADE,
    session          TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    mode             TEXT NOT NULL CHECK (mode IN ('respond', 'clarify', 'gather', 'acknowledge', 'ignore')),
    runner_up        TEXT NOT NULL DEFAULT '',
    confidence       DOUBLE PRECISION NOT NULL,
    margin           DOUBLE PRECISION NOT NULL,
    effective_margin DOUBLE PRECISION NOT NULL,
    ambiguous        BOOLEAN NOT NULL,
    warmth           DOUBLE PRECISION NOT NULL,
    warmth_inputs    TEXT NOT NULL,
    scores           TEXT NOT NULL,
    signals          TEXT NOT NULL,
    guards           TEXT NOT NULL DEFAULT '[]',
    weights_id       BIGINT NOT NULL REFERENCES routing_weights (id),
    next_state       TEXT NOT NULL,
    elapsed_ns       BIGINT NOT NULL,
    misroute         TEXT CHECK (misroute IN ('missed_clarify', 'missed_gather', 'over_engagement', 'under_engagement')),
    misroute_at      TEXT
);
CREATE INDEX routing_log_session ON routing_log (session, seq);
CREATE INDEX routing_log_created ON routing_log (created_at);

CREATE TABLE error_patterns (
    id                TEXT PRIMARY KEY,
    keywords          TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    source            TEXT NOT NULL CHECK (source IN ('user_correction', 'self_review', 'external')),
    strength          DOUBLE PRECISION NOT NULL,
    trigger_count     BIGINT NOT NULL DEFAULT 0,
    corrections       BIGINT NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    last_triggered_at TEXT NOT NULL
);

CREATE TABLE hesitation_log (
    trace_id    TEXT PRIMARY KEY REFERENCES traces (id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    score       BIGINT NOT NULL,
    threshold   BIGINT NOT NULL,
    confident   BOOLEAN NOT NULL,
    held        BOOLEAN NOT NULL,
    signals     TEXT NOT NULL,
    actions     TEXT NOT NULL,
    plan        TEXT NOT NULL,
    patterns    TEXT NOT NULL DEFAULT '[]',
    review      TEXT CHECK (review IN ('confirmed', 'rejected')),
    reviewed_at TEXT
);
CREATE INDEX hesitation_log_created ON hesitation_log (created_at);

CREATE TABLE confidence_history (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    lesson_id        TEXT NOT NULL REFERENCES lessons (id),
    at               TEXT NOT NULL,
    kind             TEXT NOT NULL,
    reason           TEXT NOT NULL,
    before           TEXT NOT NULL,
    after            TEXT NOT NULL,
    lifecycle_before TEXT NOT NULL,
    lifecycle_after  TEXT NOT NULL,
    ignored          BOOLEAN NOT NULL DEFAULT FALSE
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

CREATE TABLE regulator_log (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at           TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('change', 'revert', 'keep')),
    param        TEXT NOT NULL,
    before       DOUBLE PRECISION NOT NULL,
    after        DOUBLE PRECISION NOT NULL,
    metric       TEXT NOT NULL DEFAULT '',
    metric_value DOUBLE PRECISION NOT NULL DEFAULT 0,
    severity     DOUBLE PRECISION NOT NULL DEFAULT 0,
    want         BIGINT NOT NULL DEFAULT 0,
    reason       TEXT NOT NULL DEFAULT '',
    ref          TEXT NOT NULL DEFAULT '',
    degraded     BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX regulator_log_at ON regulator_log (at);

CREATE TABLE pruned_tally (
    kind  TEXT PRIMARY KEY,
    tally TEXT NOT NULL
);

CREATE TABLE pruned_selections (
    lesson_id  TEXT PRIMARY KEY,
    selections BIGINT NOT NULL
);

CREATE TABLE calibration_archive (
    seq      BIGINT PRIMARY KEY,
    strength DOUBLE PRECISION NOT NULL,
    hit      BOOLEAN NOT NULL
);

-- seq orders tokens created in the same instant as SQLite's rowid does.
CREATE TABLE tokens (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY,
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    hash       TEXT NOT NULL UNIQUE,
    scope      TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    projects   TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

INSERT INTO meta (key, value) VALUES
    ('vec_rev', '0'), ('lex_docs', '0'), ('lex_len', '0'),
    ('appraise_calibration_rev', '0'), ('directive_version', '0');

-- The critic's logs: every appraise verdict, with the outcome that record
-- back-fills (a heeded verdict is censored: left out of calibration); the
-- hand-raise bookkeeping of its flagged points, raised or skipped; and every
-- routing decision, with misroute feedback.
CREATE TABLE verdict_log (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    trace_id       TEXT NOT NULL UNIQUE REFERENCES traces (id) ON DELETE CASCADE,
    session        TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL,
    mode           TEXT NOT NULL CHECK (mode IN ('focus', 'brainstorm', 'quiet')),
    has_candidate  INTEGER NOT NULL,
    support        REAL NOT NULL,
    valence        TEXT NOT NULL CHECK (valence IN ('affirm', 'caution', 'mixed', 'neutral')),
    -- the valence the verdict would have had without an abstention
    directional    TEXT NOT NULL CHECK (directional IN ('affirm', 'caution', 'mixed', 'neutral')),
    strength       REAL NOT NULL,
    confidence     REAL NOT NULL,
    dispersion     REAL NOT NULL,
    tier           TEXT NOT NULL CHECK (tier IN ('weak', 'medium', 'strong')),
    abstained      INTEGER NOT NULL,
    abstain_reason TEXT NOT NULL DEFAULT '',
    evidence       REAL NOT NULL,
    agreement      REAL NOT NULL,
    resonating     INTEGER NOT NULL,
    top_resonance  REAL NOT NULL,
    contributors   TEXT NOT NULL DEFAULT '[]',
    outcome        TEXT CHECK (outcome IN ('success', 'failure', 'unknown')),
    outcome_at     TEXT,
    heeded         INTEGER,
    censored       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX verdict_log_session ON verdict_log (session, seq);
CREATE INDEX verdict_log_outcome ON verdict_log (seq) WHERE outcome IN ('success', 'failure') AND censored = 0;

CREATE TABLE raise_log (
    trace_id   TEXT NOT NULL REFERENCES verdict_log (trace_id) ON DELETE CASCADE,
    lesson_id  TEXT NOT NULL,
    relevance  REAL NOT NULL,
    novelty    REAL NOT NULL,
    confidence REAL NOT NULL,
    damping    REAL NOT NULL,
    will       REAL NOT NULL,
    raised     INTEGER NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (trace_id, lesson_id)
);

-- Router weights are logged once per distinct set.
CREATE TABLE routing_weights (
    id     INTEGER PRIMARY KEY,
    params TEXT NOT NULL UNIQUE
);

CREATE TABLE routing_log (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    trace_id         TEXT NOT NULL UNIQUE REFERENCES traces (id) ON DELETE CASCADE,
    session          TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    mode             TEXT NOT NULL CHECK (mode IN ('respond', 'clarify', 'gather', 'acknowledge', 'ignore')),
    runner_up        TEXT NOT NULL DEFAULT '',
    confidence       REAL NOT NULL,
    margin           REAL NOT NULL,
    effective_margin REAL NOT NULL,
    ambiguous        INTEGER NOT NULL,
    warmth           REAL NOT NULL,
    warmth_inputs    TEXT NOT NULL,
    scores           TEXT NOT NULL,
    signals          TEXT NOT NULL,
    guards           TEXT NOT NULL DEFAULT '[]',
    weights_id       INTEGER NOT NULL REFERENCES routing_weights (id),
    next_state       TEXT NOT NULL,
    elapsed_ns       INTEGER NOT NULL,
    misroute         TEXT CHECK (misroute IN ('missed_clarify', 'missed_gather', 'over_engagement', 'under_engagement')),
    misroute_at      TEXT
);
CREATE INDEX routing_log_session ON routing_log (session, seq);
CREATE INDEX routing_log_created ON routing_log (created_at);

INSERT INTO meta (key, value) VALUES ('appraise_calibration_rev', '0');

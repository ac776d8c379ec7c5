-- The regulator's log: every change, revert and keep it made to a tuned
-- parameter, with the metric behind it. The tuned values themselves live in
-- meta under 'params'.
CREATE TABLE regulator_log (
    id           INTEGER PRIMARY KEY,
    at           TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('change', 'revert', 'keep')),
    param        TEXT NOT NULL,
    before       REAL NOT NULL,
    after        REAL NOT NULL,
    metric       TEXT NOT NULL DEFAULT '',
    metric_value REAL NOT NULL DEFAULT 0,
    severity     REAL NOT NULL DEFAULT 0,
    want         INTEGER NOT NULL DEFAULT 0,
    reason       TEXT NOT NULL DEFAULT '',
    ref          TEXT NOT NULL DEFAULT '',
    degraded     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX regulator_log_at ON regulator_log (at);

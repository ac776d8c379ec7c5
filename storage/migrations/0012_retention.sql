-- Retention (storage/retention.go): traces beyond the configured age or
-- count are deleted in small batches, with their log rows. What the stats
-- report counts of them is first folded into pruned_tally (one JSON tally
-- per log: recall, verdicts, routing, hesitation) and pruned_selections
-- (recall selections per lesson), so that stats keeps counting every call
-- ever made; the verdicts among them that appraise's calibration is fitted
-- on are kept in calibration_archive (seq is the verdict's verdict_log seq,
-- hit whether its valence matched its outcome), so that the calibration
-- does not change.
CREATE TABLE pruned_tally (
    kind  TEXT PRIMARY KEY,
    tally TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE pruned_selections (
    lesson_id  TEXT PRIMARY KEY,
    selections INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE calibration_archive (
    seq      INTEGER PRIMARY KEY,
    strength REAL NOT NULL,
    hit      INTEGER NOT NULL
);

-- Secrets written before every write was redacted (traces' requests and
-- responses, logs' signals and reasons, corrections, meta values) are
-- redacted in place by this version's data step (redactStored in
-- storage/redact.go). Lessons' own text was redacted on the way in from
-- the start and is left as it is.
SELECT 1;

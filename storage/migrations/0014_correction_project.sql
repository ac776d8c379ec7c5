-- The project a correction was made in (the record's project; '' when
-- none was known), so that a session of a project is shown its own
-- corrections (the SessionStart hook).
ALTER TABLE corrections ADD COLUMN project TEXT NOT NULL DEFAULT '';
CREATE INDEX corrections_created ON corrections (created_at);

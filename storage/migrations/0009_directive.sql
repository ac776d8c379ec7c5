-- A rule's directive (package directive): what it requires, forbids and
-- prefers, as JSON; '' until derived. The knowledge base derives it when a
-- lesson is added and derives every lesson's again when the parser's
-- version (meta directive_version) differs from the stored one. The
-- project index serves recall's scan of a project's own lessons.
ALTER TABLE lessons ADD COLUMN directive TEXT NOT NULL DEFAULT '';
CREATE INDEX lessons_project ON lessons (project, state);
INSERT INTO meta (key, value) VALUES ('directive_version', '0') ON CONFLICT (key) DO NOTHING;

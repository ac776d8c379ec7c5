-- A lesson's near-duplicate key (kb.ShapeHash: its content and trigger as
-- the content hash reads them, with every number masked), so that a lesson
-- stated again in other numbers reinforces the one already held instead of
-- being stored beside it. This migration's Go step fills it for the lessons
-- already stored.
ALTER TABLE lessons ADD COLUMN shape_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX lessons_shape ON lessons (shape_hash);

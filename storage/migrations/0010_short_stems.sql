-- Package terms no longer stems a word below three letters (going was go,
-- the Go language; using was us, added ad, dies di, ones on; see
-- terms.Stem), so the terms of existing text changed. The index and the
-- term statistics are emptied here and rebuilt from the lessons by this
-- migration's Go step, as migration 8 did.
DELETE FROM lessons_fts;
DELETE FROM lesson_terms;
DELETE FROM term_df;
UPDATE meta SET value = '0' WHERE key IN ('lex_docs', 'lex_len');

-- The full-text index's title column now holds a lesson's descriptive text
-- (first line, headings, comments, docstrings; see describe in lexical.go),
-- not only its first line. The index and the term statistics are emptied
-- here and rebuilt from the lessons by this migration's Go step.
DELETE FROM lessons_fts;
DELETE FROM lesson_terms;
DELETE FROM term_df;
UPDATE meta SET value = '0' WHERE key IN ('lex_docs', 'lex_len');

-- mlq database, version 20.  Frozen once released.
-- The free-text index splits a message as lore does (lib/mail/text-split.c):
-- subject; the body's own text (nq); quoted lines (q); the diff's
-- removed (dfa), added (dfb) and context (dfctx) lines and hunk headers'
-- function names (dfhh).  Words
-- keep '_' (CONFIG_NFSD_V4 is one word) and are stemmed by the porter
-- stemmer, as lore's are by Snowball's English one.  The old index's
-- terms move across, subject to subject and body to nq, so an old
-- database keeps answering; `mlq reindex` splits its mail anew.
ALTER TABLE fts RENAME TO fts_old;
CREATE VIRTUAL TABLE fts USING fts5(subject, nq, q, dfa, dfb, dfctx, dfhh,
	content='', detail = column,
	tokenize = 'porter unicode61 remove_diacritics 2 tokenchars _');
INSERT INTO fts(fts, rank) VALUES ('automerge', 16);
CREATE VIRTUAL TABLE temp.fts_terms USING fts5vocab(main, fts_old, instance);
INSERT INTO fts(rowid, subject, nq, q, dfa, dfb, dfctx, dfhh)
SELECT t.doc,
	group_concat(CASE WHEN t.col = 'subject' THEN t.term END, ' '),
	group_concat(CASE WHEN t.col = 'body' THEN t.term END, ' '),
	'', '', '', '', ''
FROM temp.fts_terms t GROUP BY t.doc ORDER BY 1;
DROP TABLE temp.fts_terms;
DROP TABLE fts_old;

-- mlq database, version 14.  Frozen once released.
-- The free-text index's rowid becomes day * 2^32 + msg.id (day: 0 with
-- no date, else floor(date / 86400) + 2^30 held within 1 .. 2^31 - 1),
-- so FTS5 gives a word's newest matches first (lib/store/store-text.c).  The
-- index is contentless, but with detail=column it holds exactly which
-- terms each message has in each column: fts5vocab lists them, and each
-- message goes back in as those terms under its new rowid.  Tokens are
-- already folded, so tokenizing them again gives the same tokens.
ALTER TABLE fts RENAME TO fts_by_id;
CREATE VIRTUAL TABLE fts USING fts5(subject, body, content='',
	detail = column, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO fts(fts, rank) VALUES ('automerge', 16);
CREATE VIRTUAL TABLE temp.fts_terms USING fts5vocab(main, fts_by_id, instance);
INSERT INTO fts(rowid, subject, body)
SELECT (CASE WHEN m.date IS NULL THEN 0
	ELSE max(1, min(2147483647, 1073741824 +
	    CASE WHEN m.date >= 0 THEN m.date / 86400
	    ELSE -((86399 - m.date) / 86400) END)) END) << 32 | t.doc,
	group_concat(CASE WHEN t.col = 'subject' THEN t.term END, ' '),
	group_concat(CASE WHEN t.col = 'body' THEN t.term END, ' ')
FROM temp.fts_terms t JOIN msg m ON m.id = t.doc
GROUP BY t.doc ORDER BY 1;
DROP TABLE temp.fts_terms;
DROP TABLE fts_by_id;

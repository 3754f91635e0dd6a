-- mlq database, version 12.  Frozen once released.
-- The postings of a title, by one author (version links) or by anyone
-- (references by title), are read from msg_author_norm alone instead of
-- each posting's row.  Where a title has many postings those rows are
-- scattered: copy 10 of linux-nfs into the 10x bench database spent
-- 1.6 s of its 17 s of SQL reading them.  kind is there only so that the
-- lookups, which repeat the index's WHERE, need nothing else.
DROP INDEX msg_author_norm;
CREATE INDEX msg_author_norm ON msg(norm, from_email, version, date, msgid,
	kind) WHERE kind > 0;

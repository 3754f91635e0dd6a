-- mlq database, version 6.  Frozen once released.
-- The raw mail moves out of msg into a table of its own.  Deflated mail is
-- nine tenths of msg's bytes, so every msg row the writer or a query
-- looked up came on a page that was mostly someone's mail: at ten times
-- linux-nfs the writer spent a third of its time copying such pages in.
-- Without it, msg is a few hundred bytes a row and its hot part stays in
-- SQLite's cache; raw is only read by `mlq show` and `mlq reindex`.
CREATE TABLE raw (
	id INTEGER PRIMARY KEY,         -- msg.id
	data BLOB NOT NULL,             -- deflated original bytes
	len INTEGER NOT NULL            -- their length inflated
);
INSERT INTO raw(id, data, len) SELECT id, raw, raw_len FROM msg;
ALTER TABLE msg DROP COLUMN raw;
ALTER TABLE msg DROP COLUMN raw_len;

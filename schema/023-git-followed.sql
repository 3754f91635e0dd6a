-- mlq database, version 23.  Frozen once released.
-- Commits are linked as they come (mlqd follows refs) and postings as
-- they come: how far each side has been looked at, so that neither pass
-- reads everything again.
CREATE TABLE IF NOT EXISTS git_linked (
	one INTEGER PRIMARY KEY CHECK (one = 1),
	commit_upto INTEGER NOT NULL,   -- gcommit.id looked at
	msg_upto INTEGER NOT NULL       -- msg.id looked at
);
-- The commits a commit's Fixes: lines name, by their first 12 digits
-- (the kernel's convention; a shorter id is too loose to trust).
CREATE TABLE IF NOT EXISTS gcommit_fixes (
	commit_id INTEGER NOT NULL REFERENCES gcommit(id),
	ckey TEXT NOT NULL,
	PRIMARY KEY (commit_id, ckey)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS gcommit_fixes_key ON gcommit_fixes(ckey);
-- A new posting finds the commits of its title.
CREATE INDEX IF NOT EXISTS gcommit_norm ON gcommit(norm) WHERE norm <> '';

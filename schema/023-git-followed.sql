-- mlq database, version 23.  Frozen once released.
-- Commits are linked as they come (mlqd follows refs) and postings as
-- they come: how far each side has been looked at, so that neither pass
-- reads everything again.
CREATE TABLE IF NOT EXISTS git_linked (
	one INTEGER PRIMARY KEY CHECK (one = 1),
	commit_upto INTEGER NOT NULL,   -- gcommit.id looked at
	msg_upto INTEGER NOT NULL       -- msg.id looked at
);
-- A new posting finds the commits of its title.
CREATE INDEX IF NOT EXISTS gcommit_norm ON gcommit(norm) WHERE norm <> '';

-- mlq database, version 22.  Frozen once released.
-- Commits of git trees (mlq import --git; lib/git/): what each records,
-- and the postings it carries.  They come from the repository, not from
-- mail, so mlq reindex copies them across as it does sources and marks.
CREATE TABLE IF NOT EXISTS gcommit (
	id INTEGER PRIMARY KEY,
	oid TEXT NOT NULL UNIQUE,       -- the full hex id
	repo TEXT NOT NULL,             -- the repository, as given
	author_name TEXT NOT NULL,
	author_email TEXT NOT NULL,
	adate INTEGER NOT NULL,         -- author date, UTC seconds
	cdate INTEGER NOT NULL,         -- commit date
	subject TEXT NOT NULL,
	norm TEXT NOT NULL,             -- normalized title, as msg.norm
	patch_id TEXT,                  -- git patch-id --stable; NULL: no diff
	reverts TEXT                    -- "This reverts commit ID."
);
CREATE INDEX IF NOT EXISTS gcommit_patch ON gcommit(patch_id) WHERE patch_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS gcommit_reverts ON gcommit(reverts) WHERE reverts IS NOT NULL;
-- The refs read that hold each commit.
CREATE TABLE IF NOT EXISTS gcommit_ref (
	commit_id INTEGER NOT NULL REFERENCES gcommit(id),
	ref TEXT NOT NULL,
	PRIMARY KEY (commit_id, ref)
) WITHOUT ROWID;
-- Message-Ids a commit names in Link: or Message-Id: lines.
CREATE TABLE IF NOT EXISTS gcommit_msgid (
	commit_id INTEGER NOT NULL REFERENCES gcommit(id),
	msgid TEXT NOT NULL,
	PRIMARY KEY (commit_id, msgid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS gcommit_msgid_by ON gcommit_msgid(msgid);
-- A posting a commit carries; how: 1 by a Link:, 2 by patch id, 3 by
-- author and title.
CREATE TABLE IF NOT EXISTS merged (
	msg INTEGER NOT NULL,
	commit_id INTEGER NOT NULL REFERENCES gcommit(id),
	how INTEGER NOT NULL,
	PRIMARY KEY (msg, commit_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS merged_commit ON merged(commit_id);
-- A commit finds its posting by patch id.
CREATE INDEX IF NOT EXISTS msg_patch_id ON msg(patch_id) WHERE patch_id IS NOT NULL;
-- A thank-you mail's "[1/3] title" and "commit: ID" (b4 ty), or a bot's
-- link ending in /c/ID: which commit each patch of its thread became.
-- The key's columns come first: SQLite 3.40's integrity_check misreads
-- a WITHOUT ROWID table whose key columns do not.
CREATE TABLE IF NOT EXISTS named_commit (
	msg INTEGER NOT NULL,           -- the reply that says so
	oid TEXT NOT NULL,              -- the id, 7 to 40 hex digits
	idx INTEGER NOT NULL,           -- i of [i/n]; 0 without
	norm TEXT NOT NULL,             -- the title it gives, normalized
	PRIMARY KEY (msg, oid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS named_commit_oid ON named_commit(oid);

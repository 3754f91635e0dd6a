-- mlq database, version 1.  Frozen once released: change it with a new
-- numbered file.  Every message is stored once, keyed by Message-Id.

CREATE TABLE msg (
	id INTEGER PRIMARY KEY,
	msgid TEXT NOT NULL UNIQUE,     -- without <>
	synthetic INTEGER NOT NULL,     -- 1: the mail had no Message-Id
	thread INTEGER NOT NULL,        -- shared by a thread's messages and ghosts
	parent TEXT,                    -- In-Reply-To (else the last reference)
	subject TEXT NOT NULL,
	norm TEXT NOT NULL,             -- normalized title, for versions and reverts
	from_name TEXT NOT NULL,
	from_email TEXT NOT NULL,
	date INTEGER,                   -- UTC seconds; NULL when the Date is unusable
	date_raw TEXT NOT NULL,
	kind INTEGER NOT NULL,          -- 0 other, 1 patch, 2 cover letter, 3 pull request
	is_reply INTEGER NOT NULL,
	version INTEGER NOT NULL,
	idx INTEGER NOT NULL,
	total INTEGER NOT NULL,
	prefix TEXT NOT NULL,           -- e.g. net-next
	revert_of TEXT,                 -- the title a revert names
	commit_id TEXT,                 -- from "This reverts commit" or git show input
	patch_id TEXT,
	insertions INTEGER NOT NULL,
	deletions INTEGER NOT NULL,
	own_tags INTEGER NOT NULL,      -- tags earned by this message's own text
	tags INTEGER NOT NULL,          -- what search shows: own tags, or for a
	                                -- submission the union over its replies
	status INTEGER NOT NULL,        -- enum mlq_state; 0 for non-submissions
	raw BLOB NOT NULL,              -- deflated original bytes
	raw_len INTEGER NOT NULL,
	added INTEGER NOT NULL          -- when it was stored (UTC seconds)
);
CREATE INDEX msg_thread ON msg(thread);
CREATE INDEX msg_date ON msg(date);
CREATE INDEX msg_parent ON msg(parent);
CREATE INDEX msg_norm ON msg(norm);
CREATE INDEX msg_status ON msg(status) WHERE kind > 0;
CREATE INDEX msg_commit ON msg(commit_id) WHERE commit_id IS NOT NULL;

-- Message-Ids named by References/In-Reply-To but not (yet) stored.
CREATE TABLE ghost (
	msgid TEXT PRIMARY KEY,
	thread INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ghost_thread ON ghost(thread);

CREATE TABLE list (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);
CREATE TABLE msg_list (
	msg INTEGER NOT NULL REFERENCES msg(id),
	list INTEGER NOT NULL REFERENCES list(id),
	PRIMARY KEY (msg, list)
) WITHOUT ROWID;
CREATE INDEX msg_list_list ON msg_list(list, msg);

-- Every address a message names: From (1), To (2), Cc (3), trailers (4).
-- Each address is stored once; rdomain is its domain reversed with a
-- final dot ("edu.umn.cs."), so a domain and its subdomains are one
-- index range of email, and their messages one range of msg_email each.
CREATE TABLE email (
	id INTEGER PRIMARY KEY,
	email TEXT NOT NULL UNIQUE,
	rdomain TEXT NOT NULL
);
CREATE INDEX email_rdomain ON email(rdomain);
CREATE TABLE msg_email (
	email INTEGER NOT NULL REFERENCES email(id),
	msg INTEGER NOT NULL REFERENCES msg(id),
	role INTEGER NOT NULL,
	PRIMARY KEY (email, msg, role)
) WITHOUT ROWID;
CREATE INDEX msg_email_msg ON msg_email(msg);

CREATE TABLE file (
	msg INTEGER NOT NULL REFERENCES msg(id),
	path TEXT NOT NULL,
	old_path TEXT,
	insertions INTEGER NOT NULL,
	deletions INTEGER NOT NULL,
	flags INTEGER NOT NULL
);
CREATE INDEX file_path ON file(path);
CREATE INDEX file_msg ON file(msg);

CREATE TABLE trailer (
	msg INTEGER NOT NULL REFERENCES msg(id),
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	name TEXT NOT NULL,
	email TEXT NOT NULL
);
CREATE INDEX trailer_msg ON trailer(msg);
CREATE INDEX trailer_key ON trailer(key) WHERE key = 'Fixes';

-- Why a reply earned a tag: the line and the rule.
CREATE TABLE evidence (
	msg INTEGER NOT NULL REFERENCES msg(id),
	tag INTEGER NOT NULL,
	rule TEXT NOT NULL,
	line TEXT NOT NULL
);
CREATE INDEX evidence_msg ON evidence(msg);

-- One row per tag a message shows, for indexed --tag queries.
CREATE TABLE msg_tag (
	tag INTEGER NOT NULL,
	msg INTEGER NOT NULL REFERENCES msg(id),
	PRIMARY KEY (tag, msg)
) WITHOUT ROWID;

-- Links between submissions: 1 revert (src reverts dst), 2 fixes (src
-- names dst in Fixes:), 3 version (src is a later version of dst).
CREATE TABLE link (
	src INTEGER NOT NULL REFERENCES msg(id),
	dst INTEGER NOT NULL REFERENCES msg(id),
	kind INTEGER NOT NULL,
	PRIMARY KEY (src, dst, kind)
) WITHOUT ROWID;
CREATE INDEX link_dst ON link(dst, kind);

CREATE TABLE source (
	name TEXT PRIMARY KEY,
	url TEXT NOT NULL,
	kind TEXT NOT NULL,
	cursor TEXT,
	last_poll INTEGER NOT NULL DEFAULT 0,
	last_ok INTEGER NOT NULL DEFAULT 0,
	next_poll INTEGER NOT NULL DEFAULT 0,
	last_error TEXT,
	ingested INTEGER NOT NULL DEFAULT 0
);

-- Free text over subject and body.  Contentless: the text is in raw, so
-- the index holds only tokens; rowid is msg.id.  detail=column keeps which
-- column a token is in but not its positions: a tenth of the database and
-- of the writer's time, for phrase queries, which mlq does not offer.
CREATE VIRTUAL TABLE fts USING fts5(subject, body, content='',
	detail = column, tokenize = 'unicode61 remove_diacritics 2');

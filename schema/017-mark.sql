-- mlq database, version 17.  Frozen once released.
-- A maintainer's corrections (mlq mark), which win over what the review
-- engine derives (lib/store/store-review.c reads them for every thread it
-- derives).  Keyed by Message-Id: what it names is the mail, whatever
-- row id a rebuild gives it.  The mail file (PATH-mail) keeps the same
-- rows, so that `mlq reindex` brings them back even from a torn index
-- (lib/store/store-mail.c).  One row per thing set: 'what' 0 is the status
-- (value: enum mlq_state), else one tag bit (value 1: given, 0: taken
-- away); who set it ([identity] name, else $USER) and when (UTC seconds).
-- IF NOT EXISTS: the tests wind databases back to older versions.
CREATE TABLE IF NOT EXISTS mark (
	msgid TEXT NOT NULL,
	what INTEGER NOT NULL,
	value INTEGER NOT NULL,
	who TEXT NOT NULL,
	at INTEGER NOT NULL,
	PRIMARY KEY (msgid, what)
) WITHOUT ROWID;

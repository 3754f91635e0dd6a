-- mlq database, version 2: what the review engine (lib/store/store-review.c)
-- needs to resolve links in any arrival order.

-- A ghost's parent: the reference before it in the References of the
-- message that named it, so that its replies hang under the submission.
ALTER TABLE ghost ADD COLUMN parent TEXT;

-- Titles and commits a submission names, kept so that the named message
-- can be found when it arrives later: kind 1 a revert (the quoted title,
-- "This reverts commit ID"), kind 2 a Fixes: trailer.  norm is the title
-- normalized as msg.norm is ('' when none); ckey the first 12 hex digits
-- of the commit id, for an index both directions can use.
CREATE TABLE ref (
	msg INTEGER NOT NULL REFERENCES msg(id),
	kind INTEGER NOT NULL,
	norm TEXT NOT NULL,
	commit_id TEXT,
	ckey TEXT
);
CREATE INDEX ref_msg ON ref(msg, kind);
CREATE INDEX ref_norm ON ref(norm) WHERE norm <> '';
CREATE INDEX ref_ckey ON ref(ckey) WHERE ckey IS NOT NULL;

-- Versions: the same author's submissions under one normalized title.
CREATE INDEX msg_author_norm ON msg(norm, from_email) WHERE kind > 0;

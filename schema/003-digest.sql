-- mlq database, version 2: digests that were mailed, so a period is sent
-- once whatever restarts happen.  Frozen once released.

CREATE TABLE digest_sent (
	id INTEGER PRIMARY KEY,
	period_start INTEGER NOT NULL,  -- UTC seconds, included
	period_end INTEGER NOT NULL,    -- UTC seconds, excluded
	scheduled INTEGER NOT NULL,     -- 1: a period of [digest] schedule;
	                                -- 0: mlq digest --send with dates
	sent INTEGER NOT NULL,          -- when the server accepted it
	message_id TEXT NOT NULL,       -- without <>
	recipients TEXT NOT NULL        -- "a@x, b@y"
);
CREATE UNIQUE INDEX digest_sent_period ON digest_sent(period_start, period_end)
	WHERE scheduled = 1;
CREATE INDEX digest_sent_end ON digest_sent(period_end) WHERE scheduled = 1;

-- mlq database, version 5.  Frozen once released.
-- A patch looks for its cover letter (and a cover letter for its patches)
-- among the same author's submissions of one kind, version and size sent
-- within a day.  004's index did not lead with kind or hold the date, so
-- SQLite scanned every message of those two days instead: the cost of
-- each arrival grew with the list's traffic.  This one answers from one
-- index range without reading msg rows.  It leads with kind so that the
-- planner, which has no statistics, never prefers it to msg_author_norm
-- for an author's titles.
DROP INDEX msg_series;
CREATE INDEX msg_series ON msg(kind, from_email, version, total, date,
	thread, idx) WHERE kind > 0;

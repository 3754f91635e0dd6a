-- mlq database, version 7.  Frozen once released.
-- Every lookup by title also asks for a submission (kind > 0), which
-- msg_author_norm (002) answers; msg_norm was never used, and cost every
-- stored message one more random insert.
DROP INDEX msg_norm;

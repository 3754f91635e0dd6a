-- mlq database, version 24.  Frozen once released.
-- A revert or Fixes: that names a title goes to the last posting its
-- sender made of the version, for the same tree (store-review.c,
-- cand_pick): the lookups by title read each posting's prefix, so the
-- index that serves them alone holds it too.
DROP INDEX msg_author_norm;
CREATE INDEX msg_author_norm ON msg(norm, from_email, version, date, msgid,
	kind, prefix) WHERE kind > 0;

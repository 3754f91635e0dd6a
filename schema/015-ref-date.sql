-- mlq database, version 15.  Frozen once released.
-- A new submission looks up the references that name its title or its
-- commit (lib/store/store-review.c, resolve_naming) and needs each one's date.
-- It joined msg for that date: one random msg row per reference.  Where
-- a title is named many times (a Fixes: repeated over years) that was
-- most of what a new posting cost.  The date is kept in ref itself and
-- both look-up indexes cover what the look-up reads.
ALTER TABLE ref ADD COLUMN date INTEGER;
UPDATE ref SET date = (SELECT date FROM msg WHERE msg.id = ref.msg);
DROP INDEX ref_norm;
CREATE INDEX ref_norm ON ref(norm, msg, kind, date, commit_id)
	WHERE norm <> '';
DROP INDEX ref_ckey;
CREATE INDEX ref_ckey ON ref(ckey, msg, kind, date, commit_id)
	WHERE ckey IS NOT NULL;

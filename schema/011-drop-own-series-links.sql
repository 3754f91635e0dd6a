-- mlq database, version 11.  Frozen once released.
-- Series links (kind 4) join a patch to a cover letter in another thread;
-- before this version a patch got one even when its own thread held its
-- cover letter, whenever its author sent a second series of the same
-- version and size within a day.  Statuses never used those links (the
-- thread's own cover letter comes first), but they bundled unrelated
-- threads together for every re-derivation and for mlq show.
DELETE FROM link WHERE kind = 4 AND EXISTS (
	SELECT 1 FROM msg p JOIN msg c ON c.thread = p.thread AND c.kind = 2
	    AND c.from_email = p.from_email AND c.version = p.version
	    AND c.total = p.total
	WHERE p.id = link.src);

-- mlq database, version 4: series whose patches do not thread under their
-- cover letter (git format-patch files, mail without References) are
-- found by author, version and size; link kind 4 joins such a patch to its
-- cover letter (src patch, dst cover).
CREATE INDEX msg_series ON msg(from_email, version, total)
	WHERE kind > 0 AND total > 0;

-- When a submission was first answered by someone other than its author,
-- among the replies its status is computed over (UTC seconds; NULL: not
-- yet): what `mlq who` reports as time to first review.
ALTER TABLE msg ADD COLUMN first_review INTEGER;

-- mlq database, version 3: series whose patches do not thread under their
-- cover letter (git format-patch files, mail without References) are
-- found by author, version and size; link kind 4 joins such a patch to its
-- cover letter (src patch, dst cover).
CREATE INDEX msg_series ON msg(from_email, version, total)
	WHERE kind > 0 AND total > 0;

-- mlq database, version 21.  Frozen once released.
-- A retitled version is looked for among the postings of the same file
-- by the same poster within a year whose title is alike (lib/store/
-- store-review.c, link_retitled).  Those were found by reading every
-- posting of the file, row by row in msg: at ten copies of an archive
-- that was most of an import's time.  The poster, the date and the
-- title go beside the path, in one index that holds all a search needs,
-- so that only the postings whose titles are alike are read; it serves
-- every lookup by path too, so the path's own index goes.
ALTER TABLE file ADD COLUMN poster TEXT;
ALTER TABLE file ADD COLUMN date INTEGER;
ALTER TABLE file ADD COLUMN norm TEXT;
UPDATE file SET (poster, date, norm) =
	(SELECT from_email, date, norm FROM msg WHERE msg.id = file.msg);
CREATE INDEX file_poster ON file(path, poster, date, norm, msg);
DROP INDEX file_path;

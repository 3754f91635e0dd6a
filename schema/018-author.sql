-- mlq database, version 18.  Frozen once released.
-- The author of a patch is the in-body From: where the body starts with
-- one, as git am reads it (a stable backport, a patch someone sends on
-- for its author); it is kept here, NULL where the header From (the
-- from_* columns: who posted it, on which series and reviews rest) is
-- the author.  The address index also gains the roles To ('t') and Cc
-- ('c') for t: and c:.  Mail stored before this version gets both from
-- `mlq reindex`.
ALTER TABLE msg ADD COLUMN author_name TEXT;
ALTER TABLE msg ADD COLUMN author_email TEXT;

-- mlq database, version 18.  Frozen once released.
-- The author of a patch is the in-body From: where the body starts with
-- one, as git am reads it (a stable backport or a patch someone sends on
-- for its author); the header From is then the sender, kept here (NULL
-- where the header From is the author).  The address index also gains
-- the roles To ('t') and Cc ('c') for t: and c:.  Mail stored before
-- this version gets both from `mlq reindex`.
ALTER TABLE msg ADD COLUMN sender_name TEXT;
ALTER TABLE msg ADD COLUMN sender_email TEXT;

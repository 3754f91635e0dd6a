-- mlq database, version 8.  Frozen once released.
-- Only the digest looked messages up by parent, and it now walks the
-- parent's thread instead (lib/digest/store-digest.c): one random index insert
-- less for every reply stored.
DROP INDEX msg_parent;

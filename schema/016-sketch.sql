-- mlq database, version 16.  Frozen once released.
-- A patch retitled on request is still a version of the earlier posting
-- when the author, the files and most of the changed lines are the same
-- (lib/store/store-review.c, link_retitled).  The changed lines are kept as a
-- sketch: the smallest 128 hashes of them, 8 bytes each, little-endian
-- (lib/mail/patch.c, mlq__patch_sketch); NULL for mail without a diff and for
-- patches stored before this version until `mlq reindex`.
ALTER TABLE msg ADD COLUMN sketch BLOB;

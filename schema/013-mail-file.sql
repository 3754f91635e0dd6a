-- mlq database, version 13.  Frozen once released.
-- The mail moves to a database file of its own, PATH-mail beside PATH
-- (lib/store/store-mail.c says why).  Before this runs, lib/store/schema.c has
-- copied table raw there and committed it; the index lets it go.  The
-- freed pages stay in the file for the indexes to grow into.
DROP TABLE IF EXISTS raw;

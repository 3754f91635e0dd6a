-- mlq database, version 9.  Frozen once released.
-- FTS5 merges a level's segments once 16 have gathered there instead of
-- 4: each posting is rewritten about half as often, so a bulk import
-- spends a sixth less CPU, and a steady-state poll into a large index
-- rarely pays for a merge.  Queries read up to 15 segments per level;
-- on the 10x bench database free-text and --from latencies did not move.
INSERT INTO fts(fts, rank) VALUES ('automerge', 16);

-- mlq database, version 19.  Frozen once released.
-- msg.patch_id becomes `git patch-id --stable` of the diff (lib/mail/patch-id.c),
-- so that a posting, lore's patchid: and a commit compare directly.  The
-- ids stored before were mlq's own hash, which matches neither: they go,
-- and `mlq reindex` computes the new ones from the stored mail.
UPDATE msg SET patch_id = NULL WHERE patch_id IS NOT NULL;

/*
 * mlq reindex: an index rebuilt from the database's own raw mail by the
 * import pipeline, into a new file that replaces the old one only when
 * complete.  A rebuild beside the old file (rather than table by table in
 * place) reuses the parallel pipeline and the writer's code unchanged,
 * costs no more than an import, and leaves the old database whole on any
 * failure.  The mail file (PATH-mail) is only read: every message keeps
 * the id its mail is stored under, and the lists, times and marks it
 * holds.
 *
 * An index that an import left unsynced when the system went down may be
 * torn (store-sync.c): it is not opened at all, but rebuilt from every
 * message of the mail file, and its sources and digests are copied if
 * they can still be read.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlq-int.h"

struct reindex {
	struct mlq_ingest *ing;
	struct mlq_err *err;
	enum mlq_status rc;
	uint64_t messages;
	uint64_t rejected;
	char first_reject[200];
};

static int
feed(int64_t id, const void *zraw, size_t zlen, size_t len, int64_t added,
    const char *const *lists, void *arg)
{
	struct reindex *r = arg;
	size_t i;

	r->messages++;
	/* One add per list: the later ones only record the list. */
	i = 0;
	do {
		r->rc = mlq_ingest_add_stored(r->ing, id, zraw, zlen, len,
		    lists[i], added, r->err);
		if (r->rc != MLQ_OK)
			return 1;
	} while (lists[i] != NULL && lists[++i] != NULL);
	return 0;
}

static void
on_reject(const char *origin, uint64_t pos, const char *why, void *arg)
{
	struct reindex *r = arg;

	(void)origin;
	if (r->rejected++ == 0)
		snprintf(r->first_reject, sizeof(r->first_reject),
		    "message %llu: %s", (unsigned long long)pos, why);
}

/* Removes a database file and its WAL companions; absent ones are fine. */
static void
remove_db(const char *path)
{
	char p[4200];

	unlink(path);
	if ((size_t)snprintf(p, sizeof(p), "%s-wal", path) < sizeof(p))
		unlink(p);
	if ((size_t)snprintf(p, sizeof(p), "%s-shm", path) < sizeof(p))
		unlink(p);
}

static bool
exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

enum mlq_status
mlq_reindex(const char *path, int workers,
    const struct mlq_mailmap *mailmap, struct mlq_reindex_stats *out,
    struct mlq_err *err)
{
	struct mlq_store *old = NULL, *fresh = NULL;
	struct mlq_ingest_opts opts;
	struct mlq_ingest_stats is;
	struct mlq_err why;
	struct reindex r;
	enum mlq_status rc;
	bool torn;
	char tmp[4200], wal[4200], shm[4200];

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	r.err = err;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.reindex", path) >=
		sizeof(tmp) ||
	    (size_t)snprintf(wal, sizeof(wal), "%s-wal", path) >= sizeof(wal) ||
	    (size_t)snprintf(shm, sizeof(shm), "%s-shm", path) >= sizeof(shm))
		return mlq_err_set(err, MLQ_EUSAGE, "reindex: path too long");
	if (!exists(path))
		return mlq_err_set(err, MLQ_EIO, "reindex '%s': %s", path,
		    strerror(ENOENT));
	mlq_err_clear(&why);
	torn = mlq__sync_check(path, &why) != MLQ_OK;
	out->torn = torn;
	/* Migrated, and write-locked until the new file replaces it. */
	if (!torn &&
	    ((rc = mlq_store_open(path, MLQ_STORE_WRITE, &old, err)) !=
		    MLQ_OK ||
		(rc = mlq_store_begin(old, err)) != MLQ_OK))
		goto out;
	/* A rebuild the system went down under leaves nothing to keep. */
	remove_db(tmp);
	mlq__sync_forget(tmp);
	/* A maintainer's marks, from the mail file, before any mail: the
	 * statuses are derived with them as it is stored. */
	if ((rc = mlq_store_open(tmp, MLQ_STORE_BULK, &fresh, err)) != MLQ_OK ||
	    (rc = mlq__mail_marks_copy(fresh, path, err)) != MLQ_OK)
		goto out;
	memset(&opts, 0, sizeof(opts));
	opts.workers = workers;
	opts.on_reject = on_reject;
	opts.arg = &r;
	opts.mailmap = mailmap;
	if ((rc = mlq_ingest_new(fresh, &opts, &r.ing, err)) != MLQ_OK)
		goto out;
	rc = torn ? mlq__mail_each_file(path, feed, &r, err) :
		    mlq__store_each_raw(old, feed, &r, err);
	if (rc == MLQ_OK)
		rc = r.rc;
	if (rc == MLQ_OK)
		rc = mlq_ingest_sync(r.ing, NULL, NULL, err);
	mlq_ingest_stats(r.ing, &is);
	mlq_ingest_free(r.ing);
	out->messages = r.messages;
	out->stored = is.stored;
	out->rejected = r.rejected;
	if (rc != MLQ_OK)
		goto out;
	if (r.rejected > 0) {
		rc = mlq_err_set(err, MLQ_EINPUT,
		    "reindex: %llu message%s no longer parse, the database is "
		    "unchanged (first: %s)",
		    (unsigned long long)r.rejected, r.rejected == 1 ? "" : "s",
		    r.first_reject);
		goto out;
	}
	/* From a torn index, what can still be read of them. */
	if ((rc = mlq__store_copy_meta(fresh, path, err)) != MLQ_OK) {
		if (!torn)
			goto out;
		out->meta_lost = true;
		mlq_err_clear(err);
	}
	if ((rc = mlq_store_sync(fresh, err)) != MLQ_OK)
		goto out;
	/* Both closed: the new file checkpointed, the old one released. */
	mlq_store_close(fresh);
	fresh = NULL;
	if (old != NULL) {
		mlq_store_rollback(old);
		mlq_store_close(old);
		old = NULL;
	}
	/* A torn index's WAL is no one's: left, it would be replayed over
	 * the new file. */
	if (torn) {
		unlink(wal);
		unlink(shm);
	}
	if (exists(wal)) {
		rc = mlq_err_set(err, MLQ_EIO,
		    "reindex '%s': the database is open elsewhere (stop mlqd), "
		    "it is unchanged",
		    path);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		rc = mlq_err_set(err, MLQ_EIO, "reindex: rename '%s': %s", tmp,
		    strerror(errno));
		goto out;
	}
	if (torn)
		mlq__sync_forget(path);
	return MLQ_OK;
out:
	mlq_store_close(fresh);
	mlq_store_close(old);
	remove_db(tmp);
	return rc;
}

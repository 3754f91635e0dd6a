/*
 * The stored mail: every message's bytes, deflated, in a database file of
 * their own beside the index (PATH-mail for the database PATH), keyed by
 * the message's row id.
 *
 * Why apart: the mail is three quarters of the bytes.  Interleaved with
 * the indexes it spread every index over a file that at ten times
 * linux-nfs outgrew the 2 GB SQLite maps (Debian's SQLITE_MAX_MMAP_SIZE),
 * so a query read half its pages through pread and the writer's cache
 * held mail pages nobody reads again.  The mail is read only for mbox
 * output (search, thread) and by reindex, so it is opened on first use.
 *
 * Two files cannot commit as one, so the order is what keeps them
 * consistent: the mail of a batch commits first, synced, and only then
 * the index that names it.  A crash between leaves mail rows no message
 * names; the ids they sit under are handed out again and overwritten.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* Appends mostly: a small cache is enough for the writer. */
#define MAIL_CACHE_KIB 2048

static enum mlq_status
mail_fail(struct mlq_store *st, struct mlq_err *err, const char *what)
{
	return mlq_err_set(err, MLQ_EDB, "%s: mail database: %s", what,
	    st->mail != NULL ? sqlite3_errmsg(st->mail) : "not open");
}

static enum mlq_status
mail_exec(struct mlq_store *st, const char *sql, struct mlq_err *err)
{
	if (sqlite3_exec(st->mail, sql, NULL, NULL, NULL) != SQLITE_OK)
		return mail_fail(st, err, sql);
	return MLQ_OK;
}

/* PATH-mail for the index database at PATH; false when it has no file. */
static bool
mail_path(struct mlq_store *st, struct mlq_buf *out)
{
	const char *main_path = sqlite3_db_filename(st->db, "main");

	if (main_path == NULL || *main_path == '\0')
		return false;
	mlq_buf_reset(out);
	mlq_buf_addf(out, "%s-mail", main_path);
	return !out->oom;
}

static enum mlq_status
mail_open(struct mlq_store *st, struct mlq_err *err)
{
	struct mlq_buf path;
	enum mlq_status rc = MLQ_OK;
	int flags;

	if (st->mail != NULL)
		return MLQ_OK;
	mlq_buf_init(&path);
	if (!mail_path(st, &path)) {
		mlq_buf_release(&path);
		return mlq_err_set(err, MLQ_EDB,
		    "the database has no file to keep mail beside");
	}
	flags = st->writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
			     : SQLITE_OPEN_READONLY;
	if (sqlite3_open_v2(path.data, &st->mail, flags | SQLITE_OPEN_NOMUTEX,
		NULL) != SQLITE_OK) {
		rc = mlq_err_set(err, MLQ_EDB, "mail database '%s': %s",
		    path.data,
		    st->mail ? sqlite3_errmsg(st->mail) : "cannot open");
		goto out;
	}
	sqlite3_busy_timeout(st->mail, 10000);
	sqlite3_extended_result_codes(st->mail, 1);
	/*
	 * FULL: a batch's mail is on disk before the index naming it commits
	 * (NORMAL in WAL mode may lose the last commits at a power cut).
	 */
	if (st->writable &&
	    ((rc = mail_exec(st, "PRAGMA page_size = 16384", err)) != MLQ_OK ||
		(rc = mail_exec(st, "PRAGMA journal_mode = WAL", err)) !=
		    MLQ_OK ||
		(rc = mail_exec(st, "PRAGMA synchronous = FULL", err)) !=
		    MLQ_OK ||
		/* id is msg.id; data the deflated mail, len inflated. */
		(rc = mail_exec(st,
		     "CREATE TABLE IF NOT EXISTS mail (id INTEGER PRIMARY KEY, "
		     "data BLOB NOT NULL, len INTEGER NOT NULL)",
		     err)) != MLQ_OK))
		goto out;
	mlq_buf_reset(&path);
	mlq_buf_addf(&path, "PRAGMA cache_size = -%u",
	    (unsigned)MAIL_CACHE_KIB);
	if (path.oom)
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	else
		rc = mail_exec(st, path.data, err);
out:
	mlq_buf_release(&path);
	if (rc != MLQ_OK) {
		sqlite3_close(st->mail);
		st->mail = NULL;
	}
	return rc;
}

void
mlq__mail_close(struct mlq_store *st)
{
	sqlite3_finalize(st->mail_put);
	sqlite3_finalize(st->mail_get);
	st->mail_put = st->mail_get = NULL;
	sqlite3_close(st->mail);
	st->mail = NULL;
	st->mail_tx = false;
}

static sqlite3_stmt *
mail_stmt(struct mlq_store *st, sqlite3_stmt **slot, const char *sql,
    struct mlq_err *err)
{
	if (*slot != NULL) {
		sqlite3_reset(*slot);
		return *slot;
	}
	if (sqlite3_prepare_v3(st->mail, sql, -1, SQLITE_PREPARE_PERSISTENT,
		slot, NULL) != SQLITE_OK) {
		mail_fail(st, err, "prepare");
		return NULL;
	}
	return *slot;
}

/* Opens the mail file's transaction, once per batch. */
static enum mlq_status
mail_begin(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc;

	if (st->mail_tx)
		return MLQ_OK;
	if ((rc = mail_exec(st, "BEGIN IMMEDIATE", err)) == MLQ_OK)
		st->mail_tx = true;
	return rc;
}

enum mlq_status
mlq__mail_put(struct mlq_store *st, int64_t id, const void *z, size_t zlen,
    size_t len, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	int step;

	if ((rc = mail_open(st, err)) != MLQ_OK ||
	    (st->in_tx && (rc = mail_begin(st, err)) != MLQ_OK))
		return rc;
	/* OR REPLACE: a row under this id is left from a batch whose index
	 * never committed (see the top). */
	s = mail_stmt(st, &st->mail_put,
	    "INSERT OR REPLACE INTO mail(id, data, len) VALUES (?, ?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_blob(s, 2, z, (int)zlen, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, (int64_t)len);
	step = sqlite3_step(s);
	sqlite3_reset(s);
	if (step != SQLITE_DONE)
		return mail_fail(st, err, "store mail");
	return MLQ_OK;
}

enum mlq_status
mlq__mail_commit(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc;

	if (!st->mail_tx)
		return MLQ_OK;
	st->mail_tx = false;
	if ((rc = mail_exec(st, "COMMIT", err)) != MLQ_OK)
		sqlite3_exec(st->mail, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

void
mlq__mail_rollback(struct mlq_store *st)
{
	if (!st->mail_tx)
		return;
	sqlite3_exec(st->mail, "ROLLBACK", NULL, NULL, NULL);
	st->mail_tx = false;
}

enum mlq_status
mlq__mail_get(struct mlq_store *st, int64_t id, mlq__mail_fn fn, void *arg,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	int step;

	if ((rc = mail_open(st, err)) != MLQ_OK)
		return rc;
	s = mail_stmt(st, &st->mail_get,
	    "SELECT data, len FROM mail WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW)
		rc = fn(sqlite3_column_blob(s, 0),
		    (size_t)sqlite3_column_bytes(s, 0),
		    (size_t)sqlite3_column_int64(s, 1), arg, err);
	else if (step == SQLITE_DONE)
		/* The index names it: the mail file is damaged. */
		rc = mlq_err_set(err, MLQ_EDB,
		    "message %lld: its mail is not stored", (long long)id);
	else
		rc = mail_fail(st, err, "read mail");
	sqlite3_reset(s);
	return rc;
}

static enum mlq_status
unpack(const void *z, size_t zlen, size_t len, void *arg, struct mlq_err *err)
{
	return mlq_zraw_unpack(z, zlen, len, arg, err);
}

enum mlq_status
mlq_store_raw(struct mlq_store *st, int64_t id, struct mlq_buf *out,
    struct mlq_err *err)
{
	return mlq__mail_get(st, id, unpack, out, err);
}

enum mlq_status
mlq__mail_migrate(struct mlq_store *st, bool *moved, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	int step = SQLITE_DONE;

	/*
	 * Idempotent: a crash before the index dropped table raw runs this
	 * again over the same rows, and a database whose index was rewound
	 * past 013 has no table raw left.  A new database has no mail in it:
	 * no file then.
	 */
	if (sqlite3_prepare_v2(st->db,
		"SELECT 1 FROM sqlite_schema WHERE type = 'table' AND "
		"name = 'raw'",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read the schema");
	step = sqlite3_step(s);
	sqlite3_finalize(s);
	if (step == SQLITE_DONE)
		return MLQ_OK;
	if (step != SQLITE_ROW ||
	    sqlite3_prepare_v2(st->db, "SELECT id, data, len FROM raw", -1, &s,
		NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read raw mail");
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		/* The file is made and the transaction begun on the first. */
		if (!*moved &&
		    ((rc = mail_open(st, err)) != MLQ_OK ||
			(rc = mail_begin(st, err)) != MLQ_OK))
			break;
		*moved = true;
		if ((rc = mlq__mail_put(st, sqlite3_column_int64(s, 0),
			 sqlite3_column_blob(s, 1),
			 (size_t)sqlite3_column_bytes(s, 1),
			 (size_t)sqlite3_column_int64(s, 2), err)) != MLQ_OK)
			break;
	}
	if (step == SQLITE_DONE)
		rc = mlq__mail_commit(st, err);
	else if (step != SQLITE_ROW)
		rc = mlq__store_fail(st, err, "read raw mail");
	sqlite3_finalize(s);
	if (rc != MLQ_OK)
		mlq__mail_rollback(st);
	return rc;
}

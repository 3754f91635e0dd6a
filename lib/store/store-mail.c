/*
 * The stored mail: every message's bytes, deflated, in a database file of
 * their own beside the index (PATH-mail for the database PATH), keyed by
 * the message's row id, with what a rebuild cannot read from the mail
 * itself: when it was stored and the lists it was recorded under.  So
 * `mlq reindex` needs nothing of the old index but its sources and
 * digests, and a damaged index can be rebuilt.
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
 *
 * A maintainer's marks (mlq mark) cannot be read from the mail either:
 * table mark here keeps the same rows as the index's (schema 017), made
 * on the first mark, written first as the mail is.  A crash between the
 * two commits leaves a mark the index lacks until `mlq mark` is run
 * again or a rebuild takes it from here.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

/* Appends mostly: a small cache is enough for the writer. */
#define MAIL_CACHE_KIB 2048

/* PRAGMA user_version of a mail file with added and mail_list filled. */
#define MAIL_VERSION 1

static enum mlq_status
mail_fail(struct mlq_store *st, struct mlq_err *err, const char *what)
{
	char both[256];

	snprintf(both, sizeof(both), "%s: mail database", what);
	if (st->mail == NULL)
		return mlq_err_set(err, MLQ_EDB, "%s not open", both);
	return mlq__db_fail(st->mail, NULL, err, both);
}

static enum mlq_status
mail_exec(struct mlq_store *st, const char *sql, struct mlq_err *err)
{
	if (sqlite3_exec(st->mail, sql, NULL, NULL, NULL) != SQLITE_OK)
		return mail_fail(st, err, sql);
	return MLQ_OK;
}

/* PATH-mail for the index database at PATH; false when it has none. */
static bool
mail_name(const char *index_path, struct mlq_buf *out)
{
	if (index_path == NULL || *index_path == '\0')
		return false;
	mlq_buf_reset(out);
	mlq_buf_addf(out, "%s-mail", index_path);
	return !out->oom;
}

static bool
mail_path(struct mlq_store *st, struct mlq_buf *out)
{
	return mail_name(sqlite3_db_filename(st->db, "main"), out);
}

/* A mail file's PRAGMA user_version; -1 when it cannot be read. */
static int
mail_version(sqlite3 *mail)
{
	sqlite3_stmt *s;
	int v = -1;

	if (sqlite3_prepare_v2(mail, "PRAGMA user_version", -1, &s,
		NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* The index as idx on the mail file's connection, for reading. */
static enum mlq_status
mail_attach_index(struct mlq_store *st, struct mlq_err *err)
{
	sqlite3_stmt *s;
	bool ok;

	if (sqlite3_prepare_v2(st->mail, "ATTACH DATABASE ? AS idx", -1, &s,
		NULL) != SQLITE_OK)
		return mail_fail(st, err, "attach the index");
	sqlite3_bind_text(s, 1, sqlite3_db_filename(st->db, "main"), -1,
	    SQLITE_STATIC);
	ok = sqlite3_step(s) == SQLITE_DONE;
	sqlite3_finalize(s);
	return ok ? MLQ_OK : mail_fail(st, err, "attach the index");
}

/*
 * Copies from the index what the mail file lacks: when each message was
 * stored and its lists.  Idempotent, so a crash part way through only
 * means doing it again.  ATTACH cannot happen inside a transaction.
 */
static enum mlq_status
mail_fill(struct mlq_store *st, bool done, struct mlq_err *err)
{
	static const char *const sql[] = {
		"UPDATE mail SET added = (SELECT m.added FROM idx.msg m "
		"WHERE m.id = mail.id) WHERE added IS NULL",
		"INSERT OR IGNORE INTO mail_list(id, list) SELECT ml.msg, l.name "
		"FROM idx.msg_list ml JOIN idx.list l ON l.id = ml.list "
		"JOIN mail ON mail.id = ml.msg ORDER BY ml.msg, ml.list",
	};
	enum mlq_status rc;
	size_t i;
	char pragma[64];

	if ((rc = mail_attach_index(st, err)) != MLQ_OK)
		return rc;
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
	    MAIL_VERSION);
	/* Deferred: IMMEDIATE would take the index's write lock too. */
	if ((rc = mail_exec(st, "BEGIN", err)) == MLQ_OK) {
		for (i = 0; rc == MLQ_OK && i < MLQ__ARRAY_SIZE(sql); i++)
			rc = mail_exec(st, sql[i], err);
		if (rc == MLQ_OK && done)
			rc = mail_exec(st, pragma, err);
		if (rc == MLQ_OK)
			rc = mail_exec(st, "COMMIT", err);
		if (rc != MLQ_OK)
			sqlite3_exec(st->mail, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_exec(st->mail, "DETACH DATABASE idx", NULL, NULL, NULL);
	return rc;
}

/* Brings a mail file made before MAIL_VERSION up to it. */
static enum mlq_status
mail_upgrade(struct mlq_store *st, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	int v;

	if ((v = mail_version(st->mail)) < 0)
		return mail_fail(st, err, "read the mail file's version");
	if (v > MAIL_VERSION)
		return mlq_err_set(err, MLQ_EDB,
		    "mail file version %d is newer than this mlq (%d)", v,
		    MAIL_VERSION);
	if (v == MAIL_VERSION)
		return MLQ_OK;
	if ((rc = mail_exec(st, "BEGIN IMMEDIATE", err)) != MLQ_OK)
		return rc;
	/* A file from before added: the column is missing. */
	if (sqlite3_prepare_v2(st->mail, "SELECT added FROM mail", -1, &s,
		NULL) == SQLITE_OK)
		sqlite3_finalize(s);
	else
		rc = mail_exec(st, "ALTER TABLE mail ADD COLUMN added INTEGER",
		    err);
	if (rc == MLQ_OK)
		rc = mail_exec(st,
		    /* Rowid order is the order a message's lists came in. */
		    "CREATE TABLE IF NOT EXISTS mail_list (id INTEGER NOT NULL, "
		    "list TEXT NOT NULL, UNIQUE (id, list))",
		    err);
	if (rc == MLQ_OK)
		rc = mail_exec(st, "COMMIT", err);
	if (rc != MLQ_OK) {
		sqlite3_exec(st->mail, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return mail_fill(st, true, err);
}

static enum mlq_status
mail_open(struct mlq_store *st, struct mlq_err *err)
{
	struct mlq_buf path;
	enum mlq_status rc = MLQ_OK;

	if (st->mail != NULL)
		return MLQ_OK;
	mlq_buf_init(&path);
	if (!mail_path(st, &path)) {
		mlq_buf_release(&path);
		return mlq_err_set(err, MLQ_EDB,
		    "the database has no file to keep mail beside");
	}
	if ((st->writable ? sqlite3_open_v2(path.data, &st->mail,
		SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
		SQLITE_OPEN_NOMUTEX, NULL)
			  : mlq__db_open_read(path.data, &st->mail)) != SQLITE_OK) {
		rc = mlq__db_fail(st->mail, path.data, err, "open");
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
		(mlq__db_exec_waiting(st->mail, "PRAGMA journal_mode = WAL") !=
			SQLITE_OK &&
		    (rc = mail_fail(st, err, "set WAL mode")) != MLQ_OK) ||
		(rc = mail_exec(st, "PRAGMA synchronous = FULL", err)) !=
		    MLQ_OK ||
		/* id is msg.id; data the deflated mail, len inflated;
		 * added as msg.added. */
		(rc = mail_exec(st,
		     "CREATE TABLE IF NOT EXISTS mail (id INTEGER PRIMARY KEY, "
		     "data BLOB NOT NULL, len INTEGER NOT NULL, added INTEGER)",
		     err)) != MLQ_OK ||
		(rc = mail_upgrade(st, err)) != MLQ_OK))
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
	sqlite3_finalize(st->mail_lists_del);
	sqlite3_finalize(st->mail_list_add);
	st->mail_put = st->mail_get = NULL;
	st->mail_lists_del = st->mail_list_add = NULL;
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

/* The mail file open for writing, in the batch's transaction if any. */
static enum mlq_status
mail_write(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc;

	if ((rc = mail_open(st, err)) != MLQ_OK ||
	    (st->in_tx && (rc = mail_begin(st, err)) != MLQ_OK))
		return rc;
	return MLQ_OK;
}

static enum mlq_status
mail_step(struct mlq_store *st, sqlite3_stmt *s, const char *what,
    struct mlq_err *err)
{
	int step = sqlite3_step(s);

	sqlite3_reset(s);
	if (step != SQLITE_DONE)
		return mail_fail(st, err, what);
	return MLQ_OK;
}

enum mlq_status
mlq__mail_put(struct mlq_store *st, int64_t id, const void *z, size_t zlen,
    size_t len, int64_t added, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	if ((rc = mail_write(st, err)) != MLQ_OK)
		return rc;
	/* OR REPLACE, and its lists go: a row under this id is left from a
	 * batch whose index never committed (see the top). */
	s = mail_stmt(st, &st->mail_put,
	    "INSERT OR REPLACE INTO mail(id, data, len, added) "
	    "VALUES (?, ?, ?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_blob(s, 2, z, (int)zlen, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, (int64_t)len);
	if (added > 0)
		sqlite3_bind_int64(s, 4, added);
	else
		sqlite3_bind_null(s, 4);
	if ((rc = mail_step(st, s, "store mail", err)) != MLQ_OK)
		return rc;
	s = mail_stmt(st, &st->mail_lists_del,
	    "DELETE FROM mail_list WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	return mail_step(st, s, "store mail", err);
}

enum mlq_status
mlq__mail_add_list(struct mlq_store *st, int64_t id, const char *list,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	if ((rc = mail_write(st, err)) != MLQ_OK)
		return rc;
	s = mail_stmt(st, &st->mail_list_add,
	    "INSERT OR IGNORE INTO mail_list(id, list) VALUES (?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, list, -1, SQLITE_STATIC);
	return mail_step(st, s, "record the list", err);
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

/* ---- a maintainer's marks ---- */

/* The same columns as the index's table mark (schema/017-mark.sql). */
#define MARK_TABLE                                                             \
	"CREATE TABLE IF NOT EXISTS mark (msgid TEXT NOT NULL, "               \
	"what INTEGER NOT NULL, value INTEGER NOT NULL, who TEXT NOT NULL, "   \
	"at INTEGER NOT NULL, PRIMARY KEY (msgid, what)) WITHOUT ROWID"

/* The mail file open for writing marks, in the batch's transaction. */
static enum mlq_status
mark_write(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc;

	if ((rc = mail_write(st, err)) != MLQ_OK)
		return rc;
	return mail_exec(st, MARK_TABLE, err);
}

/* Runs sql (mark_write first) with its parameters bound by the caller. */
static enum mlq_status
mark_run(struct mlq_store *st, const char *sql, const char *msgid,
    const struct mlq_mark *m, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	if ((rc = mark_write(st, err)) != MLQ_OK)
		return rc;
	/* Once per mlq mark: not worth a statement kept open. */
	if (sqlite3_prepare_v2(st->mail, sql, -1, &s, NULL) != SQLITE_OK)
		return mail_fail(st, err, "record the mark");
	sqlite3_bind_text(s, 1, msgid, -1, SQLITE_STATIC);
	if (m != NULL) {
		sqlite3_bind_int(s, 2, (int)m->tag);
		sqlite3_bind_int(s, 3,
		    m->tag == 0 ? (int)m->status : !m->removed);
		sqlite3_bind_text(s, 4, m->who, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 5, m->at);
	}
	rc = sqlite3_step(s) == SQLITE_DONE
	    ? MLQ_OK
	    : mail_fail(st, err, "record the mark");
	sqlite3_finalize(s);
	return rc;
}

enum mlq_status
mlq__mail_mark_put(struct mlq_store *st, const char *msgid,
    const struct mlq_mark *m, struct mlq_err *err)
{
	return mark_run(st,
	    "INSERT OR REPLACE INTO mark(msgid, what, value, who, at) "
	    "VALUES (?, ?, ?, ?, ?)",
	    msgid, m, err);
}

enum mlq_status
mlq__mail_mark_clear(struct mlq_store *st, const char *msgid,
    struct mlq_err *err)
{
	return mark_run(st, "DELETE FROM mark WHERE msgid = ?", msgid, NULL,
	    err);
}

enum mlq_status
mlq__mail_marks_copy(struct mlq_store *st, const char *path,
    struct mlq_err *err)
{
	static const char copy[] =
	    "INSERT OR REPLACE INTO main.mark(msgid, what, value, who, at) "
	    "SELECT msgid, what, value, who, at FROM marks.mark";
	struct mlq_buf name;
	sqlite3_stmt *s = NULL;
	enum mlq_status rc = MLQ_OK;
	bool attached = false;
	int step;

	mlq_buf_init(&name);
	if (!mail_name(path, &name)) {
		mlq_buf_release(&name);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	/* No mail file, no marks: ATTACH would make an empty one. */
	if (access(name.data, F_OK) != 0)
		goto out;
	if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ? AS marks", -1, &s,
		NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_text(s, 1, name.data, -1, SQLITE_STATIC);
	attached = sqlite3_step(s) == SQLITE_DONE;
	sqlite3_finalize(s);
	if (!attached ||
	    sqlite3_prepare_v2(st->db,
		"SELECT 1 FROM marks.sqlite_schema WHERE type = 'table' AND "
		"name = 'mark'",
		-1, &s, NULL) != SQLITE_OK)
		goto fail;
	step = sqlite3_step(s);
	sqlite3_finalize(s);
	if (step == SQLITE_ROW &&
	    sqlite3_exec(st->db, copy, NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	if (step == SQLITE_ROW || step == SQLITE_DONE)
		goto out;
fail:
	rc = mlq_err_set(err, MLQ_EDB, "copy the marks from '%s': %s",
	    name.data, sqlite3_errmsg(st->db));
out:
	if (attached)
		sqlite3_exec(st->db, "DETACH DATABASE marks", NULL, NULL, NULL);
	mlq_buf_release(&name);
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
			 (size_t)sqlite3_column_int64(s, 2), 0, err)) != MLQ_OK)
			break;
	}
	if (step == SQLITE_DONE)
		rc = mlq__mail_commit(st, err);
	else if (step != SQLITE_ROW)
		rc = mlq__store_fail(st, err, "read raw mail");
	sqlite3_finalize(s);
	if (rc != MLQ_OK)
		mlq__mail_rollback(st);
	/* When each was stored and its lists, from the index as it is. */
	if (rc == MLQ_OK && *moved)
		rc = mail_fill(st, false, err);
	return rc;
}

/* ---- reindex support ---- */

/* Every row of mail (joined to the attached index's msg when indexed). */
static enum mlq_status
each_mail(sqlite3 *mail, bool indexed, mlq__raw_fn fn, void *arg,
    struct mlq_err *err)
{
	static const char *const none[] = { NULL };
	const char *const *lists;
	char *list[16];
	sqlite3_stmt *s = NULL, *l = NULL;
	enum mlq_status rc = MLQ_OK;
	size_t n;
	int step = SQLITE_DONE;
	bool stop = false;

	if (sqlite3_prepare_v2(mail, indexed ?
		"SELECT mail.id, mail.data, mail.len, mail.added FROM mail "
		"JOIN idx.msg m ON m.id = mail.id ORDER BY mail.id" :
		"SELECT id, data, len, added FROM mail ORDER BY id",
		-1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(mail,
		"SELECT list FROM mail_list WHERE id = ? ORDER BY rowid", -1, &l,
		NULL) != SQLITE_OK)
		goto fail;
	while (!stop && (step = sqlite3_step(s)) == SQLITE_ROW) {
		sqlite3_bind_int64(l, 1, sqlite3_column_int64(s, 0));
		/* Row text dies at the next step: the names are copied. */
		n = 0;
		while (rc == MLQ_OK && n + 1 < MLQ__ARRAY_SIZE(list) &&
		    sqlite3_step(l) == SQLITE_ROW)
			if ((list[n] = strdup(
				 (const char *)sqlite3_column_text(l, 0))) != NULL)
				n++;
			else
				rc = mlq_err_set(err, MLQ_ENOMEM,
				    "out of memory");
		list[n] = NULL;
		sqlite3_reset(l);
		lists = n ? (const char *const *)list : none;
		/* The stored bytes: the parse workers inflate them. */
		if (rc == MLQ_OK)
			stop = fn(sqlite3_column_int64(s, 0),
			    sqlite3_column_blob(s, 1),
			    (size_t)sqlite3_column_bytes(s, 1),
			    (size_t)sqlite3_column_int64(s, 2),
			    sqlite3_column_int64(s, 3), lists, arg) != 0;
		while (n > 0)
			free(list[--n]);
		if (rc != MLQ_OK)
			break;
	}
	if (rc != MLQ_OK || stop || step == SQLITE_DONE)
		goto out;
fail:
	rc = mlq_err_set(err, MLQ_EDB, "read mail: mail database: %s",
	    sqlite3_errmsg(mail));
out:
	sqlite3_finalize(l);
	sqlite3_finalize(s);
	return rc;
}

/* The first message of the attached index with no mail, or 0. */
static int64_t
first_without_mail(sqlite3 *mail)
{
	sqlite3_stmt *s;
	int64_t id = -1;

	if (sqlite3_prepare_v2(mail,
		"SELECT coalesce(min(m.id), 0) FROM idx.msg m WHERE NOT EXISTS "
		"(SELECT 1 FROM mail WHERE mail.id = m.id)",
		-1, &s, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return id;
}

enum mlq_status
mlq__store_each_raw(struct mlq_store *st, mlq__raw_fn fn, void *arg,
    struct mlq_err *err)
{
	enum mlq_status rc;
	int64_t missing;

	if ((rc = mail_open(st, err)) != MLQ_OK ||
	    (rc = mail_attach_index(st, err)) != MLQ_OK)
		return rc;
	/* A message the index names but whose mail is gone is not dropped
	 * without a word. */
	if ((missing = first_without_mail(st->mail)) != 0)
		rc = missing < 0 ? mail_fail(st, err, "read mail") :
		    mlq_err_set(err, MLQ_EDB,
			"message %lld: its mail is not stored",
			(long long)missing);
	else
		rc = each_mail(st->mail, true, fn, arg, err);
	sqlite3_exec(st->mail, "DETACH DATABASE idx", NULL, NULL, NULL);
	return rc;
}

enum mlq_status
mlq__mail_each_file(const char *path, mlq__raw_fn fn, void *arg,
    struct mlq_err *err)
{
	struct mlq_buf name;
	sqlite3 *mail = NULL;
	enum mlq_status rc;
	int v;

	mlq_buf_init(&name);
	if (!mail_name(path, &name)) {
		mlq_buf_release(&name);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	/* Read-write only so that closing it checkpoints its WAL away. */
	if (sqlite3_open_v2(name.data, &mail,
		SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		rc = mlq_err_set(err, MLQ_EDB, "mail database '%s': %s",
		    name.data, mail ? sqlite3_errmsg(mail) : "cannot open");
		goto out;
	}
	/* Older files keep lists and times in the index only. */
	if ((v = mail_version(mail)) != MAIL_VERSION)
		rc = mlq_err_set(err, MLQ_EDB,
		    "mail database '%s': version %d, not %d: the index cannot "
		    "be rebuilt from it alone", name.data, v, MAIL_VERSION);
	else
		rc = each_mail(mail, false, fn, arg, err);
out:
	sqlite3_close(mail);
	mlq_buf_release(&name);
	return rc;
}

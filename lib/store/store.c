/*
 * SQLite storage: open and migrate, store a parsed message once by
 * Message-Id with its addresses, files, trailers, thread and text index,
 * and keep source cursors.  Only the ingest writer thread writes.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store-int.h"

/*
 * Reads map this much of the file instead of copying each page through
 * read(): a search touching thousands of rows spread over the file gets
 * twice as fast.  The writer does not map, so import RSS stays flat.
 */
#ifndef MLQ_STORE_MMAP_BYTES
/* Debian's SQLite caps a map at its default SQLITE_MAX_MMAP_SIZE. */
#define MLQ_STORE_MMAP_BYTES 0x7fff0000
#endif

/*
 * SQLite's page cache per handle.  The writer's index lookups (Message-Id,
 * addresses, threads) land all over a large database.
 */
#ifndef MLQ_STORE_CACHE_KIB
#define MLQ_STORE_CACHE_KIB 16000
#endif

/*
 * Bytes the writer's WAL grows to before a commit copies its pages into
 * the database (SQLite's default is 1000 pages).  At five times linux-nfs
 * a batch dirties some 2,000 index leaves scattered over the Message-Id,
 * title and path indexes, the same leaves batch after batch; copying them
 * back after every commit wrote each one again each time.  Counted in
 * bytes, not pages, so that a database made with another page size keeps
 * the same limit.
 */
#ifndef MLQ_STORE_WAL_BYTES
#define MLQ_STORE_WAL_BYTES (128u << 20)
#endif

/*
 * The page size of a new database.  A new message's keys land in index
 * leaves scattered over a large database (Message-Id, title by author,
 * file paths, series); each is read, then written to the WAL and back
 * whole, so the smaller the page the fewer bytes a key costs.  1,000 new
 * messages (copy 10 of linux-nfs) into the 10x bench database against an
 * empty one, twelve alternating runs of each (2026-12-06): 4 KiB pages
 * 0.370 s against 0.279, 8 KiB 0.390 against 0.276, 16 KiB 0.410
 * against 0.274.  An existing database keeps its own until `mlq reindex`
 * rebuilds it.
 */
/* How long a writer waits for another one before it gives up. */
#define MLQ_STORE_BUSY_MS 10000

#ifndef MLQ_STORE_PAGE_SIZE
#define MLQ_STORE_PAGE_SIZE 4096
#endif

/*
 * A failure the user can act on says so in words and names the file; the
 * SQL being run would only hide that.  Others keep SQLite's message after
 * what was being done.
 */
enum mlq_status
mlq__db_fail(sqlite3 *db, const char *file, struct mlq_err *err,
    const char *what)
{
	int code = db != NULL ? sqlite3_extended_errcode(db) : SQLITE_NOMEM;
	int sys = db != NULL ? sqlite3_system_errno(db) : 0;

	if (file == NULL && db != NULL)
		file = sqlite3_db_filename(db, "main");
	if (file == NULL || *file == '\0')
		file = "(memory)";
	if (code == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
		return mlq_err_set(err, MLQ_EIO,
		    "'%s': the disk is full (what was being written is rolled "
		    "back)", file);
	switch (code & 0xff) {
	case SQLITE_NOTADB:
		return mlq_err_set(err, MLQ_EDB, "'%s' is not an mlq database",
		    file);
	case SQLITE_READONLY:
		return mlq_err_set(err, MLQ_EIO,
		    "'%s' cannot be written: check the permissions of the file "
		    "and its directory", file);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return mlq_err_set(err, MLQ_EDB,
		    "'%s' is busy: another mlq or mlqd has been writing it for "
		    "%d s; try again when it is done", file,
		    MLQ_STORE_BUSY_MS / 1000);
	case SQLITE_CORRUPT:
		return mlq_err_set(err, MLQ_EDB,
		    "'%s' is damaged (%s); 'mlq reindex' rebuilds the index "
		    "from the mail", file, sqlite3_errmsg(db));
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
		return mlq_err_set(err, MLQ_EIO, "cannot open '%s': %s", file,
		    sys != 0 ? strerror(sys) : sqlite3_errmsg(db));
	case SQLITE_IOERR:
		return mlq_err_set(err, MLQ_EIO, "'%s': %s", file,
		    sys != 0 ? strerror(sys) : sqlite3_errmsg(db));
	case SQLITE_NOMEM:
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	return mlq_err_set(err, MLQ_EDB, "%s: %s", what,
	    db != NULL ? sqlite3_errmsg(db) : "no database");
}

/*
 * A reader who may not write beside the database (a copy shared read-only)
 * cannot create the -shm file that WAL mode reads through.  Without a -wal
 * file there is no writer's work to see, so the file is then read as
 * immutable: no locks, no -shm.
 */
int
mlq__db_open_read(const char *path, sqlite3 **db)
{
	struct mlq_buf uri;
	const char *p;
	int rc, code;

	rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK || sqlite3_exec(*db,
	    "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL, NULL) ==
	    SQLITE_OK)
		return rc;
	code = sqlite3_extended_errcode(*db) & 0xff;
	mlq_buf_init(&uri);
	mlq_buf_addf(&uri, "%s-wal", path);
	if ((code != SQLITE_READONLY && code != SQLITE_CANTOPEN) || uri.oom ||
	    access(uri.data, F_OK) == 0 || errno != ENOENT) {
		mlq_buf_release(&uri);
		return SQLITE_OK; /* the caller's first statement says why */
	}
	mlq_buf_reset(&uri);
	mlq_buf_addstr(&uri, "file:");
	for (p = path; *p != '\0'; p++)
		if (strchr("?#%", *p) != NULL)
			mlq_buf_addf(&uri, "%%%02X", (unsigned char)*p);
		else
			mlq_buf_addch(&uri, *p);
	mlq_buf_addstr(&uri, "?immutable=1");
	if (uri.oom) {
		mlq_buf_release(&uri);
		return SQLITE_NOMEM;
	}
	sqlite3_close(*db);
	rc = sqlite3_open_v2(uri.data, db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL);
	mlq_buf_release(&uri);
	return rc;
}

enum mlq_status
mlq__store_fail(struct mlq_store *st, struct mlq_err *err, const char *what)
{
	return mlq__db_fail(st->db, NULL, err, what);
}

sqlite3_stmt *
mlq__store_stmt(struct mlq_store *st, enum store_stmt slot, const char *sql,
    struct mlq_err *err)
{
	sqlite3_stmt *s = st->stmt[slot];

	if (s != NULL) {
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		return s;
	}
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
		&st->stmt[slot], NULL) != SQLITE_OK) {
		mlq__store_fail(st, err, "prepare");
		return NULL;
	}
	return st->stmt[slot];
}

/*
 * Switching a new file to WAL needs it to itself, and SQLite does not wait
 * for that: two mlq opening one new database would have one fail at once.
 */
int
mlq__db_exec_waiting(sqlite3 *db, const char *sql)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	int rc, waited;

	for (waited = 0;; waited += 10) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY || waited >= MLQ_STORE_BUSY_MS)
			return rc;
		nanosleep(&pause, NULL);
	}
}

enum mlq_status
mlq__store_exec(struct mlq_store *st, const char *sql, struct mlq_err *err)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, sql);
	return MLQ_OK;
}

enum mlq_status
mlq__store_step_int(struct mlq_store *st, sqlite3_stmt *s, int64_t *out,
    struct mlq_err *err, const char *what)
{
	int rc = sqlite3_step(s);

	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return MLQ_OK;
	if (rc == SQLITE_DONE)
		return MLQ_NOTFOUND;
	return mlq__store_fail(st, err, what);
}

/* The integer a PRAGMA reads back. */
static enum mlq_status
pragma_int(struct mlq_store *st, const char *sql, int64_t *out,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, sql);
	rc = mlq__store_step_int(st, s, out, err, sql);
	sqlite3_finalize(s);
	if (rc == MLQ_NOTFOUND)
		rc = mlq_err_set(err, MLQ_EDB, "%s: no answer", sql);
	return rc;
}

/* Sets the WAL's limit in pages of this database's own size (SQLite
 * keeps a page size between 512 and 65536 bytes). */
static enum mlq_status
set_wal_limit(struct mlq_store *st, struct mlq_err *err)
{
	int64_t page;
	enum mlq_status rc;
	char sql[64];

	if ((rc = pragma_int(st, "PRAGMA page_size", &page, err)) != MLQ_OK)
		return rc;
	snprintf(sql, sizeof(sql), "PRAGMA wal_autocheckpoint = %lld",
	    (long long)(MLQ_STORE_WAL_BYTES / page));
	return mlq__store_exec(st, sql, err);
}

/* SQLite's errno for a file it could not create is not the directory's. */
static enum mlq_status
create_fail(const char *path, struct mlq_err *err)
{
	struct mlq_buf dir;
	const char *slash = strrchr(path, '/');
	enum mlq_status rc = MLQ_OK;

	if (access(path, F_OK) == 0 || errno != ENOENT)
		return MLQ_OK;
	mlq_buf_init(&dir);
	if (slash == NULL)
		mlq_buf_addstr(&dir, ".");
	else
		mlq_buf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	if (!dir.oom && access(dir.data, W_OK | X_OK) != 0)
		rc = mlq_err_set(err, MLQ_EIO, "cannot create '%s': %s", path,
		    strerror(errno));
	mlq_buf_release(&dir);
	return rc;
}

enum mlq_status
mlq_store_open(const char *path, enum mlq_store_mode mode,
    struct mlq_store **out, struct mlq_err *err)
{
	struct mlq_store *st;
	enum mlq_status rc;
	size_t i;
	char mmap_pragma[64], cache_pragma[64], page_pragma[64];

	*out = NULL;
	if ((rc = mlq__sync_check(path, err)) != MLQ_OK)
		return rc;
	snprintf(mmap_pragma, sizeof(mmap_pragma), "PRAGMA mmap_size = %lld",
	    (long long)MLQ_STORE_MMAP_BYTES);
	snprintf(cache_pragma, sizeof(cache_pragma), "PRAGMA cache_size = -%u",
	    (unsigned)MLQ_STORE_CACHE_KIB);
	snprintf(page_pragma, sizeof(page_pragma), "PRAGMA page_size = %u",
	    (unsigned)MLQ_STORE_PAGE_SIZE);
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	for (i = 0; i < MLQ__ARRAY_SIZE(st->scratch); i++)
		mlq_buf_init(&st->scratch[i]);
	mlq_buf_init(&st->text_bytes);
	st->writable = mode != MLQ_STORE_READ;
	if ((st->writable ? sqlite3_open_v2(path, &st->db,
		SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
		SQLITE_OPEN_NOMUTEX, NULL)
			  : mlq__db_open_read(path, &st->db)) != SQLITE_OK) {
		rc = create_fail(path, err);
		if (rc == MLQ_OK)
			rc = mlq__db_fail(st->db, path, err, "open");
		if (!st->writable && rc == MLQ_EIO)
			rc = MLQ_NOTFOUND;
		mlq_store_close(st);
		return rc;
	}
	sqlite3_busy_timeout(st->db, MLQ_STORE_BUSY_MS);
	sqlite3_extended_result_codes(st->db, 1);
	if ((st->writable &&
		((rc = mlq__store_exec(st, page_pragma, err)) != MLQ_OK ||
		    (mlq__db_exec_waiting(st->db, "PRAGMA journal_mode = WAL") !=
			    SQLITE_OK &&
			(rc = mlq__store_fail(st, err, "set WAL mode")) !=
			    MLQ_OK) ||
		    (rc = mlq__store_exec(st, "PRAGMA synchronous = NORMAL",
			 err)) != MLQ_OK ||
		    (rc = set_wal_limit(st, err)) != MLQ_OK)) ||
	    (rc = mlq__store_exec(st, "PRAGMA foreign_keys = ON", err)) !=
		MLQ_OK ||
	    (rc = mlq__store_exec(st, cache_pragma, err)) != MLQ_OK ||
	    (rc = mlq__schema_migrate(st, err)) != MLQ_OK ||
	    (rc = mlq__store_exec(st, "PRAGMA temp_store = MEMORY", err)) !=
		MLQ_OK ||
	    (!st->writable &&
		(rc = mlq__store_exec(st, mmap_pragma, err)) != MLQ_OK) ||
	    (mode == MLQ_STORE_BULK &&
		(rc = mlq__sync_begin(st, path, err)) != MLQ_OK)) {
		mlq_store_close(st);
		return rc;
	}
	*out = st;
	return MLQ_OK;
}

enum mlq_status
mlq__store_plans(struct mlq_store *st, mlq__plan_fn fn, void *arg,
    struct mlq_err *err)
{
	struct mlq_buf sql, plan;
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	size_t i;

	mlq_buf_init(&sql);
	mlq_buf_init(&plan);
	for (i = 0; rc == MLQ_OK && i < S_COUNT; i++) {
		if (st->stmt[i] == NULL)
			continue;
		mlq_buf_reset(&sql);
		mlq_buf_reset(&plan);
		mlq_buf_addf(&sql, "EXPLAIN QUERY PLAN %s",
		    sqlite3_sql(st->stmt[i]));
		if (sql.oom) {
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
			break;
		}
		if (sqlite3_prepare_v2(st->db, sql.data, -1, &s, NULL) !=
		    SQLITE_OK) {
			rc = mlq__store_fail(st, err, "explain");
			break;
		}
		while (sqlite3_step(s) == SQLITE_ROW)
			mlq_buf_addf(&plan, "%s%s", plan.len ? "; " : "",
			    mlq__store_col_text(s, 3));
		sqlite3_finalize(s);
		if (plan.oom)
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		else
			fn(sqlite3_sql(st->stmt[i]),
			    plan.data ? plan.data : "", arg);
	}
	mlq_buf_release(&sql);
	mlq_buf_release(&plan);
	return rc;
}

int64_t
mlq__store_wal_pages(struct mlq_store *st)
{
	struct mlq_err err;
	int64_t n;

	if (pragma_int(st, "PRAGMA wal_autocheckpoint", &n, &err) != MLQ_OK)
		return -1;
	return n;
}

void
mlq_store_close(struct mlq_store *st)
{
	struct mlq_err err;
	size_t i;

	if (st == NULL)
		return;
	mlq_err_clear(&err);
	if (st->in_tx)
		mlq_store_rollback(st);
	/* What committed is kept; failing, the marker stays. */
	(void)mlq__sync_end(st, &err);
	for (i = 0; i < S_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	for (i = 0; i < MLQ__ARRAY_SIZE(st->scratch); i++)
		mlq_buf_release(&st->scratch[i]);
	mlq__review_release(st);
	mlq__text_release(st);
	mlq__mail_close(st);
	mlq_buf_release(&st->marker);
	sqlite3_close(st->db);
	free(st);
}

enum mlq_status
mlq_store_sync(struct mlq_store *st, struct mlq_err *err)
{
	return mlq__sync_end(st, err);
}

enum mlq_status
mlq_store_begin(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc;

	if ((rc = mlq__store_exec(st, "BEGIN IMMEDIATE", err)) == MLQ_OK)
		st->in_tx = true;
	return rc;
}

enum mlq_status
mlq_store_commit(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc;

	/* Statuses and tags of the threads the batch touched, once. */
	if ((rc = mlq__review_flush(st, err)) != MLQ_OK ||
	    (rc = mlq__text_flush(st, err)) != MLQ_OK ||
	    (rc = mlq__mail_commit(st, err)) != MLQ_OK) {
		mlq_store_rollback(st);
		return rc;
	}
	rc = mlq__store_exec(st, "COMMIT", err);
	if (rc != MLQ_OK)
		mlq_store_rollback(st);
	st->in_tx = false;
	return rc;
}

void
mlq_store_rollback(struct mlq_store *st)
{
	mlq__mail_rollback(st);
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->in_tx = false;
	mlq__review_reset(st);
	mlq__text_reset(st);
}

static enum mlq_status
find_msg(struct mlq_store *st, const char *msgid, int64_t *id,
    struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_FIND_ID, "SELECT id FROM msg WHERE msgid = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, msgid);
	return mlq__store_step_int(st, s, id, err, "find message");
}

/* A list's row id, created on first use. */
static enum mlq_status
list_id(struct mlq_store *st, const char *name, int64_t *id,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	s = mlq__store_stmt(st, S_LIST_FIND, "SELECT id FROM list WHERE name = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, name);
	if ((rc = mlq__store_step_int(st, s, id, err, "find list")) !=
	    MLQ_NOTFOUND)
		return rc;
	s = mlq__store_stmt(st, S_LIST_ADD, "INSERT INTO list(name) VALUES (?)",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, name);
	if ((rc = mlq__store_step_done(st, s, err, "add list")) != MLQ_OK)
		return rc;
	*id = sqlite3_last_insert_rowid(st->db);
	return MLQ_OK;
}

/* Records msg under list, in the mail file too unless m is a rebuilt
 * message (whose mail file has it already). */
static enum mlq_status
add_to_list(struct mlq_store *st, int64_t msg, const struct mlq_msg *m,
    const char *list, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int64_t lid = 0;
	enum mlq_status rc;

	if (list == NULL || *list == '\0')
		return MLQ_OK;
	if ((rc = list_id(st, list, &lid, err)) != MLQ_OK)
		return rc;
	s = mlq__store_stmt(st, S_MSG_LIST_ADD,
	    "INSERT OR IGNORE INTO msg_list(msg, list) VALUES (?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, msg);
	sqlite3_bind_int64(s, 2, lid);
	if ((rc = mlq__store_step_done(st, s, err, "add message to list")) !=
	    MLQ_OK)
		return rc;
	if (m->stored_id > 0)
		return MLQ_OK;
	return mlq__mail_add_list(st, msg, list, err);
}

/* "linux-nfs.vger.kernel.org" names the list "linux-nfs". */
static const char *
list_from_id(struct mlq_buf *b, const char *list_id)
{
	const char *dot;

	if (list_id == NULL)
		return NULL;
	dot = strchr(list_id, '.');
	mlq_buf_reset(b);
	mlq_buf_add(b, list_id, dot ? (size_t)(dot - list_id) : strlen(list_id));
	return b->oom ? NULL : b->data;
}

/* ---- threads ---- */

/* The thread a Message-Id belongs to, stored or ghost; 0 when unknown. */
static enum mlq_status
thread_of(struct mlq_store *st, const char *msgid, int64_t *thread,
    bool *is_ghost, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	*thread = 0;
	*is_ghost = false;
	s = mlq__store_stmt(st, S_MSG_THREAD,
	    "SELECT thread FROM msg WHERE msgid = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, msgid);
	rc = mlq__store_step_int(st, s, thread, err, "find thread");
	/* Thread 0 is the row being stored: what counts is its ghost. */
	if (rc != MLQ_NOTFOUND && !(rc == MLQ_OK && *thread == 0))
		return rc;
	s = mlq__store_stmt(st, S_GHOST_THREAD,
	    "SELECT thread FROM ghost WHERE msgid = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, msgid);
	*is_ghost = true;
	rc = mlq__store_step_int(st, s, thread, err, "find ghost");
	if (rc == MLQ_NOTFOUND) {
		*is_ghost = false;
		return MLQ_OK;
	}
	return rc;
}

static enum mlq_status
merge_thread(struct mlq_store *st, int64_t from, int64_t into,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	s = mlq__store_stmt(st, S_MERGE_MSG,
	    "UPDATE msg SET thread = ? WHERE thread = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, into);
	sqlite3_bind_int64(s, 2, from);
	if ((rc = mlq__store_step_done(st, s, err, "merge threads")) != MLQ_OK)
		return rc;
	s = mlq__store_stmt(st, S_MERGE_GHOST,
	    "UPDATE ghost SET thread = ? WHERE thread = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, into);
	sqlite3_bind_int64(s, 2, from);
	return mlq__store_step_done(st, s, err, "merge ghost threads");
}

/*
 * Joins message id (Message-Id msgid) to every thread its references, or
 * earlier messages referring to it, belong to; references not stored yet
 * become ghosts so that a late parent joins the same thread.
 */
static enum mlq_status
thread_link(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	int64_t target = 0, t;
	bool ghost;
	sqlite3_stmt *s;
	enum mlq_status rc;
	size_t i;

	/* The smallest thread id wins: merges are then order-independent. */
	if ((rc = thread_of(st, m->msgid, &t, &ghost, err)) != MLQ_OK)
		return rc;
	if (ghost)
		target = t;
	for (i = 0; i < m->nrefs; i++) {
		if ((rc = thread_of(st, m->refs[i], &t, &ghost, err)) != MLQ_OK)
			return rc;
		if (t != 0 && (target == 0 || t < target))
			target = t;
	}
	if (target == 0)
		target = id;
	/* Second pass: merge every other thread into target. */
	if ((rc = thread_of(st, m->msgid, &t, &ghost, err)) != MLQ_OK)
		return rc;
	if (ghost && t != target && (rc = merge_thread(st, t, target, err)) != MLQ_OK)
		return rc;
	for (i = 0; i < m->nrefs; i++) {
		if ((rc = thread_of(st, m->refs[i], &t, &ghost, err)) != MLQ_OK)
			return rc;
		if (t != 0 && t != target &&
		    (rc = merge_thread(st, t, target, err)) != MLQ_OK)
			return rc;
		if (t == 0 || ghost) {
			/* The reference before a ghost is its parent. */
			s = mlq__store_stmt(st, S_GHOST_PUT,
			    "INSERT INTO ghost(msgid, thread, parent) VALUES (?, ?, ?) "
			    "ON CONFLICT(msgid) DO UPDATE SET "
			    "parent = coalesce(parent, excluded.parent)",
			    err);
			if (s == NULL)
				return MLQ_EDB;
			mlq__store_bind_text(s, 1, m->refs[i]);
			sqlite3_bind_int64(s, 2, target);
			mlq__store_bind_text(s, 3,
			    i > 0 ? m->refs[i - 1] : NULL);
			if ((rc = mlq__store_step_done(st, s, err,
				 "add ghost")) != MLQ_OK)
				return rc;
		}
	}
	s = mlq__store_stmt(st, S_GHOST_DEL, "DELETE FROM ghost WHERE msgid = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, m->msgid);
	if ((rc = mlq__store_step_done(st, s, err, "drop ghost")) != MLQ_OK)
		return rc;
	s = mlq__store_stmt(st, S_SET_THREAD,
	    "UPDATE msg SET thread = ? WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, target);
	sqlite3_bind_int64(s, 2, id);
	return mlq__store_step_done(st, s, err, "set thread");
}

/* ---- the message's rows ---- */

/*
 * One address's terms in the address index: "a..." always, and the
 * role's own: "f..." for the author (as mapped and as written), "t..."
 * for To, "c..." for Cc.  role 0: "a..." alone.
 */
static void
addr_terms(struct mlq_buf *b, const struct mlq_addr *ad, char role)
{
	const char *at, *domain;
	size_t local_len;

	if (ad->email == NULL || ad->email[0] == '\0')
		return;
	at = strrchr(ad->email, '@');
	domain = at != NULL ? at + 1 : "";
	local_len = at != NULL ? (size_t)(at - ad->email) : strlen(ad->email);
	if (role != 0) {
		mlq__addr_term(b, role, domain, ad->email, local_len);
		mlq_buf_addch(b, ' ');
	}
	mlq__addr_term(b, 'a', domain, ad->email, local_len);
	mlq_buf_addch(b, ' ');
}

static enum mlq_status
add_addrs(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	struct mlq_buf *b = &st->scratch[0];
	sqlite3_stmt *s;
	size_t i;

	mlq_buf_reset(b);
	/* --from finds the author: who posted another's patch is named,
	 * not its author. */
	if (m->author.email != NULL) {
		addr_terms(b, &m->author, 'f');
		addr_terms(b, &m->from, 0);
	} else
		addr_terms(b, &m->from, 'f');
	/* And the author's address before the mailmap. */
	if (m->unmapped.email != NULL)
		addr_terms(b, &m->unmapped, 'f');
	for (i = 0; i < m->naddrs; i++)
		addr_terms(b, &m->addrs[i],
		    m->addrs[i].role == MLQ_ROLE_TO ? 't' :
		    m->addrs[i].role == MLQ_ROLE_CC ? 'c' : 0);
	if (b->oom)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	if (b->len == 0)
		return MLQ_OK;
	s = mlq__store_stmt(st, S_ADDR_ADD,
	    "INSERT INTO addr(rowid, a) VALUES (?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, b->data, (int)b->len, SQLITE_STATIC);
	return mlq__store_step_done(st, s, err, "index addresses");
}

static enum mlq_status
add_files(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	const struct mlq_patch_file *f;
	sqlite3_stmt *s;
	enum mlq_status rc;
	size_t i;

	for (i = 0; i < m->patch.nfiles; i++) {
		f = &m->patch.files[i];
		s = mlq__store_stmt(st, S_FILE_ADD,
		    "INSERT INTO file(msg, path, old_path, insertions, deletions, "
		    "flags, poster, date, norm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, id);
		mlq__store_bind_text(s, 2, f->path);
		mlq__store_bind_text(s, 3,
		    f->old_path && strcmp(f->old_path, f->path) != 0
			? f->old_path
			: NULL);
		sqlite3_bind_int(s, 4, f->insertions);
		sqlite3_bind_int(s, 5, f->deletions);
		sqlite3_bind_int(s, 6, (int)f->flags);
		mlq__store_bind_text(s, 7, m->from.email ? m->from.email : "");
		if (m->date_ok)
			sqlite3_bind_int64(s, 8, m->date);
		else
			sqlite3_bind_null(s, 8);
		mlq__store_bind_text(s, 9, m->subj.norm ? m->subj.norm : "");
		if ((rc = mlq__store_step_done(st, s, err, "add file")) !=
		    MLQ_OK)
			return rc;
	}
	return MLQ_OK;
}

static enum mlq_status
add_trailers(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	const struct mlq_trailer *t;
	sqlite3_stmt *s;
	enum mlq_status rc;
	size_t i;

	for (i = 0; i < m->ntrailers; i++) {
		t = &m->trailers[i];
		s = mlq__store_stmt(st, S_TRAILER_ADD,
		    "INSERT INTO trailer(msg, key, value, name, email) VALUES (?, ?, ?, ?, ?)",
		    err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, id);
		mlq__store_bind_text(s, 2, t->key);
		mlq__store_bind_text(s, 3, t->value);
		mlq__store_bind_text(s, 4, t->name ? t->name : "");
		mlq__store_bind_text(s, 5, t->email ? t->email : "");
		if ((rc = mlq__store_step_done(st, s, err, "add trailer")) !=
		    MLQ_OK)
			return rc;
	}
	return MLQ_OK;
}

static enum mlq_status
add_evidence(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	const struct mlq_evidence *e;
	sqlite3_stmt *s;
	enum mlq_status rc;
	size_t i;

	for (i = 0; i < m->nevidence; i++) {
		e = &m->evidence[i];
		s = mlq__store_stmt(st, S_EVIDENCE_ADD,
		    "INSERT INTO evidence(msg, tag, rule, line) VALUES (?, ?, ?, ?)",
		    err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int(s, 2, (int)e->tag);
		mlq__store_bind_text(s, 3, e->rule ? e->rule : "");
		mlq__store_bind_text(s, 4, e->line ? e->line : "");
		if ((rc = mlq__store_step_done(st, s, err, "add evidence")) !=
		    MLQ_OK)
			return rc;
	}
	return MLQ_OK;
}

static enum mlq_status
add_tags(struct mlq_store *st, int64_t id, unsigned tags, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	unsigned bit;

	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1) {
		if (!(tags & bit))
			continue;
		s = mlq__store_stmt(st, S_TAG_ADD,
		    "INSERT OR IGNORE INTO msg_tag(tag, msg) VALUES (?, ?)", err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int(s, 1, (int)bit);
		sqlite3_bind_int64(s, 2, id);
		if ((rc = mlq__store_step_done(st, s, err, "add tag")) !=
		    MLQ_OK)
			return rc;
	}
	return MLQ_OK;
}

/*
 * Which kind of submission a message is; 0 for replies and other mail.
 * An answer that kept the patch's subject without "Re:" (no diff, no
 * "i/n", sent In-Reply-To a mail) is a reply, and so is a maintainer's script's
 * 'Applied "TITLE" to the X tree' that quotes the patch whole.
 */
static int
msg_kind(const struct mlq_msg *m)
{
	if (m->subj.is_reply || m->subj.is_forward)
		return 0;
	if (m->in_reply_to != NULL &&
	    ((!m->is_patch && !m->subj.is_pull && m->subj.total == 0) ||
		strncmp(m->subject, "Applied \"", 9) == 0))
		return 0;
	if (m->subj.is_pull)
		return 3;
	if (m->subj.has_patch_tag && m->subj.index == 0 && m->subj.total > 0)
		return 2;
	if (m->subj.has_patch_tag || m->is_patch)
		return 1;
	return 0;
}

/* A patch's sketch (schema/016), 8 bytes a hash, little-endian. */
static void
bind_sketch(sqlite3_stmt *s, int col, const char *diff, size_t len)
{
	uint64_t h[MLQ__SKETCH_MAX];
	unsigned char b[sizeof(h)];
	size_t n, i, k;

	if ((n = mlq__patch_sketch(diff, len, h)) == 0)
		return;
	for (i = 0; i < n; i++)
		for (k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(h[i] >> (8 * k));
	sqlite3_bind_blob(s, col, b, (int)(n * 8), SQLITE_TRANSIENT);
}

static enum mlq_status
insert_msg(struct mlq_store *st, const struct mlq_msg *m, int64_t *id,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	int kind = msg_kind(m);
	unsigned own = m->tags;
	int64_t added;

	if (m->subj.revert_depth > 0 || (m->body && strstr(m->body,
	    "This reverts commit ") != NULL && kind != 0))
		own |= MLQ_TAG_REVERT;
	s = mlq__store_stmt(st, S_INSERT_MSG,
	    "INSERT INTO msg(msgid, synthetic, thread, parent, subject, norm, "
	    "from_name, from_email, date, date_raw, kind, is_reply, version, idx, "
	    "total, prefix, revert_of, commit_id, patch_id, insertions, deletions, "
	    "own_tags, tags, status, added, id, sketch, author_name, "
	    "author_email) VALUES (?, ?, 0, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?)",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	/* A rebuilt message keeps the id its mail is stored under; NULL
	 * lets SQLite pick one for new mail. */
	if (m->stored_id > 0)
		sqlite3_bind_int64(s, 25, m->stored_id);
	mlq__store_bind_text(s, 1, m->msgid);
	sqlite3_bind_int(s, 2, m->msgid_synthetic);
	mlq__store_bind_text(s, 3, m->nrefs ? m->refs[m->nrefs - 1] : NULL);
	mlq__store_bind_text(s, 4, m->subject);
	mlq__store_bind_text(s, 5, m->subj.norm ? m->subj.norm : "");
	mlq__store_bind_text(s, 6, m->from.name);
	mlq__store_bind_text(s, 7, m->from.email);
	if (m->date_ok)
		sqlite3_bind_int64(s, 8, m->date);
	mlq__store_bind_text(s, 9, m->date_raw);
	sqlite3_bind_int(s, 10, kind);
	sqlite3_bind_int(s, 11, m->subj.is_reply);
	sqlite3_bind_int(s, 12, m->subj.version > 0 ? m->subj.version : 1);
	sqlite3_bind_int(s, 13, m->subj.index);
	sqlite3_bind_int(s, 14, m->subj.total);
	mlq__store_bind_text(s, 15, m->subj.prefix ? m->subj.prefix : "");
	mlq__store_bind_text(s, 16,
	    m->subj.revert_depth > 0 ? m->subj.reverted : NULL);
	/* The message's own commit (git show input); what a revert names
	 * is the review engine's (table ref). */
	mlq__store_bind_text(s, 17, m->commit);
	mlq__store_bind_text(s, 18,
	    m->patch.patch_id[0] ? m->patch.patch_id : NULL);
	sqlite3_bind_int(s, 19, m->patch.insertions);
	sqlite3_bind_int(s, 20, m->patch.deletions);
	sqlite3_bind_int(s, 21, (int)own);
	sqlite3_bind_int(s, 22, (int)own);
	sqlite3_bind_int(s, 23, kind ? MLQ_STATE_PENDING : MLQ_STATE_NONE);
	added = m->added ? m->added : (int64_t)time(NULL);
	sqlite3_bind_int64(s, 24, added);
	if (kind == 1 && m->is_patch && m->patch.diff_start < m->body_len)
		bind_sketch(s, 26, m->body + m->patch.diff_start,
		    m->body_len - m->patch.diff_start);
	if (m->author.email != NULL) {
		mlq__store_bind_text(s, 27, m->author.name);
		mlq__store_bind_text(s, 28, m->author.email);
	}
	if ((rc = mlq__store_step_done(st, s, err, "store message")) != MLQ_OK)
		return rc;
	*id = sqlite3_last_insert_rowid(st->db);
	if (m->stored_id == 0 &&
	    (rc = mlq__mail_put(st, *id, m->zraw, m->zraw_len, m->raw_len,
		 added, err)) != MLQ_OK)
		return rc;
	return add_tags(st, *id, own, err);
}

enum mlq_status
mlq_store_put(struct mlq_store *st, const struct mlq_msg *m, const char *list,
    bool *is_new, struct mlq_err *err)
{
	enum mlq_status rc;
	int64_t id = 0;

	*is_new = false;
	if (list == NULL)
		list = list_from_id(&st->scratch[2], m->list_id);
	rc = find_msg(st, m->msgid, &id, err);
	if (rc == MLQ_OK)
		return add_to_list(st, id, m, list, err);
	if (rc != MLQ_NOTFOUND)
		return rc;
	if ((rc = insert_msg(st, m, &id, err)) != MLQ_OK ||
	    (rc = thread_link(st, id, m, err)) != MLQ_OK ||
	    (rc = add_to_list(st, id, m, list, err)) != MLQ_OK ||
	    (rc = add_addrs(st, id, m, err)) != MLQ_OK ||
	    (rc = add_files(st, id, m, err)) != MLQ_OK ||
	    (rc = add_trailers(st, id, m, err)) != MLQ_OK ||
	    (rc = add_evidence(st, id, m, err)) != MLQ_OK ||
	    (rc = mlq__text_add(st, id, m, err)) != MLQ_OK ||
	    (rc = mlq__review_put(st, id, m, msg_kind(m), err)) != MLQ_OK ||
	    (!st->in_tx && ((rc = mlq__review_flush(st, err)) != MLQ_OK ||
		(rc = mlq__text_flush(st, err)) != MLQ_OK)))
		return rc;
	*is_new = true;
	return MLQ_OK;
}

/* ---- cursors and sources ---- */

enum mlq_status
mlq_store_cursor_get(struct mlq_store *st, const char *source, char **out,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	const unsigned char *v;
	int rc;

	*out = NULL;
	s = mlq__store_stmt(st, S_CURSOR_GET,
	    "SELECT cursor FROM source WHERE name = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, source);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && (v = sqlite3_column_text(s, 0)) != NULL &&
	    (*out = strdup((const char *)v)) == NULL) {
		sqlite3_reset(s);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return mlq__store_fail(st, err, "read cursor");
	return MLQ_OK;
}

enum mlq_status
mlq_store_cursor_set(struct mlq_store *st, const char *source,
    const char *cursor, struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_CURSOR_SET,
	    "INSERT INTO source(name, url, kind, cursor) VALUES (?1, '', '', ?2) "
	    "ON CONFLICT(name) DO UPDATE SET cursor = ?2", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, source);
	mlq__store_bind_text(s, 2, cursor);
	return mlq__store_step_done(st, s, err, "save cursor");
}

enum mlq_status
mlq__store_source_count(struct mlq_store *st, const char *source, uint64_t n,
    struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_SOURCE_COUNT,
	    "INSERT INTO source(name, url, kind, ingested) VALUES (?1, '', '', ?2) "
	    "ON CONFLICT(name) DO UPDATE SET ingested = ingested + ?2", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, source);
	sqlite3_bind_int64(s, 2, (int64_t)n);
	return mlq__store_step_done(st, s, err, "count source messages");
}

enum mlq_status
mlq__store_source_save(struct mlq_store *st, const struct mlq_source_state *src,
    struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_SOURCE_SAVE,
	    "INSERT INTO source(name, url, kind, last_poll, last_ok, next_poll, "
	    "last_error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(name) DO "
	    "UPDATE SET url = ?2, kind = ?3, last_poll = ?4, last_ok = ?5, "
	    "next_poll = ?6, last_error = ?7", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, src->name);
	mlq__store_bind_text(s, 2, src->url ? src->url : "");
	mlq__store_bind_text(s, 3, src->kind ? src->kind : "");
	sqlite3_bind_int64(s, 4, src->last_poll);
	sqlite3_bind_int64(s, 5, src->last_ok);
	sqlite3_bind_int64(s, 6, src->next_poll);
	mlq__store_bind_text(s, 7, src->last_error);
	return mlq__store_step_done(st, s, err, "save source state");
}

static void
source_from_row(sqlite3_stmt *s, struct mlq_source_state *o)
{
	o->name = mlq__store_col_text(s, 0);
	o->url = mlq__store_col_text(s, 1);
	o->kind = mlq__store_col_text(s, 2);
	o->cursor = mlq__store_col_text(s, 3);
	o->last_poll = sqlite3_column_int64(s, 4);
	o->last_ok = sqlite3_column_int64(s, 5);
	o->next_poll = sqlite3_column_int64(s, 6);
	o->last_error = mlq__store_col_text(s, 7);
	o->ingested = (uint64_t)sqlite3_column_int64(s, 8);
}

#define SOURCE_COLS \
	"SELECT name, url, kind, cursor, last_poll, last_ok, next_poll, " \
	"last_error, ingested FROM source"

enum mlq_status
mlq_store_source_list(struct mlq_store *st, mlq_source_fn fn, void *arg,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	struct mlq_source_state o;
	int rc;

	if (sqlite3_prepare_v2(st->db, SOURCE_COLS " ORDER BY name", -1, &s,
		NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "list sources");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		source_from_row(s, &o);
		if (fn(&o, arg) != 0)
			break;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return mlq__store_fail(st, err, "list sources");
	return MLQ_OK;
}

enum mlq_status
mlq_store_source_get(struct mlq_store *st, const char *name,
    struct mlq_source_state *out, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	s = mlq__store_stmt(st, S_SOURCE_GET, SOURCE_COLS " WHERE name = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, name);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		/* Row text stays valid until the statement is reset. */
		source_from_row(s, out);
		return MLQ_OK;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? MLQ_NOTFOUND :
				   mlq__store_fail(st, err, "read source");
}

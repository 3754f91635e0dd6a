/*
 * The store's handle, shared by lib/store*.c: with text-terms.c, which
 * borrows FTS5's tokenizer, the only sqlite3 users.
 */
#ifndef MLQ_STORE_INT_H
#define MLQ_STORE_INT_H

#include <sqlite3.h>

#include "mlq-int.h"

/*
 * The name of the first list message 'id' (an SQL expression) was seen
 * on.  Ordered by ml.list, not l.id: the same order, but the primary key
 * gives it, where l.id made SQLite sort in a temporary B-tree for every
 * row (a third of a search that prints thousands of hits).
 */
#define MLQ__FIRST_LIST(id)                                                 \
	"(SELECT l.name FROM msg_list ml JOIN list l ON l.id = ml.list "   \
	"WHERE ml.msg = " id " ORDER BY ml.list LIMIT 1)"

/* A growing array of row ids (ids.c); oom is set when it could not grow. */
struct ids {
	int64_t *v;
	size_t n, cap;
	bool oom;
};

void mlq__ids_add(struct ids *a, int64_t id);
/* Sorts and removes repeats. */
void mlq__ids_uniq(struct ids *a);

/* Statements prepared once per handle, by the function that runs them. */
enum store_stmt {
	S_FIND_ID,
	S_INSERT_MSG,
	S_SET_THREAD,
	S_MSG_THREAD,
	S_GHOST_THREAD,
	S_GHOST_PUT,
	S_GHOST_DEL,
	S_MERGE_MSG,
	S_MERGE_GHOST,
	S_LIST_FIND,
	S_LIST_ADD,
	S_MSG_LIST_ADD,
	S_ADDR_ADD,
	S_FILE_ADD,
	S_TRAILER_ADD,
	S_EVIDENCE_ADD,
	S_TAG_ADD,
	S_FTS_ADD,
	S_CURSOR_GET,
	S_CURSOR_SET,
	S_SOURCE_SAVE,
	S_SOURCE_COUNT,
	S_SOURCE_GET,
	/* the review engine (store-review.c) */
	S_RV_THREAD_OF,
	S_RV_LOAD,
	S_RV_GHOSTS,
	S_RV_UPDATE,
	S_RV_TAG_DEL,
	S_RV_REF_ADD,
	S_RV_REF_OF,
	S_RV_NAMING_NORM,
	S_RV_NAMING_COMMIT,
	S_RV_LINK_DSTS,
	S_RV_LINK_DEL,
	S_RV_LINK_ADD,
	S_RV_SRC_INFO,
	S_RV_BY_COMMIT,
	S_RV_BY_TREE,
	S_RV_BY_TITLE,
	S_RV_VERSIONS,
	S_RV_VERSION_DEL,
	S_RV_REVERTED,
	S_RV_SUPERSEDED,
	S_RV_RESENT,
	S_RV_SHARE_FILE,
	S_RV_FILES,
	S_RV_RETITLED,
	S_RV_RETITLED_ROW,
	S_RV_SERIES_ROW,
	S_RV_SERIES_MEMBERS,
	S_RV_SERIES_LINKED,
	S_RV_REVERT_DSTS,
	S_RV_MARK_REVERT,
	S_RV_FIRST_REVIEW,
	S_RV_COVER_HERE,
	S_RV_COVERS_NEAR,
	S_RV_PATCHES_NEAR,
	S_RV_SERIES_OF,
	S_RV_OWN_COVER,
	S_RV_OWN_PATCH_LINKS,
	S_RV_LINK_DEL_ONE,
	S_RV_SERIES_THREADS,
	S_RV_MARKS,
	/* commits of git trees (store-git.c) */
	S_GIT_PUT,
	S_GIT_ID,
	S_GIT_REF,
	S_GIT_MSGID,
	S_GIT_BY_LINK,
	S_GIT_BY_PATCH,
	S_GIT_BY_TITLE,
	S_GIT_UNLINKED,
	S_GIT_MERGED,
	S_GIT_OF,
	S_GIT_REVERTED,
	S_GIT_POSTING,
	S_GIT_BY_NAMED,
	S_GIT_MARK_GET,
	S_GIT_MARK_SET,
	S_GIT_MAX_COMMIT,
	S_GIT_MAX_MSG,
	S_GIT_NEW_POSTINGS,
	S_GIT_DROP_DIRTY,
	S_GIT_DROP_0, /* five in a row: drop_commit's statements */
	S_GIT_DROP_1,
	S_GIT_DROP_2,
	S_GIT_DROP_3,
	S_GIT_DROP_4,
	S_GIT_FIXES,
	S_GIT_UNREF,
	S_GIT_OID,
	S_GIT_NAMED_BY,
	S_GIT_REFS_LEFT,
	S_RV_NAMED_COMMIT,
	S_RV_MERGED,
	S_RV_TREE_REVERTED,
	/* a maintainer's marks (store-mark.c) */
	S_MARK_TARGET,
	S_MARK_PUT,
	S_MARK_CLEAR,
	S_MARKS_OF,
	S_COUNT
};

struct mlq_store {
	sqlite3 *db;
	/* The mail (store-mail.c): opened on first use, its own transaction. */
	sqlite3 *mail;
	sqlite3_stmt *mail_put, *mail_get, *mail_lists_del, *mail_list_add;
	bool mail_tx;
	bool writable;
	bool in_tx;
	sqlite3_stmt *stmt[S_COUNT];
	/* Text lent by getters until the next call. */
	struct mlq_buf scratch[8];
	/* Messages whose threads the review engine must re-derive. */
	int64_t *dirty;
	size_t ndirty, dirty_cap;
	bool dirty_oom;
	/* Text for the free-text index, held until mlq__text_flush. */
	struct text_row *text;
	size_t ntext, text_cap;
	struct mlq_buf text_bytes;
	/* A bulk writer's marker (store-sync.c); empty once synced. */
	struct mlq_buf marker;
	/* SQL function mlq_phrase is registered (mlq_store_phrases). */
	bool phrase_fn;
};

/* The statement for slot, prepared from sql on first use; NULL on error. */
sqlite3_stmt *mlq__store_stmt(struct mlq_store *st, enum store_stmt slot,
    const char *sql, struct mlq_err *err);
/* Runs sql on the index; a failure is MLQ_EDB naming sql. */
enum mlq_status mlq__store_exec(struct mlq_store *st, const char *sql,
    struct mlq_err *err);
/* Records a SQLite failure of db (its file: NULL for db's own): the cause
 * in words where the user can act on it (disk full, read-only, busy, not
 * a database), else what was being done and SQLite's message. */
enum mlq_status mlq__db_fail(sqlite3 *db, const char *file,
    struct mlq_err *err, const char *what);
/* Opens path read-only, read as immutable when nobody may write beside
 * it and no writer left a -wal; sqlite3_open_v2's result. */
int mlq__db_open_read(const char *path, sqlite3 **db);
/* sqlite3_exec, tried again for as long as a writer waits while the file
 * is busy; for statements SQLite's own busy wait does not cover. */
int mlq__db_exec_waiting(sqlite3 *db, const char *sql);
/* mlq__db_fail on the index. */
enum mlq_status mlq__store_fail(struct mlq_store *st, struct mlq_err *err,
    const char *what);
/*
 * The review engine (store-review.c).  mlq__review_put records what a
 * newly stored message (row id, kind as stored) names -- the title and
 * commit a revert or a Fixes: trailer points at -- resolves the links
 * to and from it, and marks its thread and the linked ones for
 * re-derivation.  mlq__review_flush re-derives every marked thread: reply
 * tags (by submitter or not), submission tags, statuses; the store calls
 * it before each commit, so a batch costs O(size of the threads it
 * touched) once, whatever its order.  mlq__review_reset forgets the marks
 * (rollback); mlq__review_release frees them.
 */
enum mlq_status mlq__review_put(struct mlq_store *st, int64_t id,
    const struct mlq_msg *m, int kind, struct mlq_err *err);
enum mlq_status mlq__review_flush(struct mlq_store *st, struct mlq_err *err);
/* Has message id's thread derived again at the next flush. */
void mlq__review_dirty(struct mlq_store *st, int64_t id);
/* The reverts and Fixes: naming commit oid are resolved again: it was
 * just linked to its posting, or dropped from its tree. */
enum mlq_status mlq__review_commit_named(struct mlq_store *st,
    const char *oid, struct mlq_err *err);
void mlq__review_reset(struct mlq_store *st);
void mlq__review_release(struct mlq_store *st);
/*
 * The stored mail (store-mail.c).  mlq__mail_put stores a message's
 * deflated bytes and when it was stored (0: unknown) under its row id,
 * in a transaction of the mail file's own while the store's is open;
 * mlq__mail_add_list records a list it came from; mlq__mail_commit
 * commits them, and must come before the index's commit.  mlq__mail_get
 * hands fn the bytes as stored.  mlq__mail_migrate copies table raw of a
 * schema-12 database out, setting *moved when it had any.
 */
typedef enum mlq_status (*mlq__mail_fn)(const void *z, size_t zlen,
    size_t len, void *arg, struct mlq_err *err);
enum mlq_status mlq__mail_put(struct mlq_store *st, int64_t id, const void *z,
    size_t zlen, size_t len, int64_t added, struct mlq_err *err);
enum mlq_status mlq__mail_add_list(struct mlq_store *st, int64_t id,
    const char *list, struct mlq_err *err);
enum mlq_status mlq__mail_commit(struct mlq_store *st, struct mlq_err *err);
void mlq__mail_rollback(struct mlq_store *st);
/* msgid without the <> around it: its start, and *n its length. */
const char *mlq__msgid_trim(const char *msgid, size_t *n);
enum mlq_status mlq__mail_get(struct mlq_store *st, int64_t id,
    mlq__mail_fn fn, void *arg, struct mlq_err *err);
enum mlq_status mlq__mail_migrate(struct mlq_store *st, bool *moved,
    struct mlq_err *err);
void mlq__mail_close(struct mlq_store *st);
/*
 * The mail file's copy of the marks (store-mark.c keeps the index's):
 * mlq__mail_mark_put records one mark of msgid, mlq__mail_mark_clear
 * drops them all, in the mail file's transaction as mlq__mail_put does.
 */
enum mlq_status mlq__mail_mark_put(struct mlq_store *st, const char *msgid,
    const struct mlq_mark *m, struct mlq_err *err);
enum mlq_status mlq__mail_mark_clear(struct mlq_store *st, const char *msgid,
    struct mlq_err *err);
/*
 * Unsynced bulk writes (store-sync.c; the checks are in mlq-int.h).
 * mlq__sync_begin leaves st's marker and turns its syncs off;
 * mlq__sync_end makes st's writes durable, then removes it.
 */
enum mlq_status mlq__sync_begin(struct mlq_store *st, const char *path,
    struct mlq_err *err);
enum mlq_status mlq__sync_end(struct mlq_store *st, struct mlq_err *err);
/*
 * The free-text index (store-text.c).  Its rowid is a message's day (0
 * for no date, then 1 up, growing with the date) times 2^32 plus the
 * message's id, so the rowids of the newest messages are the largest.
 * mlq__text_add queues a message's text, mlq__text_flush writes the queue
 * in rowid order (the store calls it before each commit), mlq__text_reset
 * drops it (rollback), mlq__text_release frees it.
 */
#define MLQ__TEXT_ID_MAX INT64_C(0xffffffff)
#define MLQ__TEXT_KEY(day, id) ((day) * (MLQ__TEXT_ID_MAX + 1) + (id))
#define MLQ__TEXT_DAY(rowid) ((rowid) >> 32)
/* The columns of table fts, in the order of enum mlq_text_col. */
#define MLQ__TEXT_COLS "subject, nq, q, dfa, dfb, dfctx, dfhh"
/* The message id in a text rowid, in SQL. */
#define MLQ__TEXT_ID_SQL(rowid) "(" rowid " & 4294967295)"
enum mlq_status mlq__text_add(struct mlq_store *st, int64_t id,
    const struct mlq_msg *m, struct mlq_err *err);
enum mlq_status mlq__text_flush(struct mlq_store *st, struct mlq_err *err);
void mlq__text_reset(struct mlq_store *st);
void mlq__text_release(struct mlq_store *st);
/* Applies every migration past the database's user_version. */
enum mlq_status mlq__schema_migrate(struct mlq_store *st, struct mlq_err *err);

/* Binds text, or NULL for a NULL pointer; the text must outlive the step. */
static inline void
mlq__store_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
}

/* A column's text; NULL for SQL NULL. */
static inline const char *
mlq__store_col_text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/*
 * The first column of s's first row as an integer, s reset; MLQ_NOTFOUND
 * when there is no row.
 */
enum mlq_status mlq__store_step_int(struct mlq_store *st, sqlite3_stmt *s,
    int64_t *out, struct mlq_err *err, const char *what);

/* Runs a statement that returns no rows, and resets it. */
static inline enum mlq_status
mlq__store_step_done(struct mlq_store *st, sqlite3_stmt *s, struct mlq_err *err,
    const char *what)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return mlq__store_fail(st, err, what);
	return MLQ_OK;
}

/*
 * Ends a loop that stepped s while it gave rows: resets s and turns the
 * last step's code into a status.  A loop that stopped on a row stopped
 * for want of memory.
 */
static inline enum mlq_status
mlq__store_rows_done(struct mlq_store *st, sqlite3_stmt *s, int rc,
    struct mlq_err *err, const char *what)
{
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	if (rc != SQLITE_DONE)
		return mlq__store_fail(st, err, what);
	return MLQ_OK;
}

#endif

/*
 * A maintainer's marks (mlq mark): a submission's status or a message's
 * tag set by hand.  They live in table mark of the index, where the
 * review engine reads them each time it derives a thread, so that they
 * win over what it derives (store-review.c), and in the mail file, from
 * which a rebuild takes them back (store-mail.c).  Keyed by Message-Id.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "store-int.h"

/* msgid without its <>, into b. */
static const char *
bare_msgid(struct mlq_buf *b, const char *msgid)
{
	size_t n;

	msgid = mlq__msgid_trim(msgid, &n);
	mlq_buf_reset(b);
	mlq_buf_add(b, msgid, n);
	return b->oom ? NULL : b->data;
}

/* The stored message msgid: its row id and kind; MLQ_NOTFOUND if none. */
static enum mlq_status
mark_target(struct mlq_store *st, const char *msgid, int64_t *id, int *kind,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	s = mlq__store_stmt(st, S_MARK_TARGET,
	    "SELECT id, kind FROM msg WHERE msgid = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, msgid);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(s, 0);
		*kind = sqlite3_column_int(s, 1);
	}
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return mlq_err_set(err, MLQ_NOTFOUND, "no message '%s'", msgid);
	return rc == SQLITE_ROW ? MLQ_OK : mlq__store_fail(st, err, "mark");
}

/* What a message of this kind cannot be given; MLQ_OK when it can. */
static enum mlq_status
mark_check(const char *msgid, int kind, const struct mlq_mark *m,
    struct mlq_err *err)
{
	assert(m->tag == 0
		? m->status > MLQ_STATE_NONE && m->status <= MLQ_STATE_LAST
		: mlq_tag_name(m->tag) != NULL);
	assert(m->who != NULL);
	if (m->tag == 0 && kind == 0)
		return mlq_err_set(err, MLQ_EINPUT,
		    "mark '%s': a reply has no status, only a submission",
		    msgid);
	if (m->tag == MLQ_TAG_REVERT && kind == 0)
		return mlq_err_set(err, MLQ_EINPUT,
		    "mark '%s': 'revert' is a submission's tag, not a reply's",
		    msgid);
	return MLQ_OK;
}

static enum mlq_status
mark_put(struct mlq_store *st, const char *msgid, const struct mlq_mark *m,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	/* The mail file first, as for mail (store-mail.c). */
	if ((rc = mlq__mail_mark_put(st, msgid, m, err)) != MLQ_OK)
		return rc;
	s = mlq__store_stmt(st, S_MARK_PUT,
	    "INSERT OR REPLACE INTO mark(msgid, what, value, who, at) "
	    "VALUES (?, ?, ?, ?, ?)",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, msgid);
	sqlite3_bind_int(s, 2, (int)m->tag);
	sqlite3_bind_int(s, 3, m->tag == 0 ? (int)m->status : !m->removed);
	mlq__store_bind_text(s, 4, m->who);
	sqlite3_bind_int64(s, 5, m->at);
	return mlq__store_step_done(st, s, err, "record the mark");
}

static enum mlq_status
mark_clear(struct mlq_store *st, const char *msgid, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	if ((rc = mlq__mail_mark_clear(st, msgid, err)) != MLQ_OK)
		return rc;
	s = mlq__store_stmt(st, S_MARK_CLEAR,
	    "DELETE FROM mark WHERE msgid = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, msgid);
	return mlq__store_step_done(st, s, err, "clear the marks");
}

/* Records the n marks of m (none: clears them all) in one transaction. */
static enum mlq_status
mark_apply(struct mlq_store *st, const char *msgid, const struct mlq_mark *m,
    size_t n, struct mlq_err *err)
{
	struct mlq_buf b;
	const char *id_text;
	enum mlq_status rc;
	int64_t id = 0;
	int kind = 0;
	size_t i;

	assert(!st->in_tx);
	mlq_buf_init(&b);
	if ((id_text = bare_msgid(&b, msgid)) == NULL) {
		mlq_buf_release(&b);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	if ((rc = mlq_store_begin(st, err)) != MLQ_OK)
		goto out;
	rc = mark_target(st, id_text, &id, &kind, err);
	for (i = 0; rc == MLQ_OK && i < n; i++)
		rc = mark_check(id_text, kind, &m[i], err);
	if (rc == MLQ_OK && n == 0)
		rc = mark_clear(st, id_text, err);
	for (i = 0; rc == MLQ_OK && i < n; i++)
		rc = mark_put(st, id_text, &m[i], err);
	if (rc != MLQ_OK) {
		mlq_store_rollback(st);
		goto out;
	}
	/* The commit derives the thread again, the marks with it. */
	mlq__review_dirty(st, id);
	rc = mlq_store_commit(st, err);
out:
	mlq_buf_release(&b);
	return rc;
}

enum mlq_status
mlq_store_mark(struct mlq_store *st, const char *msgid,
    const struct mlq_mark *m, size_t n, struct mlq_err *err)
{
	assert(n > 0);
	return mark_apply(st, msgid, m, n, err);
}

enum mlq_status
mlq_store_mark_clear(struct mlq_store *st, const char *msgid,
    struct mlq_err *err)
{
	return mark_apply(st, msgid, NULL, 0, err);
}

enum mlq_status
mlq_store_marks(struct mlq_store *st, const char *msgid, mlq_mark_fn fn,
    void *arg, struct mlq_err *err)
{
	struct mlq_buf b;
	struct mlq_mark m;
	sqlite3_stmt *s;
	const char *id_text;
	int rc;

	mlq_buf_init(&b);
	if ((id_text = bare_msgid(&b, msgid)) == NULL) {
		mlq_buf_release(&b);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	s = mlq__store_stmt(st, S_MARKS_OF,
	    "SELECT what, value, who, at FROM mark WHERE msgid = ? "
	    "ORDER BY what",
	    err);
	if (s == NULL) {
		mlq_buf_release(&b);
		return MLQ_EDB;
	}
	mlq__store_bind_text(s, 1, id_text);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		memset(&m, 0, sizeof(m));
		m.tag = (unsigned)sqlite3_column_int(s, 0);
		if (m.tag == 0)
			m.status = (enum mlq_state)sqlite3_column_int(s, 1);
		else
			m.removed = sqlite3_column_int(s, 1) == 0;
		m.who = mlq__store_col_text(s, 2);
		m.at = sqlite3_column_int64(s, 3);
		if (fn(&m, arg) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	mlq_buf_release(&b);
	return rc == SQLITE_DONE ? MLQ_OK
				 : mlq__store_fail(st, err, "read marks");
}

/*
 * The digest's reads (a period's messages with the submission each one
 * answers, list counts, branches of threads, links) and the record of
 * digests sent.
 */
#include "config.h"

#include <string.h>

#include "digest-int.h"
#include "store/store-int.h"

/* A series patch after the first, or after its cover: not a submission of its own. */
#define SERIES_MEMBER(m)                                                       \
	"(" m ".idx >= 1 AND " m                                               \
	".total >= 2 AND EXISTS (SELECT 1 FROM msg pp "                        \
	"WHERE pp.msgid = " m ".parent AND pp.kind > 0 AND pp.from_email = " m \
	".from_email))"

/* The list asked for (parameter p), else message m's first list. */
#define LIST_OF(m, p)                                                          \
	"coalesce(" p                                                          \
	", " MLQ__FIRST_LIST(m ".id") ")"

#define DMSG_COLS(p)                                                                              \
	"m.id, m.msgid, m.subject, coalesce(m.author_name, m.from_name), "                        \
	"coalesce(m.author_email, m.from_email), " LIST_OF("m",                                   \
	    p) ", m.norm, m.date, m.kind, m.status, m.tags, m.version, m.idx, "                   \
	       "m.total, m.parent IS NOT NULL AND m.kind = 0, m.kind > 0 AND NOT " SERIES_MEMBER( \
		   "m")

/* Columns 0..15 of DMSG_COLS, then the submission's id and sender. */
static void
dmsg_from_row(sqlite3_stmt *s, struct mlq__dmsg *m)
{
	memset(m, 0, sizeof(*m));
	m->id = sqlite3_column_int64(s, 0);
	m->msgid = mlq__store_col_text(s, 1);
	m->subject = mlq__store_col_text(s, 2);
	m->from_name = mlq__store_col_text(s, 3);
	m->from_email = mlq__store_col_text(s, 4);
	m->list = mlq__store_col_text(s, 5);
	m->norm = mlq__store_col_text(s, 6);
	m->date_ok = sqlite3_column_type(s, 7) != SQLITE_NULL;
	m->date = sqlite3_column_int64(s, 7);
	m->kind = sqlite3_column_int(s, 8);
	m->status = (enum mlq_state)sqlite3_column_int(s, 9);
	m->tags = (unsigned)sqlite3_column_int(s, 10);
	m->version = sqlite3_column_int(s, 11);
	m->index = sqlite3_column_int(s, 12);
	m->total = sqlite3_column_int(s, 13);
	m->is_reply = sqlite3_column_int(s, 14) != 0;
	m->top = sqlite3_column_int(s, 15) != 0;
	if (sqlite3_column_count(s) > 16) {
		m->sub = sqlite3_column_int64(s, 16);
		m->sub_from = mlq__store_col_text(s, 17);
	}
}

static enum mlq_status
run_dmsgs(struct mlq_store *st, sqlite3_stmt *s, mlq__dmsg_fn fn, void *arg,
    struct mlq_err *err, const char *what)
{
	struct mlq__dmsg m;
	int rc, n = 0;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		n++;
		dmsg_from_row(s, &m);
		if (fn(&m, arg) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE)
		mlq__store_fail(st, err, what);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return MLQ_EDB;
	return n > 0 ? MLQ_OK : MLQ_NOTFOUND;
}

static void
bind_opt_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

enum mlq_status
mlq__store_digest_msgs(struct mlq_store *st, int64_t since, int64_t until,
    const char *list, mlq__dmsg_fn fn, void *arg, struct mlq_err *err)
{
	/*
	 * up walks from each message of the period to its parents, through
	 * replies only: the first submission met is the one it answers.
	 */
	static const char sql[] =
	    "WITH RECURSIVE up(start, cur, depth) AS MATERIALIZED ("
	    " SELECT m.id, p.id, 1 FROM msg m JOIN msg p ON p.msgid = m.parent"
	    " WHERE m.date >= ?1 AND m.date < ?2"
	    " UNION ALL"
	    " SELECT up.start, p.id, up.depth + 1 FROM up"
	    " JOIN msg c ON c.id = up.cur JOIN msg p ON p.msgid = c.parent"
	    " WHERE c.kind = 0 AND up.depth < 200),"
	    " subs(start, sub, sub_from) AS MATERIALIZED ("
	    " SELECT up.start, s.id, s.from_email FROM up"
	    " JOIN msg s ON s.id = up.cur WHERE s.kind > 0)"
	    " SELECT " DMSG_COLS(
		"?3") ", subs.sub, subs.sub_from FROM msg m"
		      " LEFT JOIN subs ON subs.start = m.id"
		      " WHERE m.date >= ?1 AND m.date < ?2 AND (?3 IS NULL OR m.id IN"
		      " (SELECT ml.msg FROM msg_list ml JOIN list l ON l.id = ml.list"
		      " WHERE l.name = ?3)) ORDER BY m.date, m.id";
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read period");
	sqlite3_bind_int64(s, 1, since);
	sqlite3_bind_int64(s, 2, until);
	bind_opt_text(s, 3, list);
	return run_dmsgs(st, s, fn, arg, err, "digest: read period");
}

enum mlq_status
mlq__store_digest_get(struct mlq_store *st, int64_t id, const char *list,
    mlq__dmsg_fn fn, void *arg, struct mlq_err *err)
{
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(st->db,
		"SELECT " DMSG_COLS("?2") " FROM msg m WHERE m.id = ?1", -1, &s,
		NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read message");
	sqlite3_bind_int64(s, 1, id);
	bind_opt_text(s, 2, list);
	return run_dmsgs(st, s, fn, arg, err, "digest: read message");
}

enum mlq_status
mlq__store_digest_lists(struct mlq_store *st, int64_t since, int64_t until,
    const char *list, mlq__dlist_fn fn, void *arg, struct mlq_err *err)
{
	static const char sql[] =
	    "SELECT l.name,"
	    " sum(m.kind > 0 AND NOT " SERIES_MEMBER(
		"m") "),"
		     " sum(m.kind = 0 AND m.parent IS NOT NULL),"
		     " sum(m.kind = 0 AND m.parent IS NOT NULL AND (m.tags & ?4) != 0),"
		     " sum(m.kind > 0 AND (m.tags & ?5) != 0),"
		     " sum(m.kind = 0 AND m.parent IS NOT NULL AND (m.tags & ?6) != 0)"
		     " FROM msg m JOIN msg_list ml ON ml.msg = m.id"
		     " JOIN list l ON l.id = ml.list"
		     " WHERE m.date >= ?1 AND m.date < ?2 AND (?3 IS NULL OR l.name = ?3)"
		     " GROUP BY l.name ORDER BY l.name";
	struct mlq_digest_list l;
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: count lists");
	sqlite3_bind_int64(s, 1, since);
	sqlite3_bind_int64(s, 2, until);
	bind_opt_text(s, 3, list);
	sqlite3_bind_int(s, 4, MLQ_TAG_NACK);
	sqlite3_bind_int(s, 5, MLQ_TAG_REVERT);
	sqlite3_bind_int(s, 6, MLQ_TAG_APPLIED);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		l.list = mlq__store_col_text(s, 0);
		l.submissions = sqlite3_column_int64(s, 1);
		l.replies = sqlite3_column_int64(s, 2);
		l.nacks = sqlite3_column_int64(s, 3);
		l.reverts = sqlite3_column_int64(s, 4);
		l.applied = sqlite3_column_int64(s, 5);
		if (fn(&l, arg) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE)
		mlq__store_fail(st, err, "digest: count lists");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? MLQ_OK : MLQ_EDB;
}

enum mlq_status
mlq__store_digest_below(struct mlq_store *st, int64_t id, const char *email,
    bool is_from, int64_t until, bool *found, struct mlq_err *err)
{
	/* Replies are in their parent's thread: walk that, not all mail. */
	static const char sql[] =
	    "WITH RECURSIVE t(id, msgid, parent) AS MATERIALIZED ("
	    " SELECT id, msgid, parent FROM msg"
	    " WHERE thread = (SELECT thread FROM msg WHERE id = ?1)),"
	    " down(id, msgid, depth) AS ("
	    " SELECT id, msgid, 0 FROM t WHERE id = ?1"
	    " UNION"
	    " SELECT c.id, c.msgid, down.depth + 1 FROM down"
	    " JOIN t c ON c.parent = down.msgid WHERE down.depth < 200)"
	    " SELECT 1 FROM down JOIN msg m ON m.id = down.id"
	    " WHERE down.depth > 0 AND m.date < ?2"
	    " AND (m.from_email = ?3) = ?4 LIMIT 1";
	sqlite3_stmt *s;
	int rc;

	*found = false;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read thread");
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, until);
	sqlite3_bind_text(s, 3, email, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 4, is_from ? 1 : 0);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*found = true;
	else if (rc != SQLITE_DONE)
		mlq__store_fail(st, err, "digest: read thread");
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? MLQ_OK : MLQ_EDB;
}

enum mlq_status
mlq__store_digest_links(struct mlq_store *st, int64_t id, int kind,
    int64_t *ids, size_t max, size_t *n, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*n = 0;
	if (sqlite3_prepare_v2(st->db,
		"SELECT k.dst FROM link k JOIN msg m ON m.id = k.dst "
		"WHERE k.src = ? AND k.kind = ? ORDER BY m.date, m.id",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read links");
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, kind);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max)
		ids[(*n)++] = sqlite3_column_int64(s, 0);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		mlq__store_fail(st, err, "digest: read links");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? MLQ_OK : MLQ_EDB;
}

enum mlq_status
mlq__store_digest_title(struct mlq_store *st, const char *norm,
    const char *email, int below, int64_t before, int64_t *id,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*id = 0;
	if (sqlite3_prepare_v2(st->db,
		"SELECT m.id FROM msg m WHERE m.norm = ?1 AND m.kind > 0 "
		"AND m.date < ?2 AND (?3 IS NULL OR m.from_email = ?3) "
		"AND (?4 = 0 OR m.version < ?4) AND (?4 > 0 OR (m.tags & ?5) = 0) "
		"AND NOT " SERIES_MEMBER(
		    "m") " ORDER BY m.date DESC, m.id DESC "
			 "LIMIT 1",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: find title");
	sqlite3_bind_text(s, 1, norm, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, before);
	bind_opt_text(s, 3, email);
	sqlite3_bind_int(s, 4, below);
	sqlite3_bind_int(s, 5, MLQ_TAG_REVERT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		mlq__store_fail(st, err, "digest: find title");
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? MLQ_OK : MLQ_EDB;
}

/* ---- digests sent ---- */

enum mlq_status
mlq__store_digest_sent_find(struct mlq_store *st, int64_t start, int64_t end,
    bool *sent, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*sent = false;
	if (sqlite3_prepare_v2(st->db,
		"SELECT 1 FROM digest_sent WHERE period_start = ? AND "
		"period_end = ? AND scheduled = 1",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read sent digests");
	sqlite3_bind_int64(s, 1, start);
	sqlite3_bind_int64(s, 2, end);
	rc = sqlite3_step(s);
	*sent = rc == SQLITE_ROW;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		mlq__store_fail(st, err, "digest: read sent digests");
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? MLQ_OK : MLQ_EDB;
}

enum mlq_status
mlq__store_digest_sent_last(struct mlq_store *st, int64_t *end,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db,
		"SELECT max(period_end) FROM digest_sent WHERE scheduled = 1",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read sent digests");
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
		*end = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
		return MLQ_OK;
	}
	if (rc != SQLITE_ROW)
		mlq__store_fail(st, err, "digest: read sent digests");
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? MLQ_NOTFOUND : MLQ_EDB;
}

enum mlq_status
mlq__store_digest_sent_add(struct mlq_store *st, int64_t start, int64_t end,
    bool scheduled, int64_t sent, const char *msgid, const char *recipients,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	/* OR IGNORE: another process that mailed the same period won. */
	if (sqlite3_prepare_v2(st->db,
		"INSERT OR IGNORE INTO digest_sent(period_start, period_end, "
		"scheduled, sent, message_id, recipients) VALUES (?, ?, ?, ?, ?, ?)",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: record sent digest");
	sqlite3_bind_int64(s, 1, start);
	sqlite3_bind_int64(s, 2, end);
	sqlite3_bind_int(s, 3, scheduled ? 1 : 0);
	sqlite3_bind_int64(s, 4, sent);
	sqlite3_bind_text(s, 5, msgid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 6, recipients, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc != SQLITE_DONE)
		mlq__store_fail(st, err, "digest: record sent digest");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? MLQ_OK : MLQ_EDB;
}

enum mlq_status
mlq__store_digest_commits(struct mlq_store *st, int64_t since, int64_t until,
    const char *list, mlq__dcommit_fn fn, void *arg, struct mlq_err *err)
{
	static const char sql[] =
	    "SELECT c.repo, r.ref, c.oid, c.cdate, (SELECT k.msg FROM merged k "
	    " WHERE k.commit_id = c.id AND (?3 IS NULL OR EXISTS (SELECT 1 "
	    " FROM msg_list ml JOIN list l ON l.id = ml.list "
	    " WHERE ml.msg = k.msg AND l.name = ?3)) LIMIT 1) "
	    "FROM gcommit c JOIN gcommit_ref r ON r.commit_id = c.id "
	    "WHERE c.cdate >= ?1 AND c.cdate < ?2 "
	    "ORDER BY c.repo, r.ref, c.cdate, c.oid";
	struct mlq__dcommit c;
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "digest: read commits");
	sqlite3_bind_int64(s, 1, since);
	sqlite3_bind_int64(s, 2, until);
	if (list != NULL)
		sqlite3_bind_text(s, 3, list, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		c.repo = mlq__store_col_text(s, 0);
		c.ref = mlq__store_col_text(s, 1);
		c.oid = mlq__store_col_text(s, 2);
		c.date = sqlite3_column_int64(s, 3);
		c.msg = sqlite3_column_int64(s, 4);
		if (fn(&c, arg) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE)
		mlq__store_fail(st, err, "digest: read commits");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? MLQ_OK : MLQ_EDB;
}

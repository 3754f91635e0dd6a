/*
 * Reading the store: search (a query becomes one SELECT whose every
 * filter is an indexed subquery), single messages, threads, and the
 * rows `show` needs.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store-int.h"

/* The author first; who posted it where that is someone else. */
#define HIT_MSG_COLS \
	"m.id, m.msgid, m.subject, coalesce(m.author_name, m.from_name), " \
	"coalesce(m.author_email, m.from_email), m.date, " \
	"m.kind, m.status, m.tags, m.parent, m.thread, m.version, m.idx, " \
	"m.total, m.insertions, m.deletions, m.date_raw, " \
	"CASE WHEN m.author_email IS NOT NULL THEN m.from_name END, " \
	"CASE WHEN m.author_email IS NOT NULL THEN m.from_email END"
#define HIT_COLS \
	"SELECT " HIT_MSG_COLS ", " MLQ__FIRST_LIST("m.id") " FROM msg m "
#define HIT_ORDER " ORDER BY m.date IS NULL, m.date DESC, m.id DESC"

static void
hit_from_row(sqlite3_stmt *s, struct mlq_hit *h)
{
	memset(h, 0, sizeof(*h));
	h->id = sqlite3_column_int64(s, 0);
	h->msgid = mlq__store_col_text(s, 1);
	h->subject = mlq__store_col_text(s, 2);
	h->from_name = mlq__store_col_text(s, 3);
	h->from_email = mlq__store_col_text(s, 4);
	h->date_ok = sqlite3_column_type(s, 5) != SQLITE_NULL;
	h->date = sqlite3_column_int64(s, 5);
	h->kind = sqlite3_column_int(s, 6);
	h->status = (enum mlq_state)sqlite3_column_int(s, 7);
	h->tags = (unsigned)sqlite3_column_int(s, 8);
	h->parent = mlq__store_col_text(s, 9);
	h->thread = sqlite3_column_int64(s, 10);
	h->version = sqlite3_column_int(s, 11);
	h->index = sqlite3_column_int(s, 12);
	h->total = sqlite3_column_int(s, 13);
	h->insertions = sqlite3_column_int(s, 14);
	h->deletions = sqlite3_column_int(s, 15);
	h->date_raw = mlq__store_col_text(s, 16);
	h->sender_name = mlq__store_col_text(s, 17);
	h->sender_email = mlq__store_col_text(s, 18);
	h->list = mlq__store_col_text(s, 19);
}

/* A failed query; a bad free-text query is the user's input, not ours. */
static enum mlq_status
query_fail(struct mlq_store *st, struct mlq_err *err)
{
	enum mlq_status rc = mlq__store_fail(st, err, "query");

	return strstr(err ? err->msg : "", "fts5") != NULL ? MLQ_EINPUT : rc;
}

/* Runs a prepared hit query to the end; MLQ_NOTFOUND for no rows. */
static enum mlq_status
run_hits(struct mlq_store *st, sqlite3_stmt *s, mlq_hit_fn fn, void *arg,
    struct mlq_err *err)
{
	struct mlq_hit h;
	int rc, n = 0;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		n++;
		hit_from_row(s, &h);
		if (fn(&h, arg) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE) {
		enum mlq_status e = query_fail(st, err);

		sqlite3_finalize(s);
		return e;
	}
	sqlite3_finalize(s);
	return n > 0 ? MLQ_OK : MLQ_NOTFOUND;
}

/* Bound values, in the order their '?' appear in the SQL. */
struct binds {
	struct bind {
		bool is_int;
		int64_t i;
		const char *s;
		char *owned; /* s, made here and freed with the binds */
	} *v;
	size_t n, cap;
	bool oom;
};

static struct bind *
bind_new(struct binds *b)
{
	struct bind *v;

	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 16;

		if ((v = realloc(b->v, cap * sizeof(*v))) == NULL) {
			b->oom = true;
			return NULL;
		}
		b->v = v;
		b->cap = cap;
	}
	v = &b->v[b->n++];
	memset(v, 0, sizeof(*v));
	return v;
}

static void
bind_s(struct binds *b, const char *s)
{
	struct bind *v = bind_new(b);

	if (v != NULL)
		v->s = s;
}

static void
bind_i(struct binds *b, int64_t i)
{
	struct bind *v = bind_new(b);

	if (v != NULL) {
		v->is_int = true;
		v->i = i;
	}
}

/* Binds a copy of text that the caller is about to release. */
static void
bind_own(struct binds *b, struct mlq_buf *text)
{
	char *p = text->oom ? NULL : strdup(text->data);
	struct bind *v;

	if (p == NULL || (v = bind_new(b)) == NULL) {
		free(p);
		b->oom = true;
		return;
	}
	v->s = v->owned = p;
}

static void
binds_release(struct binds *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->v[i].owned);
	free(b->v);
}

/*
 * An address filter: a full address is one term of the address index; a
 * domain (with or without '@') is the prefix of its own addresses' terms
 * and its subdomains': "umn.edu" reversed is "edu.umn.", whose final dot
 * keeps "umnx.edu" out.
 */
static void
addr_filter(struct mlq_buf *sql, struct binds *b, const char *x, char role)
{
	const char *at = strrchr(x, '@');
	struct mlq_buf t;

	mlq_buf_init(&t);
	if (*x != '@' && at != NULL)
		mlq__addr_term(&t, role, at + 1, x, (size_t)(at - x));
	else {
		mlq__addr_term(&t, role, *x == '@' ? x + 1 : x, NULL, 0);
		mlq_buf_addch(&t, '*');
	}
	mlq_buf_addstr(sql, "m.id IN (SELECT rowid FROM addr WHERE addr MATCH ?)");
	bind_own(b, &t);
	mlq_buf_release(&t);
}

/* The number a query gives, its one text parameter bound (unless NULL); -1
 * on error. */
static int64_t
count_of(struct mlq_store *st, const char *sql, const char *text)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	if (text != NULL)
		sqlite3_bind_text(s, 1, text, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Whether n is text only, and says what must be there (not only what
 * must not): one FTS5 expression can answer it. */
static bool
fts_only(const struct mlq_qnode *n)
{
	switch (n->op) {
	case MLQ_QOP_LEAF:
		return n->field == MLQ_QF_FTS;
	case MLQ_QOP_OR:
		return fts_only(n->l) && fts_only(n->r);
	case MLQ_QOP_AND:
		/* "a -b" is FTS5's "a NOT b". */
		if (n->r->op == MLQ_QOP_NOT)
			return fts_only(n->l) && fts_only(n->r->l);
		if (n->l->op == MLQ_QOP_NOT)
			return fts_only(n->r) && fts_only(n->l->l);
		return fts_only(n->l) && fts_only(n->r);
	case MLQ_QOP_NOT:
		break;
	}
	return false;
}

/* The FTS5 expression of a tree that fts_only accepts. */
static void
fts_expr(struct mlq_buf *b, const struct mlq_qnode *n)
{
	switch (n->op) {
	case MLQ_QOP_LEAF:
		mlq_buf_addstr(b, n->s);
		return;
	case MLQ_QOP_OR:
	case MLQ_QOP_AND:
		mlq_buf_addch(b, '(');
		if (n->op == MLQ_QOP_AND && n->l->op == MLQ_QOP_NOT) {
			fts_expr(b, n->r);
			mlq_buf_addstr(b, " NOT ");
			fts_expr(b, n->l->l);
		} else if (n->op == MLQ_QOP_AND && n->r->op == MLQ_QOP_NOT) {
			fts_expr(b, n->l);
			mlq_buf_addstr(b, " NOT ");
			fts_expr(b, n->r->l);
		} else {
			fts_expr(b, n->l);
			mlq_buf_addstr(b, n->op == MLQ_QOP_OR ? " OR " : " AND ");
			fts_expr(b, n->r);
		}
		mlq_buf_addch(b, ')');
		return;
	case MLQ_QOP_NOT:
		break;
	}
}

/* Binds s as a LIKE pattern's literal part: '%', '_' and '\' escaped. */
static void
bind_like(struct binds *b, const char *s)
{
	struct mlq_buf t;

	mlq_buf_init(&t);
	for (; *s != '\0'; s++) {
		if (*s == '%' || *s == '_' || *s == '\\')
			mlq_buf_addch(&t, '\\');
		mlq_buf_addch(&t, *s);
	}
	bind_own(b, &t);
	mlq_buf_release(&t);
}

/*
 * The SQL condition for n on msg m.  'from' bounds the text index's
 * rowids (newest_bound); every value is bound, never spliced.
 */
static void
emit(struct mlq_buf *sql, struct binds *b, const struct mlq_qnode *n,
    int64_t from)
{
	struct mlq_buf t;

	if (fts_only(n)) {
		mlq_buf_init(&t);
		fts_expr(&t, n);
		mlq_buf_addstr(sql,
		    "m.id IN (SELECT " MLQ__TEXT_ID_SQL("rowid")
		    " FROM fts WHERE fts MATCH ? AND rowid >= ?)");
		bind_own(b, &t);
		bind_i(b, from);
		mlq_buf_release(&t);
		return;
	}
	switch (n->op) {
	case MLQ_QOP_AND:
	case MLQ_QOP_OR:
		mlq_buf_addch(sql, '(');
		emit(sql, b, n->l, from);
		mlq_buf_addstr(sql, n->op == MLQ_QOP_AND ? " AND " : " OR ");
		emit(sql, b, n->r, from);
		mlq_buf_addch(sql, ')');
		return;
	case MLQ_QOP_NOT:
		mlq_buf_addstr(sql, "NOT (");
		emit(sql, b, n->l, from);
		mlq_buf_addch(sql, ')');
		return;
	case MLQ_QOP_LEAF:
		break;
	}
	switch (n->field) {
	case MLQ_QF_FTS: /* answered above */
		break;
	case MLQ_QF_SUBSTR:
		mlq_buf_addstr(sql, "m.subject LIKE '%' || ? || '%' ESCAPE '\\'");
		bind_like(b, n->s);
		break;
	case MLQ_QF_FROM:
	case MLQ_QF_ADDR:
	case MLQ_QF_TO:
	case MLQ_QF_CC:
		addr_filter(sql, b, n->s,
		    n->field == MLQ_QF_FROM ? 'f' :
		    n->field == MLQ_QF_TO ? 't' :
		    n->field == MLQ_QF_CC ? 'c' : 'a');
		break;
	case MLQ_QF_FROM_NAME:
		/* A whole word of the name: "Lu" is not "Lucas". */
		mlq_buf_addstr(sql,
		    "' ' || lower(replace(replace(replace(m.from_name, ',', ' '), "
		    "'.', ' '), '\"', ' ')) || ' ' LIKE '% ' || ? || ' %' "
		    "ESCAPE '\\'");
		bind_like(b, n->s);
		break;
	case MLQ_QF_LIST:
		/* The name, or the List-Id it came from: a list is named
		 * by the List-Id's first label (store.c). */
		mlq_buf_addstr(sql, "m.id IN (SELECT ml.msg FROM msg_list ml "
				    "JOIN list l ON l.id = ml.list WHERE l.name = ? "
				    "OR l.name = substr(?, 1, instr(? || '.', '.') - 1) "
				    "AND instr(?, '.') > 0)");
		bind_s(b, n->s);
		bind_s(b, n->s);
		bind_s(b, n->s);
		bind_s(b, n->s);
		break;
	case MLQ_QF_MSGID:
		mlq_buf_addstr(sql, "m.msgid = ?");
		bind_s(b, n->s);
		break;
	case MLQ_QF_COMMIT:
		/* A prefix: the ids that sort from it to it with 'g' on. */
		mlq_buf_addstr(sql, "m.id IN (SELECT k.msg FROM gcommit c "
				    "JOIN merged k ON k.commit_id = c.id "
				    "WHERE c.oid >= lower(?) AND "
				    "c.oid < lower(?) || 'g')");
		bind_s(b, n->s);
		bind_s(b, n->s);
		break;
	case MLQ_QF_FILE:
		/* The path itself, or anything below it as a directory. */
		mlq_buf_addstr(sql, "m.id IN (SELECT msg FROM file WHERE path = ? "
				    "OR (path > ? || '/' AND path < ? || '0')");
		bind_s(b, n->s);
		bind_s(b, n->s);
		bind_s(b, n->s);
		/* A name alone ("nfs4state.c", "nfsd"): any file or
		 * directory of that name. */
		if (strchr(n->s, '/') == NULL) {
			mlq_buf_addstr(sql, " OR path LIKE '%/' || ? ESCAPE '\\'"
					    " OR path LIKE ? || '/%' ESCAPE '\\'"
					    " OR path LIKE '%/' || ? || '/%' "
					    "ESCAPE '\\'");
			bind_like(b, n->s);
			bind_like(b, n->s);
			bind_like(b, n->s);
		}
		mlq_buf_addch(sql, ')');
		break;
	case MLQ_QF_PATCHID:
		mlq_buf_addstr(sql, "m.patch_id = ?");
		bind_s(b, n->s);
		break;
	case MLQ_QF_DATE:
		mlq_buf_addstr(sql, "(m.date IS NOT NULL");
		if (n->has_lo) {
			mlq_buf_addstr(sql, " AND m.date >= ?");
			bind_i(b, n->lo);
		}
		if (n->has_hi) {
			mlq_buf_addstr(sql, " AND m.date < ?");
			bind_i(b, n->hi);
		}
		mlq_buf_addch(sql, ')');
		break;
	case MLQ_QF_STATUS:
		mlq_buf_addstr(sql, "(m.kind > 0 AND m.status = ?)");
		bind_i(b, n->ival);
		break;
	case MLQ_QF_TAG:
		mlq_buf_addstr(sql, "m.id IN (SELECT msg FROM msg_tag WHERE tag = ?)");
		bind_i(b, n->ival);
		break;
	case MLQ_QF_PATCH:
		mlq_buf_addstr(sql, "m.kind > 0");
		break;
	case MLQ_QF_PHRASE:
		mlq_buf_addstr(sql, "mlq_phrase(m.id, ?, ?)");
		bind_i(b, n->ival);
		bind_s(b, n->s);
		break;
	}
}


/*
 * How far back a limited search by text alone must read.  FTS5 hands the
 * matches out newest day first (store-text.c): the limit-th of them says
 * which day the last hit is from, and every match from that day on is
 * enough to choose the hits -- within a day the rowids run by id, not
 * time, so the whole day counts.  Undated messages (day 0) come last and
 * by id, as their rowids run: there the limit-th match itself is the
 * bound.  *from is INT64_MIN when the text has no more matches than the
 * limit.
 */
static enum mlq_status
newest_bound(struct mlq_store *st, const struct mlq_query *q, int64_t *from,
    struct mlq_err *err)
{
	struct mlq_buf t;
	sqlite3_stmt *s;
	enum mlq_status rc;
	int64_t n = 0, key = 0;
	int step = SQLITE_DONE;

	*from = INT64_MIN;
	mlq_buf_init(&t);
	fts_expr(&t, q->expr);
	if (t.oom) {
		mlq_buf_release(&t);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	if (sqlite3_prepare_v2(st->db,
		"SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC", -1,
		&s, NULL) != SQLITE_OK) {
		mlq_buf_release(&t);
		return query_fail(st, err);
	}
	sqlite3_bind_text(s, 1, t.data, (int)t.len, SQLITE_TRANSIENT);
	mlq_buf_release(&t);
	while (n < q->limit && (step = sqlite3_step(s)) == SQLITE_ROW) {
		key = sqlite3_column_int64(s, 0);
		n++;
	}
	if (n < q->limit && step != SQLITE_DONE) {
		rc = query_fail(st, err);
		sqlite3_finalize(s);
		return rc;
	}
	sqlite3_finalize(s);
	if (n == q->limit)
		*from = MLQ__TEXT_DAY(key) == 0 ? key :
		    MLQ__TEXT_KEY(MLQ__TEXT_DAY(key), 0);
	return MLQ_OK;
}

enum mlq_status
mlq_store_search(struct mlq_store *st, const struct mlq_query *q,
    mlq_hit_fn fn, void *arg, struct mlq_err *err)
{
	struct mlq_buf sql;
	struct binds b;
	sqlite3_stmt *s;
	enum mlq_status rc;
	int64_t from = INT64_MIN;
	size_t i;

	if (mlq_query_has_phrase(q) && !st->phrase_fn)
		return mlq_err_set(err, MLQ_EINPUT,
		    "search: a phrase needs the mail parser (mlq_store_phrases)");
	/* Text alone, limited: the text index alone chooses the hits. */
	if (q->limit > 0 && q->expr != NULL && fts_only(q->expr) &&
	    (rc = newest_bound(st, q, &from, err)) != MLQ_OK)
		return rc;
	memset(&b, 0, sizeof(b));
	mlq_buf_init(&sql);
	/*
	 * With a limit, the hits are chosen before each one's list is looked
	 * up: a frequent word at 10x matches 7,640 messages for 20 shown.
	 */
	if (q->limit > 0)
		mlq_buf_addstr(&sql, "SELECT h.*, " MLQ__FIRST_LIST("h.id") " FROM ("
				     "SELECT " HIT_MSG_COLS " FROM msg m WHERE ");
	else
		mlq_buf_addstr(&sql, HIT_COLS "WHERE ");
	if (q->expr != NULL)
		emit(&sql, &b, q->expr, from);
	else
		mlq_buf_addch(&sql, '1');
	if (q->limit > 0) {
		mlq_buf_addstr(&sql, HIT_ORDER " LIMIT ?) h");
		mlq_buf_addstr(&sql, q->oldest_first
			? " ORDER BY h.date IS NULL, h.date, h.id"
			: " ORDER BY h.date IS NULL, h.date DESC, h.id DESC");
		bind_i(&b, q->limit);
	} else {
		mlq_buf_addstr(&sql, q->oldest_first
			? " ORDER BY m.date IS NULL, m.date, m.id"
			: HIT_ORDER);
	}
	if (sql.oom || b.oom) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(st->db, sql.data, -1, &s, NULL) != SQLITE_OK) {
		rc = query_fail(st, err);
		goto out;
	}
	for (i = 0; i < b.n; i++) {
		if (b.v[i].is_int)
			sqlite3_bind_int64(s, (int)i + 1, b.v[i].i);
		else
			sqlite3_bind_text(s, (int)i + 1, b.v[i].s, -1,
			    SQLITE_STATIC);
	}
	rc = run_hits(st, s, fn, arg, err);
out:
	mlq_buf_release(&sql);
	binds_release(&b);
	return rc;
}

const char *
mlq__msgid_trim(const char *msgid, size_t *n)
{
	if (*msgid == '<')
		msgid++;
	*n = strlen(msgid);
	if (*n > 0 && msgid[*n - 1] == '>')
		(*n)--;
	return msgid;
}

enum mlq_status
mlq_store_get(struct mlq_store *st, const char *msgid, mlq_hit_fn fn,
    void *arg, struct mlq_err *err)
{
	sqlite3_stmt *s;
	size_t n;

	msgid = mlq__msgid_trim(msgid, &n);
	if (sqlite3_prepare_v2(st->db, HIT_COLS "WHERE m.msgid = ?", -1, &s,
		NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "find message");
	sqlite3_bind_text(s, 1, msgid, (int)n, SQLITE_TRANSIENT);
	return run_hits(st, s, fn, arg, err);
}

enum mlq_status
mlq_store_thread(struct mlq_store *st, int64_t thread, mlq_hit_fn fn,
    void *arg, struct mlq_err *err)
{
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(st->db,
		HIT_COLS "WHERE m.thread = ? ORDER BY m.date IS NULL, m.date, m.id",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read thread");
	sqlite3_bind_int64(s, 1, thread);
	return run_hits(st, s, fn, arg, err);
}

enum mlq_status
mlq_store_ghosts(struct mlq_store *st, int64_t thread, mlq_ghost_fn fn,
    void *arg, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db,
		"SELECT msgid, parent FROM ghost WHERE thread = ? ORDER BY msgid",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read thread");
	sqlite3_bind_int64(s, 1, thread);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (fn(mlq__store_col_text(s, 0), mlq__store_col_text(s, 1),
			arg) != 0)
			break;
	sqlite3_finalize(s);
	return MLQ_OK;
}

enum mlq_status
mlq_store_files(struct mlq_store *st, int64_t id, mlq_file_fn fn, void *arg,
    struct mlq_err *err)
{
	struct mlq_patch_file f;
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(st->db,
		"SELECT path, coalesce(old_path, path), insertions, deletions, flags "
		"FROM file WHERE msg = ? ORDER BY rowid", -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read files");
	sqlite3_bind_int64(s, 1, id);
	while (sqlite3_step(s) == SQLITE_ROW) {
		f.path = mlq__store_col_text(s, 0);
		f.old_path = mlq__store_col_text(s, 1);
		f.insertions = sqlite3_column_int(s, 2);
		f.deletions = sqlite3_column_int(s, 3);
		f.flags = (unsigned)sqlite3_column_int(s, 4);
		if (fn(&f, arg) != 0)
			break;
	}
	sqlite3_finalize(s);
	return MLQ_OK;
}

enum mlq_status
mlq_store_trailers(struct mlq_store *st, int64_t id, mlq_trailer_fn fn,
    void *arg, struct mlq_err *err)
{
	struct mlq_trailer t;
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(st->db,
		"SELECT key, value, name, email FROM trailer WHERE msg = ? "
		"ORDER BY rowid", -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read trailers");
	sqlite3_bind_int64(s, 1, id);
	memset(&t, 0, sizeof(t));
	while (sqlite3_step(s) == SQLITE_ROW) {
		t.key = mlq__store_col_text(s, 0);
		t.value = mlq__store_col_text(s, 1);
		t.name = mlq__store_col_text(s, 2);
		t.email = mlq__store_col_text(s, 3);
		if (fn(&t, arg) != 0)
			break;
	}
	sqlite3_finalize(s);
	return MLQ_OK;
}

enum mlq_status
mlq_store_evidence(struct mlq_store *st, int64_t id, mlq_evidence_fn fn,
    void *arg, struct mlq_err *err)
{
	struct mlq_evidence e;
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(st->db,
		"SELECT tag, rule, line FROM evidence WHERE msg = ? ORDER BY rowid",
		-1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read evidence");
	sqlite3_bind_int64(s, 1, id);
	while (sqlite3_step(s) == SQLITE_ROW) {
		e.tag = (unsigned)sqlite3_column_int(s, 0);
		e.rule = mlq__store_col_text(s, 1);
		e.line = mlq__store_col_text(s, 2);
		if (fn(&e, arg) != 0)
			break;
	}
	sqlite3_finalize(s);
	return MLQ_OK;
}

/*
 * Passes on the first hit of each version (they come by version), an RFC
 * and a posting that is not one counting apart: "[RFC PATCH]" then
 * "[PATCH]" are two steps though both are v1.
 */
struct one_per_version {
	mlq_hit_fn fn;
	void *arg;
	bool any, rfc, plain;
	int version;
};

static int
one_per_version(const struct mlq_hit *h, void *arg)
{
	struct one_per_version *o = arg;
	bool rfc = mlq_subject_tagged_rfc(h->subject);

	if (!o->any || h->version != o->version) {
		o->any = true;
		o->version = h->version;
		o->rfc = o->plain = false;
	}
	if (rfc ? o->rfc : o->plain)
		return 0;
	if (rfc)
		o->rfc = true;
	else
		o->plain = true;
	return o->fn(h, o->arg);
}

/*
 * The postings of a submission's own version that differ from it in being
 * an RFC (same author, title, kind and version), posted before it (or
 * after, for incoming): version links join different versions only.
 * RFC_OF() reads a subject as mlq_subject_tagged_rfc() does.
 */
#define RFC_OF(x)                                                              \
	"(upper(" x ".subject) GLOB '[[]*RFC*]*')"
#define SIBLINGS(cmp)                                                          \
	" UNION SELECT o.id FROM msg s JOIN msg o ON o.norm = s.norm AND "     \
	"o.from_email = s.from_email AND o.kind = s.kind AND "                \
	"o.version = s.version AND o.id <> s.id WHERE ?2 = 3 AND "            \
	"s.id = ?1 AND s.norm <> '' AND " RFC_OF("o") " <> " RFC_OF("s")       \
	" AND (o.date " cmp " s.date OR (o.date = s.date AND o.msgid " cmp     \
	" s.msgid))"

enum mlq_status
mlq_store_links(struct mlq_store *st, int64_t id, enum mlq_link_kind kind,
    bool incoming, mlq_hit_fn fn, void *arg, struct mlq_err *err)
{
	struct one_per_version o = { fn, arg, false, false, false, 0 };
	struct mlq_buf sql;
	sqlite3_stmt *s;
	enum mlq_status rc;

	mlq_buf_init(&sql);
	mlq_buf_addstr(&sql, HIT_COLS);
	if (incoming)
		mlq_buf_addstr(&sql,
		    "WHERE m.id IN (SELECT src FROM link WHERE dst = ?1 AND "
		    "kind = ?2" SIBLINGS(">") ") ");
	else
		mlq_buf_addstr(&sql,
		    "WHERE m.id IN (SELECT dst FROM link WHERE src = ?1 AND "
		    "kind = ?2" SIBLINGS("<") ") ");
	/*
	 * A submission meets every posting of a version it is linked to
	 * (store-review.c): the versions are listed once each, by the first
	 * posting of each, as references pick it.
	 */
	if (kind == MLQ_LINK_VERSION)
		mlq_buf_addstr(&sql,
		    "ORDER BY m.version, m.date IS NULL, m.date, m.msgid");
	else
		mlq_buf_addstr(&sql, "ORDER BY m.date, m.id");
	if (sql.oom) {
		mlq_buf_release(&sql);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	if (sqlite3_prepare_v2(st->db, sql.data, -1, &s, NULL) != SQLITE_OK) {
		mlq_buf_release(&sql);
		return mlq__store_fail(st, err, "read links");
	}
	mlq_buf_release(&sql);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, (int)kind);
	if (kind == MLQ_LINK_VERSION)
		rc = run_hits(st, s, one_per_version, &o, err);
	else
		rc = run_hits(st, s, fn, arg, err);
	return rc == MLQ_NOTFOUND ? MLQ_OK : rc;
}

enum mlq_status
mlq_store_counts(struct mlq_store *st, struct mlq_store_counts *out,
    struct mlq_err *err)
{
	static const char *const files[] = { "", "-wal", "-mail", "-mail-wal" };
	const char *path = sqlite3_db_filename(st->db, "main");
	struct stat sb;
	char f[4096];
	size_t i;

	out->messages = count_of(st, "SELECT count(*) FROM msg", NULL);
	out->submissions = count_of(st,
	    "SELECT count(*) FROM msg WHERE kind > 0", NULL);
	out->threads = count_of(st, "SELECT count(DISTINCT thread) FROM msg",
	    NULL);
	out->ghosts = count_of(st, "SELECT count(*) FROM ghost", NULL);
	out->lists = count_of(st, "SELECT count(*) FROM list", NULL);
	out->sources = count_of(st, "SELECT count(*) FROM source", NULL);
	out->commits = count_of(st, "SELECT count(*) FROM gcommit", NULL);
	out->merged = count_of(st, "SELECT count(DISTINCT msg) FROM merged",
	    NULL);
	/* The index and the mail, each with what its WAL holds. */
	out->db_bytes = 0;
	for (i = 0; path != NULL && i < MLQ__ARRAY_SIZE(files); i++)
		if ((size_t)snprintf(f, sizeof(f), "%s%s", path, files[i]) <
			sizeof(f) &&
		    stat(f, &sb) == 0)
			out->db_bytes += sb.st_size;
	if (out->messages < 0)
		return mlq__store_fail(st, err, "count messages");
	return MLQ_OK;
}

enum mlq_status
mlq_store_lists(struct mlq_store *st, mlq_list_fn fn, void *arg,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db,
		"SELECT l.name, count(*), max(m.date) FROM list l "
		"JOIN msg_list ml ON ml.list = l.id JOIN msg m ON m.id = ml.msg "
		"GROUP BY l.id ORDER BY l.name", -1, &s, NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "read lists");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (fn(mlq__store_col_text(s, 0), sqlite3_column_int64(s, 1),
			sqlite3_column_type(s, 2) != SQLITE_NULL,
			sqlite3_column_int64(s, 2), arg) != 0)
			break;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(s);
		return mlq__store_fail(st, err, "read lists");
	}
	sqlite3_finalize(s);
	return MLQ_OK;
}

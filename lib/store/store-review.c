/*
 * The review engine: links between submissions (reverts, Fixes:,
 * versions), each reply's tags as seen from its submission, each
 * submission's tags and status.  Everything is derived from stored rows,
 * so arrival order does not matter: a new message marks its thread (and
 * the threads it links to) dirty, and mlq__review_flush re-derives each
 * dirty thread whole, once per batch.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store-int.h"

/* Hops followed up a thread; deeper chains are cut (and loops broken). */
#ifndef MLQ_REVIEW_MAX_DEPTH
#define MLQ_REVIEW_MAX_DEPTH 4096
#endif

/* How far apart two postings of a retitled patch may be sent. */
#define MLQ_REVIEW_RETITLE_WINDOW (365 * 86400)

/* The largest series whose versions are linked as a whole. */
#define MLQ_REVIEW_SERIES_MAX 64

/* How far apart a cover letter and its unthreaded patches may be sent. */
#ifndef MLQ_REVIEW_SERIES_WINDOW
#define MLQ_REVIEW_SERIES_WINDOW (24 * 3600)
#endif

/* Hex digits of a commit id that index it: unique in any real tree. */
#define CKEY_LEN 12

/* ---- small SQLite helpers ---- */

static const char *
col_str(sqlite3_stmt *s, int i)
{
	const char *v = (const char *)sqlite3_column_text(s, i);

	return v ? v : "";
}

/* ---- the dirty set ---- */

static void
mark(struct mlq_store *st, int64_t id)
{
	int64_t *d;
	size_t cap;

	if (st->ndirty > 0 && st->dirty[st->ndirty - 1] == id)
		return;
	if (st->ndirty == st->dirty_cap) {
		cap = st->dirty_cap ? st->dirty_cap * 2 : 256;
		d = reallocarray(st->dirty, cap, sizeof(*d));
		if (d == NULL) {
			st->dirty_oom = true;
			return;
		}
		st->dirty = d;
		st->dirty_cap = cap;
	}
	st->dirty[st->ndirty++] = id;
}

void
mlq__review_dirty(struct mlq_store *st, int64_t id)
{
	mark(st, id);
}

void
mlq__review_reset(struct mlq_store *st)
{
	st->ndirty = 0;
	st->dirty_oom = false;
}

void
mlq__review_release(struct mlq_store *st)
{
	free(st->dirty);
	st->dirty = NULL;
	st->ndirty = st->dirty_cap = 0;
}

/* Whether the bound statement s returns a row; s is reset. */
static enum mlq_status
has_row(struct mlq_store *st, sqlite3_stmt *s, bool *yes, struct mlq_err *err)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return mlq__store_fail(st, err, "read links");
	*yes = rc == SQLITE_ROW;
	return MLQ_OK;
}

/* Whether the statement (one id bound) returns a row. */
static enum mlq_status
exists(struct mlq_store *st, enum store_stmt slot, const char *sql, int64_t id,
    bool *yes, struct mlq_err *err)
{
	sqlite3_stmt *s = mlq__store_stmt(st, slot, sql, err);

	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	return has_row(st, s, yes, err);
}

/* ---- what a submission names ---- */

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * A commit id at s: 7 to 40 hex digits ending at a non-word character,
 * lower-cased into out (41 bytes).  False when there is none.
 */
static bool
read_commit(const char *s, char *out)
{
	size_t n = 0;

	while (n < 40 && is_hex(s[n])) {
		out[n] = mlq__lower(s[n]);
		n++;
	}
	out[n] = '\0';
	if (n < 7 || is_hex(s[n]) || s[n] == '_' ||
	    (s[n] >= 'g' && s[n] <= 'z') || (s[n] >= 'G' && s[n] <= 'Z'))
		return false;
	return true;
}

/* The normalized form of a title, as msg.norm holds subjects; into a. */
static const char *
title_norm(struct mlq_arena *a, const char *title)
{
	struct mlq_subject s;

	if (title == NULL || *title == '\0' ||
	    mlq_subject_parse(title, a, &s, NULL) != MLQ_OK || s.norm == NULL)
		return "";
	return s.norm;
}

/*
 * The title in 'Revert "TITLE"' anywhere in a subject, for the forms
 * subject.c leaves alone ("ASoC: rockchip: i2s: Revert "..."): from the
 * first quote to the last.  Into a; NULL when there is none.
 */
static const char *
revert_title(struct mlq_arena *a, const char *subject)
{
	const char *p = strstr(subject, "Revert \""), *q;

	if (p == NULL)
		return NULL;
	p += 8;
	if ((q = strrchr(p, '"')) == NULL || q == p)
		return NULL;
	return mlq_arena_strndup(a, p, (size_t)(q - p));
}

/*
 * "This reverts commit ID." in the message's own text (a quoted line,
 * starting with '>', is not its own).
 */
static bool
reverted_commit(const struct mlq_msg *m, char *out)
{
	static const char key[] = "This reverts commit ";
	const char *p = m->body, *end = m->body + m->body_len, *q, *ls;

	if (p == NULL)
		return false;
	while (
	    (q = memmem(p, (size_t)(end - p), key, sizeof(key) - 1)) != NULL) {
		for (ls = q; ls > m->body && ls[-1] != '\n'; ls--)
			;
		while (ls < q && (*ls == ' ' || *ls == '\t'))
			ls++;
		if (*ls != '>' && q + sizeof(key) - 1 < end &&
		    read_commit(q + sizeof(key) - 1, out))
			return true;
		p = q + 1;
	}
	return false;
}

/*
 * Fixes: ID ("TITLE"): the commit and the title (between the first '("'
 * and the last '")', as titles hold parentheses and quotes themselves).
 */
static void
parse_fixes(struct mlq_arena *a, const char *v, char *commit, bool *has_commit,
    const char **title)
{
	const char *open, *close;

	*has_commit = read_commit(v, commit);
	*title = NULL;
	if ((open = strstr(v, "(\"")) != NULL) {
		open += 2;
		close = NULL;
		for (const char *p = open; (p = strstr(p, "\")")) != NULL; p++)
			close = p;
		if (close == NULL) /* a title cut by wrapping */
			close = open + strlen(open);
	} else if ((open = strchr(v, '(')) != NULL) {
		/* Quotes left out: "Fixes: abcdef12 (title)". */
		open++;
		if ((close = strrchr(open, ')')) == NULL)
			close = open + strlen(open);
	} else
		return;
	*title = mlq_arena_strndup(a, open, (size_t)(close - open));
}

static enum mlq_status
ref_add(struct mlq_store *st, const struct mlq_msg *m, int64_t id, int kind,
    const char *norm, const char *commit, struct mlq_err *err)
{
	char ckey[CKEY_LEN + 1];
	sqlite3_stmt *s;

	if (*norm == '\0' && commit == NULL)
		return MLQ_OK;
	s = mlq__store_stmt(st, S_RV_REF_ADD,
	    "INSERT INTO ref(msg, kind, norm, commit_id, ckey, date) "
	    "VALUES (?, ?, ?, ?, ?, ?)",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, kind);
	mlq__store_bind_text(s, 3, norm);
	mlq__store_bind_text(s, 4, commit);
	if (commit != NULL && strlen(commit) >= CKEY_LEN) {
		memcpy(ckey, commit, CKEY_LEN);
		ckey[CKEY_LEN] = '\0';
		sqlite3_bind_text(s, 5, ckey, -1, SQLITE_TRANSIENT);
	}
	if (m->date_ok)
		sqlite3_bind_int64(s, 6, m->date);
	return mlq__store_step_done(st, s, err, "record reference");
}

/* ---- resolving links ---- */

/* A candidate target and what ranks it. */
struct cand {
	int64_t id;
	int version;
	bool declared; /* a retitled vN: linked by its title and a file */
	bool date_ok;
	int64_t date;
	const char *msgid;
	int kind;	   /* 1 patch, 2 cover letter, 3 pull request */
	const char *from;  /* the sender's address */
	const char *place; /* a prefix naming a tree ("AUTOSEL 6.6"), else "" */
};

/* Whether a was posted first: dated first, then earlier, then by Message-Id. */
static bool
cand_first(const struct cand *a, const struct cand *b)
{
	if (a->date_ok != b->date_ok)
		return a->date_ok;
	if (a->date != b->date)
		return a->date < b->date;
	return strcmp(a->msgid, b->msgid) < 0;
}

/* Whether a reference made at (src_ok, src_date) can name c. */
static bool
cand_seen(const struct cand *c, bool src_ok, int64_t src_date)
{
	return src_ok && c->date_ok && c->date <= src_date;
}

/*
 * Better first posting for a reference made at (src_ok, src_date): one
 * posted before the reference, then the latest version, then a patch (a
 * commit is named, not the cover letter that shares its title), then the
 * first posting of it (a stable backport comes later), then the smaller
 * Message-Id (so the choice does not depend on arrival order).
 */
static bool
cand_better(const struct cand *a, const struct cand *b, bool src_ok,
    int64_t src_date)
{
	bool ea = cand_seen(a, src_ok, src_date);
	bool eb = cand_seen(b, src_ok, src_date);

	if (ea != eb)
		return ea;
	if (a->version != b->version)
		return a->version > b->version;
	if ((a->kind == 1) != (b->kind == 1))
		return a->kind == 1;
	return cand_first(a, b);
}

/* One version posted again by its sender, for the same tree. */
static bool
cand_reposts(const struct cand *a, const struct cand *b)
{
	return a->version == b->version && a->kind == b->kind &&
	    strcmp(a->from, b->from) == 0 && strcmp(a->place, b->place) == 0;
}

/*
 * The target a reference made at (src_ok, src_date) names among v, src and
 * also (when not 0) left out: the best first posting (cand_better), then
 * the last time its sender posted it again before the reference (a RESEND,
 * "[PATCH 1/6]" again a week later), which is the one a maintainer took.
 */
static const struct cand *
cand_pick(const struct cand *v, size_t n, int64_t src, int64_t also,
    bool src_ok, int64_t src_date)
{
	const struct cand *head = NULL, *b = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].id != src && v[i].id != also &&
		    (head == NULL || cand_better(&v[i], head, src_ok, src_date)))
			head = &v[i];
	for (i = 0; head != NULL && i < n; i++)
		if (v[i].id != src && v[i].id != also &&
		    cand_reposts(&v[i], head) &&
		    cand_seen(&v[i], src_ok, src_date) ==
			cand_seen(head, src_ok, src_date) &&
		    (b == NULL || cand_first(b, &v[i])))
			b = &v[i];
	return b;
}

/* A prefix naming a tree has a digit: "AUTOSEL 6.6", "5.10". */
#define CAND_COLS                                                              \
	"SELECT id, version, date, msgid, kind, from_email, "                  \
	"CASE WHEN prefix GLOB '*[0-9]*' THEN prefix ELSE '' END FROM msg "

/*
 * The submissions under one title, read once for all the references that
 * name a new message: re-resolving each of them used to read every
 * posting of the title again, the square of how often it was posted.
 */
struct title_memo {
	const char
	    *norm; /* the title; its candidates are loaded if a != NULL */
	struct mlq_arena *a;
	struct cand *v;
	size_t n;
};

/* Appends a candidate query's rows (CAND_COLS) to v, copied into a. */
static enum mlq_status
cands_load(struct mlq_store *st, sqlite3_stmt *s, struct mlq_arena *a,
    struct cand **v, size_t *n, struct mlq_err *err)
{
	struct cand *c;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if ((c = mlq_arena_grow(a, *v, *n, sizeof(**v))) == NULL)
			break;
		*v = c;
		c = &(*v)[*n];
		c->id = sqlite3_column_int64(s, 0);
		c->version = sqlite3_column_int(s, 1);
		c->date_ok = sqlite3_column_type(s, 2) != SQLITE_NULL;
		c->date = sqlite3_column_int64(s, 2);
		c->msgid = mlq_arena_strdup(a, col_str(s, 3));
		c->kind = sqlite3_column_int(s, 4);
		c->from = mlq_arena_strdup(a, col_str(s, 5));
		c->place = mlq_arena_strdup(a, col_str(s, 6));
		if (c->msgid == NULL || c->from == NULL || c->place == NULL)
			break;
		(*n)++;
	}
	return mlq__store_rows_done(st, s, rc, err, "find postings");
}

static enum mlq_status
memo_load(struct mlq_store *st, struct title_memo *m, struct mlq_err *err)
{
	sqlite3_stmt *s;

	if ((m->a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	s = mlq__store_stmt(st, S_RV_BY_TITLE,
	    CAND_COLS "WHERE norm = ? AND kind > 0 AND id <> ?", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, m->norm);
	sqlite3_bind_int64(s, 2, 0); /* row ids start at 1: keeps them all */
	return cands_load(st, s, m->a, &m->v, &m->n, err);
}

/* Picks among a candidate query's rows (CAND_COLS) into *best. */
static enum mlq_status
best_of(struct mlq_store *st, sqlite3_stmt *s, int64_t src, bool src_ok,
    int64_t src_date, int64_t *best, struct mlq_err *err)
{
	struct mlq_arena *a;
	struct cand *v = NULL;
	const struct cand *b;
	size_t n = 0;
	enum mlq_status rc;

	*best = 0;
	if ((a = mlq_arena_new()) == NULL) {
		sqlite3_reset(s);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	rc = cands_load(st, s, a, &v, &n, err);
	if (rc == MLQ_OK &&
	    (b = cand_pick(v, n, src, 0, src_ok, src_date)) != NULL)
		*best = b->id;
	mlq_arena_free(a);
	return rc;
}

/*
 * The submission a reference names: by commit id first, then by title
 * (from memo when it holds that title; memo may be NULL).
 */
static enum mlq_status
ref_target(struct mlq_store *st, int64_t src, bool src_ok, int64_t src_date,
    const char *norm, const char *commit, struct title_memo *memo, int64_t *out,
    struct mlq_err *err)
{
	struct mlq_buf hi;
	const struct cand *b;
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;

	*out = 0;
	mlq_buf_init(&hi);
	if (commit != NULL && *commit != '\0') {
		/* Every id extending the prefix sorts in [commit, commit "g"):
		 * a posting's own format-patch id, then a followed tree's
		 * commit and the posting it carries. */
		static const struct {
			enum store_stmt slot;
			const char *sql;
		} by[] = {
			{ S_RV_BY_COMMIT, CAND_COLS "WHERE commit_id >= ?1 AND "
						    "commit_id < ?2 AND kind > 0 "
						    "AND id <> ?3" },
			{ S_RV_BY_TREE,
			    CAND_COLS "WHERE id IN (SELECT k.msg FROM gcommit c "
				      "JOIN merged k ON k.commit_id = c.id "
				      "WHERE c.oid >= ?1 AND c.oid < ?2) "
				      "AND kind > 0 AND id <> ?3" },
		};
		size_t i;

		mlq_buf_addstr(&hi, commit);
		mlq_buf_addch(&hi, 'g');
		if (hi.oom) {
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < MLQ__ARRAY_SIZE(by); i++) {
			if ((s = mlq__store_stmt(st, by[i].slot, by[i].sql,
				 err)) == NULL) {
				rc = MLQ_EDB;
				goto out;
			}
			mlq__store_bind_text(s, 1, commit);
			mlq__store_bind_text(s, 2, hi.data);
			sqlite3_bind_int64(s, 3, src);
			if ((rc = best_of(st, s, src, src_ok, src_date, out,
				 err)) != MLQ_OK ||
			    *out != 0)
				goto out;
		}
	}
	if (*norm == '\0')
		goto out;
	if (memo != NULL && strcmp(memo->norm, norm) == 0) {
		if (memo->a == NULL)
			rc = memo_load(st, memo, err);
		if (rc == MLQ_OK &&
		    (b = cand_pick(memo->v, memo->n, src, 0, src_ok,
			 src_date)) != NULL)
			*out = b->id;
		goto out;
	}
	s = mlq__store_stmt(st, S_RV_BY_TITLE,
	    CAND_COLS "WHERE norm = ? AND kind > 0 AND id <> ?", err);
	if (s == NULL) {
		rc = MLQ_EDB;
		goto out;
	}
	mlq__store_bind_text(s, 1, norm);
	sqlite3_bind_int64(s, 2, src);
	rc = best_of(st, s, src, src_ok, src_date, out, err);
out:
	mlq_buf_release(&hi);
	return rc;
}

/* One stored reference, copied out of its statement. */
struct ref_row {
	char *norm;
	char *commit;
};

/*
 * Re-resolves the links of one kind that src's references make.  When the
 * targets change, the old and the new ones are marked dirty (a status may
 * change).
 */
static enum mlq_status
resolve(struct mlq_store *st, int64_t src, int kind, struct title_memo *memo,
    struct mlq_err *err)
{
	struct ref_row *rows = NULL, *r;
	size_t nrows = 0, i;
	struct ids old = { 0 }, now = { 0 };
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	int64_t src_date = 0, dst;
	bool src_ok = false;
	int step;

	s = mlq__store_stmt(st, S_RV_SRC_INFO,
	    "SELECT date FROM msg WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, src);
	if (sqlite3_step(s) == SQLITE_ROW) {
		src_ok = sqlite3_column_type(s, 0) != SQLITE_NULL;
		src_date = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);

	s = mlq__store_stmt(st, S_RV_REF_OF,
	    "SELECT norm, commit_id FROM ref WHERE msg = ? AND kind = ? "
	    "ORDER BY rowid",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, src);
	sqlite3_bind_int(s, 2, kind);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		r = reallocarray(rows, nrows + 1, sizeof(*rows));
		if (r == NULL)
			break;
		rows = r;
		r = &rows[nrows++];
		r->norm = strdup(col_str(s, 0));
		r->commit = sqlite3_column_type(s, 1) == SQLITE_NULL
		    ? NULL
		    : strdup(col_str(s, 1));
		if (r->norm == NULL ||
		    (r->commit == NULL &&
			sqlite3_column_type(s, 1) != SQLITE_NULL))
			break;
	}
	if ((rc = mlq__store_rows_done(st, s, step, err, "read references")) !=
	    MLQ_OK)
		goto out;

	s = mlq__store_stmt(st, S_RV_LINK_DSTS,
	    "SELECT dst FROM link WHERE src = ? AND kind = ?", err);
	if (s == NULL) {
		rc = MLQ_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, src);
	sqlite3_bind_int(s, 2, kind);
	while (sqlite3_step(s) == SQLITE_ROW)
		mlq__ids_add(&old, sqlite3_column_int64(s, 0));
	sqlite3_reset(s);

	for (i = 0; i < nrows; i++) {
		rc = ref_target(st, src, src_ok, src_date, rows[i].norm,
		    rows[i].commit, memo, &dst, err);
		if (rc != MLQ_OK)
			goto out;
		if (dst != 0)
			mlq__ids_add(&now, dst);
	}
	if (old.oom || now.oom) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	/*
	 * Most re-resolutions (a title posted once more) change nothing:
	 * then nothing is rewritten and no thread is re-derived.
	 */
	mlq__ids_uniq(&old);
	mlq__ids_uniq(&now);
	if (old.n == now.n &&
	    (old.n == 0 || memcmp(old.v, now.v, old.n * sizeof(*old.v)) == 0))
		goto out;
	for (i = 0; i < old.n; i++)
		mark(st, old.v[i]);

	s = mlq__store_stmt(st, S_RV_LINK_DEL,
	    "DELETE FROM link WHERE src = ? AND kind = ?", err);
	if (s == NULL) {
		rc = MLQ_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, src);
	sqlite3_bind_int(s, 2, kind);
	if ((rc = mlq__store_step_done(st, s, err, "drop links")) != MLQ_OK)
		goto out;

	for (i = 0; i < now.n; i++) {
		s = mlq__store_stmt(st, S_RV_LINK_ADD,
		    "INSERT OR IGNORE INTO link(src, dst, kind) VALUES (?, ?, ?)",
		    err);
		if (s == NULL) {
			rc = MLQ_EDB;
			goto out;
		}
		sqlite3_bind_int64(s, 1, src);
		sqlite3_bind_int64(s, 2, now.v[i]);
		sqlite3_bind_int(s, 3, kind);
		if ((rc = mlq__store_step_done(st, s, err, "add link")) !=
		    MLQ_OK)
			goto out;
		mark(st, now.v[i]);
	}
	mark(st, src);
out:
	for (i = 0; i < nrows; i++) {
		free(rows[i].norm);
		free(rows[i].commit);
	}
	free(rows);
	free(old.v);
	free(now.v);
	return rc;
}

/* (src, kind) pairs of stored references that may name a new message. */
struct naming {
	int64_t src;
	int kind;
	/*
	 * Named by title alone: re-resolved only if the new message beats
	 * the title's other postings for it.  A title resent many times is
	 * named by many references, and most new postings change nothing.
	 */
	bool by_title;
	bool date_ok; /* the reference's date */
	int64_t date;
};

/*
 * Rows (msg, kind, commit id, date) of references naming a new message by
 * commit id (by_commit) or by title; commit is the new message's id.
 */
static enum mlq_status
collect_naming(struct mlq_store *st, sqlite3_stmt *s, int64_t self,
    const char *commit, bool by_commit, struct naming **v, size_t *n,
    struct mlq_err *err)
{
	struct naming *p;
	const char *c;
	bool prefix;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_int64(s, 0) == self)
			continue;
		/* The reference's commit id is a prefix of ours. */
		c = sqlite3_column_type(s, 2) == SQLITE_NULL ? NULL
							     : col_str(s, 2);
		prefix = commit != NULL && c != NULL &&
		    strncmp(commit, c, strlen(c)) == 0;
		if (by_commit && !prefix)
			continue;
		if ((p = reallocarray(*v, *n + 1, sizeof(**v))) == NULL) {
			sqlite3_reset(s);
			return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		}
		*v = p;
		p[*n].src = sqlite3_column_int64(s, 0);
		p[*n].kind = sqlite3_column_int(s, 1);
		p[*n].by_title = !prefix;
		p[*n].date_ok = sqlite3_column_type(s, 3) != SQLITE_NULL;
		p[*n].date = sqlite3_column_int64(s, 3);
		(*n)++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return mlq__store_fail(st, err, "find references");
	return MLQ_OK;
}

/*
 * Whether self, a new posting of the memo's title, moves the target of
 * reference r naming that title: to itself, or (a repost arriving before
 * its first posting) to another posting of its sender's.
 */
static bool
naming_moves(const struct title_memo *memo, const struct cand *self,
    const struct naming *r)
{
	return cand_pick(memo->v, memo->n, r->src, self->id, r->date_ok,
		   r->date) !=
	    cand_pick(memo->v, memo->n, r->src, 0, r->date_ok, r->date);
}

/* The references that name commit (by a prefix of it), added to *v. */
static enum mlq_status
naming_commit(struct mlq_store *st, int64_t self, const char *commit,
    struct naming **v, size_t *n, struct mlq_err *err)
{
	sqlite3_stmt *s;
	char ckey[CKEY_LEN + 1];

	if (strlen(commit) < CKEY_LEN)
		return MLQ_OK;
	memcpy(ckey, commit, CKEY_LEN);
	ckey[CKEY_LEN] = '\0';
	s = mlq__store_stmt(st, S_RV_NAMING_COMMIT,
	    "SELECT msg, kind, commit_id, date FROM ref "
	    "WHERE ckey = ? AND ckey IS NOT NULL",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_text(s, 1, ckey, -1, SQLITE_TRANSIENT);
	return collect_naming(st, s, self, commit, true, v, n, err);
}

/* Reverts and fixes stored earlier that name the new submission. */
static enum mlq_status
resolve_naming(struct mlq_store *st, int64_t id, const char *norm,
    const char *commit, struct mlq_err *err)
{
	struct title_memo memo = { 0 };
	struct naming *v = NULL;
	size_t n = 0, i, j;
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	const struct cand *self = NULL; /* NULL: every reference re-resolved */

	if (*norm != '\0') {
		s = mlq__store_stmt(st, S_RV_NAMING_NORM,
		    "SELECT msg, kind, commit_id, date FROM ref "
		    "WHERE norm = ? AND norm <> ''",
		    err);
		if (s == NULL)
			return MLQ_EDB;
		mlq__store_bind_text(s, 1, norm);
		rc = collect_naming(st, s, id, commit, false, &v, &n, err);
	}
	if (rc == MLQ_OK && commit != NULL)
		rc = naming_commit(st, id, commit, &v, &n, err);
	/* One entry per (src, kind), by title only if every row was. */
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (v[j].kind >= 0 && v[j].src == v[i].src &&
			    v[j].kind == v[i].kind) {
				v[j].by_title &= v[i].by_title;
				v[i].kind = -1;
				break;
			}
	/* The new posting among its title's, found once for every check. */
	memo.norm = norm;
	for (i = 0; rc == MLQ_OK && i < n && memo.a == NULL; i++)
		if (v[i].kind >= 0 && v[i].by_title &&
		    (rc = memo_load(st, &memo, err)) == MLQ_OK)
			for (j = 0; j < memo.n && self == NULL; j++)
				if (memo.v[j].id == id)
					self = &memo.v[j];
	for (i = 0; rc == MLQ_OK && i < n; i++) {
		if (v[i].kind < 0 ||
		    (v[i].by_title && self != NULL &&
			!naming_moves(&memo, self, &v[i])))
			continue;
		rc = resolve(st, v[i].src, v[i].kind, &memo, err);
	}
	mlq_arena_free(memo.a);
	free(v);
	return rc;
}

enum mlq_status
mlq__review_commit_named(struct mlq_store *st, const char *oid,
    struct mlq_err *err)
{
	struct naming *v = NULL;
	size_t n = 0, i;
	enum mlq_status rc;

	rc = naming_commit(st, 0, oid, &v, &n, err);
	for (i = 0; rc == MLQ_OK && i < n; i++)
		rc = resolve(st, v[i].src, v[i].kind, NULL, err);
	free(v);
	return rc;
}

/* Postings by version, the first posting of each version first. */
static int
cand_cmp_version(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->version != b->version)
		return a->version < b->version ? -1 : 1;
	return cand_first(a, b) ? -1 : cand_first(b, a) ? 1 : 0;
}

/*
 * Adds or drops the version link between a and b: the one posted later
 * links, whatever its vN says (a series moved from net to net-next
 * starts again at v1, and that v1 is the newest).
 */
static enum mlq_status
version_link(struct mlq_store *st, const struct cand *a, const struct cand *b,
    bool add, struct mlq_err *err)
{
	const struct cand *src = cand_first(a, b) ? b : a;
	const struct cand *dst = src == a ? b : a;
	sqlite3_stmt *s;
	enum mlq_status rc;

	s = add ? mlq__store_stmt(st, S_RV_LINK_ADD,
		      "INSERT OR IGNORE INTO link(src, dst, kind) "
		      "VALUES (?, ?, ?)",
		      err)
		: mlq__store_stmt(st, S_RV_VERSION_DEL,
		      "DELETE FROM link WHERE src = ? AND dst = ? AND kind = ?",
		      err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, src->id);
	sqlite3_bind_int64(s, 2, dst->id);
	sqlite3_bind_int(s, 3, MLQ_LINK_VERSION);
	if ((rc = mlq__store_step_done(st, s, err, "link versions")) ==
		MLQ_OK &&
	    sqlite3_changes(st->db) > 0) {
		mark(st, a->id);
		mark(st, b->id);
	}
	return rc;
}

/* Whether the later of a and b has the lower version: "v1" after "v3". */
static bool
restarts(const struct cand *a, const struct cand *b)
{
	const struct cand *later = cand_first(a, b) ? b : a;
	const struct cand *earlier = later == a ? b : a;

	return later->version < earlier->version;
}

/*
 * The same author's postings of one title and kind are linked across
 * versions (a cover letter is no version of a patch titled as it is, a
 * pull request only of an earlier pull request): two
 * postings of different versions are linked when either is the first
 * posting of its version.  So every posting meets every other version,
 * a title resent many times costs what its postings do, not their square,
 * and the links do not depend on the order mail arrives in: when a new
 * posting becomes the first of its version, the one it displaces keeps
 * only its links to the other versions' first postings.
 */
static enum mlq_status
link_versions(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    int kind, struct mlq_err *err)
{
	struct mlq_arena *a;
	struct cand *v = NULL;
	const struct cand *self = NULL, *was = NULL;
	bool *first = NULL, self_first;
	sqlite3_stmt *s;
	enum mlq_status rc;
	size_t n = 0, i;

	if (m->subj.norm == NULL || *m->subj.norm == '\0')
		return MLQ_OK;
	if ((a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	s = mlq__store_stmt(st, S_RV_VERSIONS,
	    CAND_COLS "WHERE norm = ? AND from_email = ? AND kind > 0 AND "
	    "kind = ?",
	    err);
	if (s == NULL) {
		rc = MLQ_EDB;
		goto out;
	}
	mlq__store_bind_text(s, 1, m->subj.norm);
	mlq__store_bind_text(s, 2, m->from.email ? m->from.email : "");
	sqlite3_bind_int(s, 3, kind);
	if ((rc = cands_load(st, s, a, &v, &n, err)) != MLQ_OK || n < 2)
		goto out;
	qsort(v, n, sizeof(*v), cand_cmp_version);
	if ((first = mlq_arena_alloc(a, n * sizeof(*first))) == NULL) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		first[i] = i == 0 || v[i].version != v[i - 1].version;
		if (v[i].id == id)
			self = &v[i];
	}
	if (self == NULL) /* not stored as a patch of this title */
		goto out;
	self_first = first[self - v];
	/* A resend changes the status of the postings it repeats. */
	for (i = 0; i < n; i++)
		if (v[i].version == self->version && &v[i] != self)
			mark(st, v[i].id);
	/* The posting self displaces as the first of its version. */
	if (self_first && self + 1 < v + n && self[1].version == self->version)
		was = self + 1;
	for (i = 0; rc == MLQ_OK && i < n; i++) {
		if (v[i].version == self->version)
			continue;
		/* A cover's title is often generic ("Update NFSD XDR
		 * functions" began a new series as v1 after a v3): a later
		 * cover of a lower version is a version only when a patch
		 * of its series is one (link_series_versions). */
		if (kind == 2 && restarts(self, &v[i]))
			continue;
		if (self_first || first[i])
			rc = version_link(st, self, &v[i], true, err);
		if (rc == MLQ_OK && was != NULL && !first[i])
			rc = version_link(st, was, &v[i], false, err);
	}
out:
	mlq_arena_free(a);
	return rc;
}

/* A sketch as stored (schema/016) back into hashes; their count. */
static size_t
sketch_read(sqlite3_stmt *s, int col, uint64_t h[MLQ__SKETCH_MAX])
{
	const unsigned char *b = sqlite3_column_blob(s, col);
	size_t n = (size_t)sqlite3_column_bytes(s, col) / 8, i, k;

	if (b == NULL || n > MLQ__SKETCH_MAX)
		return 0;
	for (i = 0; i < n; i++)
		for (h[i] = 0, k = 0; k < 8; k++)
			h[i] |= (uint64_t)b[i * 8 + k] << (8 * k);
	return n;
}

/*
 * The distinct words of a title after its subsystem prefix ("mt7601u:
 * null check the allocation" -> null, check, allocation), into w; their
 * count.
 */
static size_t
title_words(const char *t, const char *w[16], size_t wn[16])
{
	static const char stop[] =
	    " a an the of in on for to and or with from by is be at as it ";
	const char *p = strrchr(t, ':'), *e;
	char key[40];
	size_t n = 0, k, i;

	for (p = p ? p + 1 : t; *p != '\0' && n < 16; p = e) {
		while (*p != '\0' && !isalnum((unsigned char)*p) && *p != '_')
			p++;
		for (e = p; isalnum((unsigned char)*e) || *e == '_'; e++)
			;
		k = (size_t)(e - p);
		if (k == 0)
			continue;
		if (k + 3 <= sizeof(key)) {
			key[0] = ' ';
			memcpy(key + 1, p, k);
			key[k + 1] = ' ';
			key[k + 2] = '\0';
			if (strstr(stop, key) != NULL)
				continue;
		}
		for (i = 0; i < n; i++)
			if (wn[i] == k && memcmp(w[i], p, k) == 0)
				break;
		if (i == n) { /* each word once, so "alike" is symmetric */
			w[n] = p;
			wn[n++] = k;
		}
	}
	return n;
}

/*
 * Whether two titles say much the same: half the words of the shorter
 * are in the other ("Fix memory leak in X" and "Fix memory leaks in X
 * and Y"), the subsystem prefix aside (it is what a retitle changes).
 */

/*
 * How alike two titles are: half the shorter title's words shared, or
 * with 'close' three quarters of the longer's ("Remove ifdef X_V4 from
 * nfsV4.2 ..." against "Remove ifdef X from NFSv4.2 ...").
 */
static bool
title_overlap(const char *a, const char *b, bool close)
{
	const char *wa[16], *wb[16];
	size_t na, nb, la[16], lb[16], i, j, both = 0;

	na = title_words(a, wa, la);
	nb = title_words(b, wb, lb);
	if (na == 0 || nb == 0)
		return false;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (la[i] == lb[j] && memcmp(wa[i], wb[j], la[i]) == 0) {
				both++;
				break;
			}
	if (close)
		return 4 * both >= 3 * (na > nb ? na : nb);
	return 2 * both >= (na < nb ? na : nb);
}

/* Whether two titles are alike enough for a retitled patch. */
static bool
titles_alike(const char *a, const char *b)
{
	return title_overlap(a, b, false);
}

/* Whether stored posting id changes exactly the files of m. */
static enum mlq_status
same_files(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    bool *yes, struct mlq_err *err)
{
	sqlite3_stmt *s;
	size_t n = 0, i;
	int rc;

	*yes = true;
	s = mlq__store_stmt(st, S_RV_FILES,
	    "SELECT path FROM file WHERE msg = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	while (*yes && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *path = col_str(s, 0);

		for (i = 0; i < m->patch.nfiles; i++)
			if (strcmp(m->patch.files[i].path, path) == 0)
				break;
		*yes = i < m->patch.nfiles;
		n++;
	}
	if (!*yes)
		rc = SQLITE_DONE; /* stopped early: a file m does not change */
	*yes = *yes && n == m->patch.nfiles;
	return mlq__store_rows_done(st, s, rc, err, "read files");
}

/*
 * A patch retitled on request ("mt7601u:" for "mt76_init_sband_2g:", a
 * typo fixed) is still a version of the earlier one when the author and
 * the files are the same, most of the changed lines (their sketches), and
 * half the title's words.
 * Candidates are the postings of the most specific file by the same
 * author within a year either way; the index file_poster gives their
 * titles, and only those alike are read from msg.
 */
static enum mlq_status
link_retitled(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	uint64_t mine[MLQ__SKETCH_MAX], theirs[MLQ__SKETCH_MAX];
	struct mlq_arena *a;
	struct cand self, *v = NULL, *c;
	const char *path = NULL;
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	size_t nmine, n = 0, i, k;
	int step;
	bool yes;

	if (!m->is_patch || !m->date_ok || m->subj.norm == NULL ||
	    m->patch.diff_start >= m->body_len)
		return MLQ_OK;
	for (i = 0; i < m->patch.nfiles; i++)
		if (path == NULL ||
		    strlen(m->patch.files[i].path) > strlen(path))
			path = m->patch.files[i].path;
	nmine = mlq__patch_sketch(m->body + m->patch.diff_start,
	    m->body_len - m->patch.diff_start, mine);
	if (path == NULL || nmine == 0)
		return MLQ_OK;
	s = mlq__store_stmt(st, S_RV_RETITLED,
	    "SELECT msg, norm FROM file WHERE path = ? AND poster = ? AND "
	    "date BETWEEN ? AND ? AND norm <> ? AND msg <> ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	if ((a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	mlq__store_bind_text(s, 1, path);
	mlq__store_bind_text(s, 2, m->from.email ? m->from.email : "");
	sqlite3_bind_int64(s, 3, m->date - MLQ_REVIEW_RETITLE_WINDOW);
	sqlite3_bind_int64(s, 4, m->date + MLQ_REVIEW_RETITLE_WINDOW);
	mlq__store_bind_text(s, 5, m->subj.norm);
	sqlite3_bind_int64(s, 6, id);
	/* Titles alike, then most of the changed lines: linked below.  A
	 * posting that calls itself vN (N >= 2) under nearly the title of
	 * an earlier one needs only to share a file with it: a new version
	 * may rework every line ("Remove ifdef X_V4" then "v2 ... X"). */
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (!titles_alike(m->subj.norm, col_str(s, 1)))
			continue;
		if ((c = mlq_arena_grow(a, v, n, sizeof(*v))) == NULL)
			break;
		v = c;
		memset(&v[n], 0, sizeof(v[n]));
		/* A lone patch only: a series' siblings share titles
		 * ("TCP flow", "UDP flow") and series link whole. */
		v[n].declared = m->subj.total <= 1 &&
		    title_overlap(m->subj.norm, col_str(s, 1), true);
		v[n++].id = sqlite3_column_int64(s, 0);
	}
	if ((rc = mlq__store_rows_done(st, s, step, err, "find retitled")) !=
	    MLQ_OK)
		goto out;
	s = mlq__store_stmt(st, S_RV_RETITLED_ROW,
	    "SELECT id, version, date, msgid, sketch, total FROM msg "
	    "WHERE id = ? AND kind = 1 AND sketch IS NOT NULL", err);
	if (s == NULL) {
		rc = MLQ_EDB;
		goto out;
	}
	for (i = 0, k = 0; i < n; i++) {
		bool declared = v[i].declared;
		int ver;

		sqlite3_bind_int64(s, 1, v[i].id);
		if ((step = sqlite3_step(s)) == SQLITE_ROW) {
			/* One of the two calls itself v2 or later, the
			 * other a different version (either may come
			 * first). */
			ver = sqlite3_column_int(s, 1);
			declared = declared && sqlite3_column_int(s, 5) <= 1 &&
			    ver != m->subj.version &&
			    (ver >= 2 || m->subj.version >= 2);
		}
		if (step != SQLITE_ROW ||
		    (!declared && mlq__sketch_likeness(mine, nmine, theirs,
				    sketch_read(s, 4, theirs)) < 0.5)) {
			sqlite3_reset(s);
			if (step != SQLITE_ROW && step != SQLITE_DONE) {
				rc = mlq__store_fail(st, err, "read retitled");
				goto out;
			}
			continue;
		}
		c = &v[k];
		c->declared = declared;
		c->id = sqlite3_column_int64(s, 0);
		c->version = sqlite3_column_int(s, 1);
		c->date_ok = true;
		c->date = sqlite3_column_int64(s, 2);
		c->msgid = mlq_arena_strdup(a, col_str(s, 3));
		sqlite3_reset(s);
		if (c->msgid == NULL) {
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
			goto out;
		}
		k++;
	}
	n = k;
	self.id = id;
	self.version = m->subj.version;
	self.date_ok = true;
	self.date = m->date;
	self.msgid = m->msgid;
	for (i = 0; rc == MLQ_OK && i < n; i++)
		if (v[i].declared || ((rc = same_files(st, v[i].id, m, &yes,
					 err)) == MLQ_OK &&
					yes))
			rc = version_link(st, &self, &v[i], true, err);
out:
	mlq_arena_free(a);
	return rc;
}

/* A series: one author's numbered patches (and cover) of one version. */
struct series {
	int64_t thread;
	const char *from;
	int version, total;
	struct cand by_idx[MLQ_REVIEW_SERIES_MAX + 1]; /* 0: the cover */
	bool have[MLQ_REVIEW_SERIES_MAX + 1];
};

/* The series of posting id (a numbered patch or cover), into *sr. */
static enum mlq_status
series_load(struct mlq_store *st, int64_t id, struct mlq_arena *a,
    struct series *sr, bool *found, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc, idx;

	*found = false;
	memset(sr, 0, sizeof(*sr));
	s = mlq__store_stmt(st, S_RV_SERIES_ROW,
	    "SELECT thread, from_email, version, total FROM msg "
	    "WHERE id = ? AND kind IN (1, 2) AND total BETWEEN 2 AND ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, MLQ_REVIEW_SERIES_MAX);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		sr->thread = sqlite3_column_int64(s, 0);
		sr->from = mlq_arena_strdup(a, col_str(s, 1));
		sr->version = sqlite3_column_int(s, 2);
		sr->total = sqlite3_column_int(s, 3);
		*found = sr->from != NULL;
		rc = SQLITE_DONE;
	}
	if (mlq__store_rows_done(st, s, rc, err, "read series") != MLQ_OK)
		return MLQ_EDB;
	if (!*found)
		return MLQ_OK;
	s = mlq__store_stmt(st, S_RV_SERIES_MEMBERS,
	    "SELECT id, idx, date, msgid FROM msg WHERE kind > 0 AND "
	    "from_email = ? AND version = ? AND total = ? AND thread = ? AND "
	    "kind IN (1, 2)",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, sr->from);
	sqlite3_bind_int(s, 2, sr->version);
	sqlite3_bind_int(s, 3, sr->total);
	sqlite3_bind_int64(s, 4, sr->thread);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		idx = sqlite3_column_int(s, 1);
		if (idx < 0 || idx > sr->total || sr->have[idx])
			continue; /* a resend within the thread: the first */
		sr->by_idx[idx].id = sqlite3_column_int64(s, 0);
		sr->by_idx[idx].version = sr->version;
		sr->by_idx[idx].date_ok = sqlite3_column_type(s, 2) !=
		    SQLITE_NULL;
		sr->by_idx[idx].date = sqlite3_column_int64(s, 2);
		sr->by_idx[idx].msgid = mlq_arena_strdup(a, col_str(s, 3));
		sr->have[idx] = sr->by_idx[idx].msgid != NULL;
	}
	return mlq__store_rows_done(st, s, rc, err, "read series");
}

/* Whether postings a and b change files of a directory in common. */
static enum mlq_status
share_file(struct mlq_store *st, int64_t a, int64_t b, bool *yes,
    struct mlq_err *err)
{
	sqlite3_stmt *s = mlq__store_stmt(st, S_RV_SHARE_FILE,
	    /* rtrim(p, replace(p, '/', '')): p up to its last '/' */
	    "SELECT 1 FROM file x JOIN file y ON "
	    "rtrim(y.path, replace(y.path, '/', '')) = "
	    "rtrim(x.path, replace(x.path, '/', '')) "
	    "WHERE x.msg = ? AND y.msg = ? LIMIT 1",
	    err);

	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, a);
	sqlite3_bind_int64(s, 2, b);
	return has_row(st, s, yes, err);
}

/*
 * Two postings of a series are versions of each other (by title, or by
 * their diffs when retitled): then the series are, whole.  Each patch is
 * linked to the other series' patch of its number and the covers to each
 * other, though a patch or the cover was retitled past what the other
 * rules see ("enhance NFSv4.2 SSC to delay unmount" became "NFSD: delay
 * unmount source's export").  Run as any posting of either series
 * arrives, so arrival order does not matter.
 */
static enum mlq_status
link_series_versions(struct mlq_store *st, int64_t id, struct mlq_err *err)
{
	struct mlq_arena *a;
	struct series *mine, *other;
	struct ids others = { 0 };
	sqlite3_stmt *s;
	enum mlq_status rc;
	size_t o;
	int i, step;
	bool found;

	if ((a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	mine = mlq_arena_alloc(a, sizeof(*mine));
	other = mlq_arena_alloc(a, sizeof(*other));
	if (mine == NULL || other == NULL) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = series_load(st, id, a, mine, &found, err)) != MLQ_OK ||
	    !found)
		goto out;
	/* The postings its members are versions of. */
	s = mlq__store_stmt(st, S_RV_SERIES_LINKED,
	    "SELECT CASE WHEN k.src = m.id THEN k.dst ELSE k.src END "
	    "FROM msg m JOIN link k ON k.kind = 3 AND "
	    "(k.src = m.id OR k.dst = m.id) WHERE m.kind > 0 AND "
	    "m.from_email = ? AND m.version = ? AND m.total = ? AND "
	    "m.thread = ?",
	    err);
	if (s == NULL) {
		rc = MLQ_EDB;
		goto out;
	}
	mlq__store_bind_text(s, 1, mine->from);
	sqlite3_bind_int(s, 2, mine->version);
	sqlite3_bind_int(s, 3, mine->total);
	sqlite3_bind_int64(s, 4, mine->thread);
	while ((step = sqlite3_step(s)) == SQLITE_ROW)
		mlq__ids_add(&others, sqlite3_column_int64(s, 0));
	if ((rc = mlq__store_rows_done(st, s, step, err, "series links")) !=
	    MLQ_OK)
		goto out;
	if (others.oom) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	for (o = 0; rc == MLQ_OK && o < others.n; o++) {
		if ((rc = series_load(st, others.v[o], a, other, &found,
			 err)) != MLQ_OK ||
		    !found)
			continue;
		if (other->total != mine->total ||
		    (other->thread == mine->thread &&
			other->version == mine->version))
			continue;
		for (i = 0; rc == MLQ_OK && i <= mine->total; i++) {
			if (!mine->have[i] || !other->have[i])
				continue;
			/* In the same place of a same-sized series, a
			 * patch of other directories is no version of
			 * it (fscache's 28/32 and NFS's 28/32). */
			if (i > 0 && (rc = share_file(st, mine->by_idx[i].id,
					  other->by_idx[i].id, &found, err)) !=
				MLQ_OK)
				break;
			if (i == 0 || found)
				rc = version_link(st, &mine->by_idx[i],
				    &other->by_idx[i], true, err);
		}
	}
out:
	free(others.v);
	mlq_arena_free(a);
	return rc;
}

/* A revert by any spelling ("Partially Revert "...") is tagged one. */
static enum mlq_status
mark_revert(struct mlq_store *st, int64_t id, struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_RV_MARK_REVERT,
	    "UPDATE msg SET own_tags = own_tags | ? WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int(s, 1, MLQ_TAG_REVERT);
	sqlite3_bind_int64(s, 2, id);
	return mlq__store_step_done(st, s, err, "tag revert");
}

/*
 * msg_series (schema/005) is partial: SQLite uses it only when the query
 * repeats its WHERE word for word.
 */
#define SERIES_PARTIAL "kind > 0"

/* A series in a thread: thread, author, version, size as parameters 1-4. */
static void
bind_series(sqlite3_stmt *s, int64_t thread, const char *from, int version,
    int total)
{
	sqlite3_bind_int64(s, 1, thread);
	mlq__store_bind_text(s, 2, from);
	sqlite3_bind_int(s, 3, version);
	sqlite3_bind_int(s, 4, total);
}

/* Whether thread holds the cover letter of a series (author, version, size). */
static enum mlq_status
own_cover(struct mlq_store *st, int64_t thread, const char *from, int version,
    int total, bool *yes, struct mlq_err *err)
{
	sqlite3_stmt *s;

	/* From msg_series alone: the author's cover letters of this
	 * version and size are fewer than a thread's rows, which lie
	 * scattered over msg. */
	s = mlq__store_stmt(st, S_RV_OWN_COVER,
	    "SELECT 1 FROM msg WHERE thread = ? AND kind = 2 AND "
	    "from_email = ? AND version = ? AND total = ? AND "
	    SERIES_PARTIAL " LIMIT 1",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	bind_series(s, thread, from, version, total);
	return has_row(st, s, yes, err);
}

/*
 * A cover letter arrived in a thread whose patches, stored before it,
 * linked to another thread's cover: they have their own now.  Both ends
 * are re-derived.
 */
static enum mlq_status
unlink_own_patches(struct mlq_store *st, int64_t thread, const char *from,
    int version, int total, struct mlq_err *err)
{
	struct ids pairs = { 0 };
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	size_t i;
	int step;

	s = mlq__store_stmt(st, S_RV_OWN_PATCH_LINKS,
	    "SELECT k.src, k.dst FROM msg p JOIN link k ON k.src = p.id AND "
	    "k.kind = 4 WHERE p.thread = ? AND p.kind = 1 AND "
	    "p.from_email = ? AND p.version = ? AND p.total = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	bind_series(s, thread, from, version, total);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		mlq__ids_add(&pairs, sqlite3_column_int64(s, 0));
		mlq__ids_add(&pairs, sqlite3_column_int64(s, 1));
	}
	rc = mlq__store_rows_done(st, s, step, err, "read series");
	if (rc == MLQ_OK && pairs.oom)
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	for (i = 0; rc == MLQ_OK && i + 1 < pairs.n; i += 2) {
		/* One row each: a multi-row change would flush FTS5. */
		s = mlq__store_stmt(st, S_RV_LINK_DEL_ONE,
		    "DELETE FROM link WHERE src = ? AND dst = ? AND kind = 4",
		    err);
		if (s == NULL) {
			rc = MLQ_EDB;
			break;
		}
		sqlite3_bind_int64(s, 1, pairs.v[i]);
		sqlite3_bind_int64(s, 2, pairs.v[i + 1]);
		rc = mlq__store_step_done(st, s, err, "unlink series");
		mark(st, pairs.v[i]);
		mark(st, pairs.v[i + 1]);
	}
	free(pairs.v);
	return rc;
}

/*
 * A series whose patches do not thread under its cover letter: each
 * patch links to the same author's cover letter of the same version and
 * size sent closest in time (within MLQ_REVIEW_SERIES_WINDOW), unless
 * its own thread has one.  Either side may arrive first.
 */
static enum mlq_status
link_series(struct mlq_store *st, int64_t id, const struct mlq_msg *m, int kind,
    struct mlq_err *err)
{
	struct ids other = { 0 };
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	int64_t best = 0, bd = 0, d, thread = 0, t;
	const char *from = m->from.email ? m->from.email : "";
	int version = m->subj.version > 0 ? m->subj.version : 1;
	bool linked, has;
	size_t i;

	if ((kind != 1 && kind != 2) || m->subj.total <= 0 || !m->date_ok ||
	    (kind == 1 && m->subj.index <= 0))
		return MLQ_OK;
	s = mlq__store_stmt(st, S_RV_THREAD_OF,
	    "SELECT thread FROM msg WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		thread = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (kind == 1) {
		if ((rc = own_cover(st, thread, from, version, m->subj.total,
			 &has, err)) != MLQ_OK ||
		    has)
			return rc;
	} else if ((rc = unlink_own_patches(st, thread, from, version,
			m->subj.total, err)) != MLQ_OK)
		return rc;
	/* Cover letters (for a patch) or patches (for one) sent near it. */
	s = mlq__store_stmt(st,
	    kind == 1 ? S_RV_COVERS_NEAR : S_RV_PATCHES_NEAR,
	    kind == 1
		? "SELECT id, date, thread FROM msg WHERE from_email = ? AND "
		  "version = ? AND total = ? AND kind = 2 AND date BETWEEN ? "
		  "AND ? AND thread <> ? AND " SERIES_PARTIAL
		: "SELECT id, date, thread FROM msg WHERE from_email = ? AND "
		  "version = ? AND total = ? AND kind = 1 AND idx > 0 AND date "
		  "BETWEEN ? AND ? AND thread <> ? AND " SERIES_PARTIAL,
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, from);
	sqlite3_bind_int(s, 2, version);
	sqlite3_bind_int(s, 3, m->subj.total);
	sqlite3_bind_int64(s, 4, m->date - MLQ_REVIEW_SERIES_WINDOW);
	sqlite3_bind_int64(s, 5, m->date + MLQ_REVIEW_SERIES_WINDOW);
	sqlite3_bind_int64(s, 6, thread);
	while (sqlite3_step(s) == SQLITE_ROW) {
		d = sqlite3_column_int64(s, 1) - m->date;
		d = d < 0 ? -d : d;
		if (kind == 2) {
			/* Patches are listed with their thread, to ask below. */
			mlq__ids_add(&other, sqlite3_column_int64(s, 0));
			mlq__ids_add(&other, sqlite3_column_int64(s, 2));
		} else if (best == 0 || d < bd) {
			best = sqlite3_column_int64(s, 0);
			bd = d;
		}
	}
	sqlite3_reset(s);
	if (kind == 1 && best != 0) {
		mlq__ids_add(&other, best);
		mlq__ids_add(&other, 0);
	}
	for (i = 0; rc == MLQ_OK && i + 1 < other.n; i += 2) {
		/* A patch whose own thread has its cover letter needs none. */
		t = other.v[i + 1];
		if (kind == 2 &&
		    (rc = own_cover(st, t, from, version, m->subj.total, &has,
			 err)) == MLQ_OK &&
		    has)
			continue;
		/*
		 * A patch keeps the first cover letter found for it.  Asked
		 * apart: an INSERT ... SELECT would open a statement savepoint,
		 * and that makes FTS5 flush its pending rows into a segment of
		 * their own each time.
		 */
		if (rc == MLQ_OK)
			rc = exists(st, S_RV_SERIES_OF,
			    "SELECT 1 FROM link WHERE src = ? AND kind = 4 LIMIT 1",
			    kind == 1 ? id : other.v[i], &linked, err);
		if (rc != MLQ_OK || linked)
			continue;
		s = mlq__store_stmt(st, S_RV_LINK_ADD,
		    "INSERT OR IGNORE INTO link(src, dst, kind) VALUES (?, ?, ?)",
		    err);
		if (s == NULL) {
			rc = MLQ_EDB;
			break;
		}
		sqlite3_bind_int64(s, 1, kind == 1 ? id : other.v[i]);
		sqlite3_bind_int64(s, 2, kind == 1 ? other.v[i] : id);
		sqlite3_bind_int(s, 3, MLQ_LINK_SERIES);
		rc = mlq__store_step_done(st, s, err, "link series");
		if (rc == MLQ_OK)
			mark(st, other.v[i]);
	}
	if (rc == MLQ_OK && other.oom)
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	free(other.v);
	return rc;
}

/* The hex id at the end of line p[0..n): "commit: 0123abcd", or a url's
 * ".../c/0123abcd", ".../commit/0123abcd" or "...?id=0123abcd"; 7 to 40
 * digits, lower-cased. */
static bool
line_commit(const char *p, size_t n, char out[41])
{
	size_t e = n, b, i;

	while (e > 0 && (p[e - 1] == ' ' || p[e - 1] == '\t' ||
			    p[e - 1] == '\r'))
		e--;
	for (b = e; b > 0 && is_hex(p[b - 1]); b--)
		;
	if (e - b < 7 || e - b > 40 || b == 0)
		return false;
	if (!(b >= 8 && memcmp(p + b - 8, "commit: ", 8) == 0) &&
	    !(b >= 3 && memcmp(p + b - 3, "/c/", 3) == 0) &&
	    !(b >= 8 && memcmp(p + b - 8, "/commit/", 8) == 0) &&
	    !(b >= 3 && memcmp(p + b - 3, "id=", 3) == 0))
		return false;
	for (i = b; i < e; i++)
		out[i - b] = (char)tolower((unsigned char)p[i]);
	out[e - b] = '\0';
	return true;
}

static enum mlq_status
named_put(struct mlq_store *st, int64_t id, int idx, const char *norm,
    const char *oid, struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_RV_NAMED_COMMIT,
	    "INSERT OR IGNORE INTO named_commit(msg, idx, norm, oid) "
	    "VALUES (?, ?, ?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, idx);
	mlq__store_bind_text(s, 3, norm);
	mlq__store_bind_text(s, 4, oid);
	return mlq__store_step_done(st, s, err, "store named commit");
}

/*
 * "Applied as 0123abcd", "queued ... as commit 0123abcd": the id a
 * maintainer gives the patch answered, in the reply's own text.
 */
static bool
line_applied_as(const char *p, size_t n, char out[41])
{
	static const char *const verbs[] = { "applied", "merged", "queued",
		"pushed", "committed", "up" /* picked up */ };
	const char *q, *w, *h, *end = p + n;
	size_t i, k, len;
	bool verb;

	if (n > 0 && p[0] == '>')
		return false;
	/* One pass for " as ": most lines have none. */
	for (q = p + 1; q + 3 <= end; q++) {
		if (q[-1] != ' ' || (q[0] | 0x20) != 'a' || (q[1] | 0x20) != 's' ||
		    q[2] != ' ')
			continue;
		for (w = q - 1; w > p && isalpha((unsigned char)w[-1]); w--)
			;
		k = (size_t)(q - 1 - w);
		for (i = 0, verb = false; !verb && i < MLQ__ARRAY_SIZE(verbs);
		     i++)
			verb = k == strlen(verbs[i]) &&
			    strncasecmp(w, verbs[i], k) == 0;
		h = q + 3;
		if ((size_t)(end - h) > 7 && strncasecmp(h, "commit ", 7) == 0)
			h += 7;
		else if (!verb)
			continue;
		for (len = 0; h + len < end && len <= 40 && is_hex(h[len]);)
			len++;
		/* A whole word of hex digits, not the start of a longer one. */
		if (len < 7 || len > 40 ||
		    (h + len < end && isalnum((unsigned char)h[len])))
			continue;
		for (i = 0; i < len; i++)
			out[i] = (char)tolower((unsigned char)h[i]);
		out[len] = '\0';
		return true;
	}
	return false;
}

/*
 * "[1/3] title" and below it "commit: ID" (b4 ty), or "- [net,1/3]
 * title" and a link ending in "/c/ID" (the netdev bot): which commit each
 * patch of the thread became, kept for the commits of a tree to find.
 */
static enum mlq_status
named_commits(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    struct mlq_err *err)
{
	const char *p = m->body, *end = m->body + m->body_len, *eol, *t;
	const char *title = NULL;
	size_t tlen = 0, n;
	struct mlq_arena *a = NULL;
	enum mlq_status rc = MLQ_OK;
	char oid[41], *tbuf;
	int idx = 0;

	if (p == NULL)
		return MLQ_OK;
	for (; p < end && rc == MLQ_OK; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		n = (size_t)(eol - p);
		/* "Applied as ID": the patch this answers, by its title. */
		if (m->subj.title != NULL && line_applied_as(p, n, oid)) {
			if (a == NULL && (a = mlq_arena_new()) == NULL)
				return mlq_err_set(err, MLQ_ENOMEM,
				    "out of memory");
			rc = named_put(st, id, m->subj.index,
			    title_norm(a, m->subj.title), oid, err);
			continue;
		}
		/* "[1/3] title", "  - [net,1/3] title": a bullet at most. */
		for (t = p; t < eol && *t == ' '; t++)
			;
		if (eol - t >= 2 && (*t == '-' || *t == '*') && t[1] == ' ')
			for (t += 2; t < eol && *t == ' '; t++)
				;
		if (t < eol && *t == '[' && memchr(t, ']', (size_t)(eol - t))) {
			const char *close = memchr(t, ']', (size_t)(eol - t));
			const char *slash = memchr(t, '/',
			    (size_t)(close - t));
			const char *d = slash;

			/* The i of "[i/n]" or "[net,i/n]". */
			idx = 0;
			while (d != NULL && d > t && d[-1] >= '0' &&
			    d[-1] <= '9')
				d--;
			if (slash != NULL && d < slash)
				idx = atoi(d);
			title = close + 1;
			while (title < eol && *title == ' ')
				title++;
			tlen = (size_t)(eol - title);
			continue;
		}
		/* The id comes on the line right after the title. */
		if (title == NULL || tlen == 0 || !line_commit(p, n, oid)) {
			title = NULL;
			continue;
		}
		if (a == NULL && (a = mlq_arena_new()) == NULL)
			return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		if ((tbuf = mlq_arena_strndup(a, title, tlen)) == NULL) {
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
			break;
		}
		rc = named_put(st, id, idx, title_norm(a, tbuf), oid, err);
		title = NULL;
	}
	mlq_arena_free(a);
	return rc;
}

enum mlq_status
mlq__review_put(struct mlq_store *st, int64_t id, const struct mlq_msg *m,
    int kind, struct mlq_err *err)
{
	struct mlq_arena *a;
	char commit[41], fcommit[41];
	const char *title, *norm;
	bool has_commit, has_fix = false;
	enum mlq_status rc = MLQ_OK;
	size_t i;

	mark(st, id);
	if (kind == 0)
		return named_commits(st, id, m, err);
	if ((a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	/* A revert names its original by title and commit id. */
	has_commit = reverted_commit(m, commit);
	title = m->subj.revert_depth > 0
	    ? m->subj.reverted
	    : revert_title(a, m->subj.title ? m->subj.title : "");
	if (title != NULL || has_commit) {
		norm = title_norm(a, title);
		if ((rc = ref_add(st, m, id, MLQ_LINK_REVERT, norm,
			 has_commit ? commit : NULL, err)) != MLQ_OK ||
		    (rc = mark_revert(st, id, err)) != MLQ_OK ||
		    (rc = resolve(st, id, MLQ_LINK_REVERT, NULL, err)) !=
			MLQ_OK)
			goto out;
	}
	for (i = 0; i < m->ntrailers; i++) {
		if (strcmp(m->trailers[i].key, "Fixes") != 0)
			continue;
		parse_fixes(a, m->trailers[i].value, fcommit, &has_commit,
		    &title);
		rc = ref_add(st, m, id, MLQ_LINK_FIXES, title_norm(a, title),
		    has_commit ? fcommit : NULL, err);
		if (rc != MLQ_OK)
			goto out;
		has_fix = true;
	}
	if (has_fix &&
	    (rc = resolve(st, id, MLQ_LINK_FIXES, NULL, err)) != MLQ_OK)
		goto out;
	if ((rc = resolve_naming(st, id, m->subj.norm ? m->subj.norm : "",
		 m->commit, err)) != MLQ_OK)
		goto out;
	if ((rc = link_versions(st, id, m, kind, err)) != MLQ_OK)
		goto out;
	if (kind == 1 && (rc = link_retitled(st, id, m, err)) != MLQ_OK)
		goto out;
	if ((rc = link_series(st, id, m, kind, err)) != MLQ_OK)
		goto out;
	rc = link_series_versions(st, id, err);
out:
	mlq_arena_free(a);
	return rc;
}

/* ---- deriving a thread ---- */

struct rv_node {
	int64_t id; /* 0 for a ghost */
	const char *msgid;
	const char *parent;
	const char *from;
	const char *name; /* the From: display name, "" when none */
	/* A patch's author where its body names another ("From: X" atop
	 * the message: a patch sent on X's behalf); "" when none. */
	const char *author, *author_name;
	int kind, version, idx, total;
	unsigned own, tags, old_tags;
	unsigned relayed; /* ack/reviewed/tested trailers naming another */
	bool patch_subject; /* "[PATCH", "[RFC" in its subject */
	const char *asked;   /* the sentence of its question */
	const char *request; /* ... of its (first) change request */
	bool by_name;	   /* ... put to someone by name: "Bruce, any ...?" */
	const char *greeted; /* the name its first line greets ("Hi Tony,") */
	bool asks_you; /* its change request speaks to "you" ("can you") */
	bool argues;   /* ... only says what should be, to quoted prose */
	bool on_code;  /* ... is said on a quoted hunk of the diff */
	bool prose;    /* a submission with no diff nor "PATCH": "[RFC] ..." */
	int status, old_status;
	int up;	   /* the parent's node, -1 */
	int sub;   /* the submission a reply belongs to (itself for one) */
	int cover; /* a series patch's cover letter, -1 */
	int64_t cover_id; /* its cover letter in another thread (link 4) */
	bool date_ok;
	int64_t date;
	int64_t first, old_first; /* first answer by another; -1: none */
	int64_t thread;
	unsigned acc;  /* a submission's own replies' tags */
	bool answered; /* its submitter replied below it */
	/* A maintainer's marks (mlq mark): tags given, taken away; status. */
	unsigned mark_add, mark_del;
	int mark_status; /* 0: none */
};

/* A node's Message-Id and index, sorted for lookups. */
struct rv_key {
	const char *msgid;
	int i;
};

struct rv_thread {
	struct mlq_arena *a;
	struct rv_node *n;
	size_t count;
	struct rv_key *order; /* the nodes by Message-Id */
};

static int
cmp_key(const void *x, const void *y)
{
	return strcmp(((const struct rv_key *)x)->msgid,
	    ((const struct rv_key *)y)->msgid);
}

static int
find_node(const struct rv_thread *t, const char *msgid)
{
	size_t lo = 0, hi = t->count, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(t->order[mid].msgid, msgid);
		if (c == 0)
			return t->order[mid].i;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static struct rv_node *
node_add(struct rv_thread *t)
{
	struct rv_node *n;

	t->n = mlq_arena_grow(t->a, t->n, t->count, sizeof(*t->n));
	if (t->n == NULL)
		return NULL;
	n = &t->n[t->count++];
	memset(n, 0, sizeof(*n));
	n->up = n->sub = n->cover = -1;
	n->author = n->author_name = "";
	return n;
}

static const char *
adup(struct mlq_arena *a, sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NULL;
	return mlq_arena_strdup(a, col_str(s, i));
}

static int
cmp_from(const void *x, const void *y)
{
	return strcasecmp((*(struct rv_node *const *)x)->from,
	    (*(struct rv_node *const *)y)->from);
}

/*
 * Who a mail is from, where its own headers do not say it all, so that
 * the same person writing from a second address is known:
 * - a mail with no display name takes the name its address bears
 *   elsewhere in the thread ("Chuck Lever <cel@kernel.org>");
 * - a cover letter is its patches' author's when every patch sent from
 *   its address names the same one ("From: Chuck Lever
 *   <chuck.lever@oracle.com>" atop each patch sent from cel@kernel.org).
 */
static enum mlq_status
lend_names(struct rv_thread *t, struct mlq_err *err)
{
	struct rv_node **by, *n, *patch;
	size_t i, j, k;

	if (t->count == 0)
		return MLQ_OK;
	if ((by = mlq_arena_alloc(t->a, t->count * sizeof(*by))) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	for (i = 0; i < t->count; i++)
		by[i] = &t->n[i];
	qsort(by, t->count, sizeof(*by), cmp_from);
	/* by[i..j): one address, its name, the author its patches name. */
	for (i = 0; i < t->count; i = j) {
		const char *name = "";
		bool mixed = false;

		patch = NULL;
		for (j = i; j < t->count && cmp_from(&by[i], &by[j]) == 0; j++) {
			n = by[j];
			/* The same whatever order the rows come in. */
			if (*n->name != '\0' &&
			    (*name == '\0' || strcmp(n->name, name) < 0))
				name = n->name;
			if (n->kind != 1)
				continue;
			if (*n->author == '\0' || (patch != NULL &&
				strcasecmp(patch->author, n->author) != 0))
				mixed = true;
			if (patch == NULL ||
			    strcmp(n->author_name, patch->author_name) < 0)
				patch = n;
		}
		if (*by[i]->from == '\0')
			continue;
		for (k = i; k < j; k++) {
			n = by[k];
			if (*n->name == '\0')
				n->name = name;
			if (n->kind == 2 && *n->author == '\0' &&
			    patch != NULL && !mixed) {
				n->author = patch->author;
				n->author_name = patch->author_name;
			}
		}
	}
	return MLQ_OK;
}

static enum mlq_status
thread_load(struct mlq_store *st, int64_t thread, struct rv_thread *t,
    struct mlq_err *err)
{
	struct rv_node *n;
	sqlite3_stmt *s;
	enum mlq_status st_rc;
	int rc;

	s = mlq__store_stmt(st, S_RV_LOAD,
	    "SELECT id, msgid, parent, from_email, kind, version, idx, total, "
	    "own_tags, tags, status, (SELECT dst FROM link WHERE src = msg.id "
	    "AND kind = 4), date, first_review, from_name, "
	    /* Trailers given for someone else ("forgot the tag:"). */
	    "(SELECT coalesce(max(t.key = 'Acked-by'), 0) * 2 + "
	    "coalesce(max(t.key = 'Reviewed-by'), 0) * 4 + "
	    "coalesce(max(t.key = 'Tested-by'), 0) * 8 FROM trailer t "
	    "WHERE t.msg = msg.id AND t.email <> msg.from_email), "
	    "(SELECT line FROM evidence WHERE msg = msg.id AND tag = 16), "
	    "(SELECT 1 FROM evidence WHERE msg = msg.id AND rule = '"
	    MLQ__RULE_QUESTION_TO_NAME "'), "
	    "(SELECT line FROM evidence WHERE msg = msg.id AND rule = '"
	    MLQ__RULE_GREETING "'), "
	    "instr(upper(subject), '[PATCH') + instr(upper(subject), '[RFC'), "
	    "(SELECT rule IN ('" MLQ__RULE_CAN_YOU "', '" MLQ__RULE_YOU_SHOULD
	    "', '" MLQ__RULE_PLEASE "', '" MLQ__RULE_PLEASE_DO "', '"
	    MLQ__RULE_ASK_YOU "') "
	    "FROM evidence WHERE msg = msg.id AND tag = 32), "
	    "(SELECT 1 FROM evidence WHERE msg = msg.id AND rule = '"
	    MLQ__RULE_ARGUES "'), "
	    "coalesce(author_email, ''), coalesce(author_name, ''), "
	    "(SELECT 1 FROM evidence WHERE msg = msg.id AND rule = '"
	    MLQ__RULE_ON_CODE "'), "
	    "kind = 1 AND patch_id IS NULL AND insertions + deletions = 0 AND "
	    "instr(upper(subject), 'PATCH') = 0, "
	    "(SELECT line FROM evidence WHERE msg = msg.id AND tag = 32) "
	    "FROM msg WHERE thread = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, thread);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if ((n = node_add(t)) == NULL)
			break;
		n->id = sqlite3_column_int64(s, 0);
		n->msgid = adup(t->a, s, 1);
		n->parent = adup(t->a, s, 2);
		n->from = adup(t->a, s, 3);
		n->kind = sqlite3_column_int(s, 4);
		n->version = sqlite3_column_int(s, 5);
		n->idx = sqlite3_column_int(s, 6);
		n->total = sqlite3_column_int(s, 7);
		n->own = (unsigned)sqlite3_column_int(s, 8);
		n->old_tags = (unsigned)sqlite3_column_int(s, 9);
		n->old_status = sqlite3_column_int(s, 10);
		n->cover_id = sqlite3_column_int64(s, 11);
		n->date_ok = sqlite3_column_type(s, 12) != SQLITE_NULL;
		n->date = sqlite3_column_int64(s, 12);
		n->old_first = sqlite3_column_type(s, 13) == SQLITE_NULL
		    ? -1
		    : sqlite3_column_int64(s, 13);
		n->first = n->old_first;
		n->thread = thread;
		n->name = adup(t->a, s, 14);
		n->relayed = (unsigned)sqlite3_column_int(s, 15);
		n->asked = adup(t->a, s, 16);
		n->by_name = sqlite3_column_int(s, 17) != 0;
		n->greeted = adup(t->a, s, 18);
		n->patch_subject = sqlite3_column_int(s, 19) != 0;
		n->asks_you = sqlite3_column_int(s, 20) != 0;
		n->argues = sqlite3_column_int(s, 21) != 0;
		n->author = adup(t->a, s, 22);
		n->author_name = adup(t->a, s, 23);
		n->on_code = sqlite3_column_int(s, 24) != 0;
		n->prose = sqlite3_column_int(s, 25) != 0;
		n->request = adup(t->a, s, 26);
		if (n->msgid == NULL || n->from == NULL || n->name == NULL ||
		    n->author == NULL || n->author_name == NULL)
			break;
	}
	if ((st_rc = mlq__store_rows_done(st, s, rc, err, "load thread")) !=
	    MLQ_OK)
		return st_rc;
	if ((st_rc = lend_names(t, err)) != MLQ_OK)
		return st_rc;
	s = mlq__store_stmt(st, S_RV_GHOSTS,
	    "SELECT msgid, parent FROM ghost WHERE thread = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, thread);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if ((n = node_add(t)) == NULL)
			break;
		n->msgid = adup(t->a, s, 0);
		n->parent = adup(t->a, s, 1);
		n->from = n->name = "";
		if (n->msgid == NULL)
			break;
	}
	return mlq__store_rows_done(st, s, rc, err, "load ghosts");
}

static bool
same_author(const struct rv_node *a, const struct rv_node *b)
{
	return *a->from != '\0' && strcasecmp(a->from, b->from) == 0;
}

/* The first and the last word of a display name ("III", "Jr." aside). */
static void
name_ends(const char *name, const char **first, size_t *nfirst,
    const char **last, size_t *nlast)
{
	static const char *const suffix[] = { "ii", "iii", "iv", "jr", "jr.",
		"sr", "sr." };
	const char *e = name + strlen(name), *sp;
	size_t i;

	while (*name == ' ' || *name == '"')
		name++;
	while (e > name && (e[-1] == ' ' || e[-1] == '"' || e[-1] == ','))
		e--;
	*first = name;
	for (sp = name; sp < e && *sp != ' '; sp++)
		;
	*nfirst = (size_t)(sp - name);
	for (;;) {
		for (sp = e; sp > name && sp[-1] != ' '; sp--)
			;
		for (i = 0; i < MLQ__ARRAY_SIZE(suffix); i++)
			if (strlen(suffix[i]) == (size_t)(e - sp) &&
			    strncasecmp(sp, suffix[i], (size_t)(e - sp)) == 0)
				break;
		if (i == MLQ__ARRAY_SIZE(suffix) || sp == name)
			break;
		for (e = sp; e > name && (e[-1] == ' ' || e[-1] == ','); e--)
			;
	}
	*last = sp;
	*nlast = (size_t)(e - sp);
}

/*
 * One person by address and display name: the same address, or display
 * names of two words or more that agree on their first and last ("J.
 * Bruce Fields" writes from redhat.com and fieldses.org, "Ganapatrao
 * Kulkarni" drops a middle name at gmail.com; a lone "Mark" could be
 * anyone).
 */
static bool
same_identity(const char *a, const char *aname, const char *b,
    const char *bname)
{
	const char *af, *al, *bf, *bl;
	size_t naf, nal, nbf, nbl;

	if (*a != '\0' && strcasecmp(a, b) == 0)
		return true;
	name_ends(aname, &af, &naf, &al, &nal);
	name_ends(bname, &bf, &nbf, &bl, &nbl);
	return naf > 0 && nbf > 0 && af != al && bf != bl && naf == nbf &&
	    nal == nbl && strncasecmp(af, bf, naf) == 0 &&
	    strncasecmp(al, bl, nal) == 0;
}

/*
 * The same person, as the sender or as the patch's author: a patch sent
 * from cel@kernel.org on behalf of chuck.lever@oracle.com is answered by
 * its author from the second.
 */
static bool
same_person(const struct rv_node *a, const struct rv_node *b)
{
	if (same_identity(a->from, a->name, b->from, b->name))
		return true;
	if (*a->author != '\0' &&
	    (same_identity(a->author, a->author_name, b->from, b->name) ||
		(*b->author != '\0' && same_identity(a->author,
		     a->author_name, b->author, b->author_name))))
		return true;
	return *b->author != '\0' &&
	    same_identity(a->from, a->name, b->author, b->author_name);
}

/*
 * What the author of s is called by: the first word of the display name,
 * or the start of the address ("dai.ngo@") where the name is one word or
 * none (a lone word may be a surname).
 */
static void
author_called(const struct rv_node *s, const char **a, size_t *n)
{
	const char *p, *e;

	for (p = s->name; *p == ' ' || *p == '"'; p++)
		;
	for (e = p; *e != '\0' && *e != ' ' && *e != ','; e++)
		;
	if (e == p || *e == '\0') {
		p = s->from;
		for (e = p; *e != '\0' && strchr("@._-+", *e) == NULL; e++)
			;
	}
	*a = p;
	*n = (size_t)(e - p);
}

/*
 * Whether name (n bytes, one word) is what s's author is called by; with
 * no display name, a part of the address will do ("Jason" for
 * kerneljasonxing@).
 */
/* a and b (an, bn bytes) equal but for case and one letter ("Cladiu"). */
static bool
near_name(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, j;

	if (an == bn && strncasecmp(a, b, an) == 0)
		return true;
	if (an < 5 || bn < 5 || (an > bn ? an - bn : bn - an) > 1)
		return false;
	while (i < an && i < bn && mlq__lower(a[i]) == mlq__lower(b[i]))
		i++;
	/* Past the first difference: the rest equal after a substitution,
	 * a letter dropped from a, or one dropped from b. */
	for (j = 0; j < 3; j++) {
		size_t x = i + (j != 2), y = i + (j != 1);

		if (x > an || y > bn || an - x != bn - y)
			continue;
		if (strncasecmp(a + x, b + y, an - x) == 0)
			return true;
	}
	return false;
}

static bool
is_author_n(const char *name, size_t n, const struct rv_node *s)
{
	const char *a, *at;
	size_t k, i;

	author_called(s, &a, &k);
	if (near_name(a, k, name, n))
		return true;
	/* Any word of the display name may be the one called by: a lone
	 * "Alex <zgxgoo@...>", the given name of "Lad, Prabhakar". */
	for (a = s->name; *a != '\0'; a += k) {
		a += strspn(a, " \",");
		k = strcspn(a, " \",");
		if (k > 0 && near_name(a, k, name, n))
			return true;
	}
	if (strchr(s->name, ' ') != NULL || n < 3 ||
	    (at = strchr(s->from, '@')) == NULL)
		return false;
	for (i = 0; s->from + i + n <= at; i++)
		if (strncasecmp(s->from + i, name, n) == 0)
			return true;
	return false;
}

static bool
is_author(const char *name, const struct rv_node *s)
{
	return is_author_n(name, strlen(name), s);
}

/* Whether anyone of the thread but except is called name (n bytes). */
static bool
someone_called(const struct rv_thread *t, const char *name, size_t n,
    const struct rv_node *except)
{
	size_t j;

	for (j = 0; j < t->count; j++)
		if (t->n[j].id != 0 && &t->n[j] != except &&
		    is_author_n(name, n, &t->n[j]))
			return true;
	return false;
}

/* Whether a question that opens with a name ("Dai, ...?") is s's author's. */
static bool
names_author(const struct rv_thread *t, const char *asked,
    const struct rv_node *s)
{
	size_t n;

	/* "Bruce, any thoughts?", "@Philipp: maybe ...", "Ard?" */
	if (*asked == '@')
		asked++;
	n = strcspn(asked, ",:?");
	if (asked[n] == '\0' || n == 0 || is_author_n(asked, n, s))
		return true;
	if (asked[n] != '?')
		return false;
	/* A word alone ("Agree?", "Thoughts?") is a name only when it is
	 * what someone of the thread is called. */
	return !someone_called(t, asked, n, NULL);
}

/*
 * Whether a question speaks to s's author by name ("Actually a question
 * for Dai: have you ...?"), though it answers someone else.
 */
static bool
mentions_author(const char *asked, const struct rv_node *s)
{
	const char *a, *p;
	size_t n;

	author_called(s, &a, &n);
	if (n < 2)
		return false;
	for (p = asked; *p != '\0'; p++) {
		/* Spoken to: "for Dai:", "Dai, ...", "@Dai"; "Dai's
		 * patches" and "Aditya accused" speak of him. */
		if (strncasecmp(p, a, n) == 0 &&
		    (p == asked || !isalnum((unsigned char)p[-1])) &&
		    (p[n] == ':' || p[n] == ',' ||
			(p > asked && p[-1] == '@') ||
			(p - asked >= 4 && strncasecmp(p - 4, "for ", 4) == 0)))
			return true;
	}
	return false;
}

/*
 * Whom a change request opens by calling ("Wambui, could you also ...?"):
 * 1 s's author, -1 another of the thread, 0 nobody ("Thanks, ...": no
 * one of the thread is called so).
 */
static int
request_vocative(const struct rv_thread *t, const struct rv_node *r,
    const struct rv_node *s)
{
	const char *p = r->request;
	size_t n;

	if (p == NULL || *p < 'A' || *p > 'Z')
		return 0;
	n = strcspn(p, " ,:");
	if (n < 2 || p[n] != ',')
		return 0;
	if (is_author_n(p, n, s))
		return 1;
	return someone_called(t, p, n, r) ? -1 : 0;
}

/*
 * Whether reply n speaks to submission s's author: it answers s itself
 * or a mail of that person (above the writer's own follow-ups), or the
 * mail it answers is not here to tell.  A question put to a co-reviewer
 * or a maintainer ("Bruce, any further thoughts?", "Did you push your
 * series to the public git?") is not one to the author.
 */
static bool
to_author(const struct rv_thread *t, const struct rv_node *n,
    const struct rv_node *s)
{
	const struct rv_node *p = n;
	int hops = 0;

	do {
		if (p->up < 0)
			return true;
		p = &t->n[p->up];
	} while (p->id != 0 && p != s && same_person(p, n) &&
	    hops++ < MLQ_REVIEW_MAX_DEPTH);
	return p->id == 0 || p == s || same_person(p, s);
}

/*
 * The submission node i belongs to: the nearest ancestor that is one, -1
 * if none.  *broken tells that the walk ended at a missing message (a
 * ghost, or a parent never seen) rather than at a discussion's root.
 */
static int
walk_up(const struct rv_thread *t, int i, bool *broken)
{
	int last = i, j = t->n[i].up, hops = 0;

	while (j >= 0 && hops++ < MLQ_REVIEW_MAX_DEPTH) {
		if (t->n[j].id != 0 && t->n[j].kind > 0) {
			*broken = false;
			return j;
		}
		last = j;
		j = t->n[j].up;
	}
	*broken = t->n[last].id == 0 || t->n[last].parent != NULL;
	return -1;
}

/*
 * The cover letter of series patch p: an ancestor first, else one in its
 * thread, else the one its series link names.
 */
static int
find_cover(const struct rv_thread *t, int p)
{
	const struct rv_node *x = &t->n[p], *c;
	int j, hops = 0;
	size_t i;

	if (x->kind != 1 || x->idx <= 0 || x->total <= 0)
		return -1;
	for (j = x->up; j >= 0 && hops++ < MLQ_REVIEW_MAX_DEPTH;
	     j = t->n[j].up) {
		c = &t->n[j];
		if (c->id != 0 && c->kind == 2 && c->version == x->version &&
		    c->total == x->total && same_author(c, x))
			return j;
	}
	for (i = 0; i < t->count; i++) {
		c = &t->n[i];
		if (c->id != 0 && c->kind == 2 && c->version == x->version &&
		    c->total == x->total && same_author(c, x) &&
		    c->thread == x->thread)
			return (int)i;
	}
	for (i = 0; x->cover_id != 0 && i < t->count; i++)
		if (t->n[i].id == x->cover_id)
			return (int)i;
	return -1;
}

enum { THREAD_NO_PATCH, THREAD_PATCH_UNSEEN };

/*
 * For reply i whose submission is not stored: whether its thread starts
 * with a discussion (no patch at all), or with a mail the archive lacks.
 * Then *u is that mail's sender where its Message-Id tells it, as git
 * send-email's do ("20210407001658.2208535-1-pakki001@umn.edu",
 * "1573002091-9744-3-git-send-email-gkulkarni@marvell.com"); else
 * u->from is NULL.
 */
static int
unseen_submitter(const struct rv_thread *t, int i, struct rv_node *u)
{
	const struct rv_node *top;
	const char *id, *at, *p, *local = NULL;
	char *addr;
	int j = i, hops = 0;

	memset(u, 0, sizeof(*u));
	u->up = u->sub = u->cover = -1;
	u->name = u->author = u->author_name = "";
	while (t->n[j].up >= 0 && hops++ < MLQ_REVIEW_MAX_DEPTH)
		j = t->n[j].up;
	top = &t->n[j];
	if (top->id != 0 && top->parent == NULL)
		return THREAD_NO_PATCH;
	id = top->id == 0 ? top->msgid : top->parent;
	if (id == NULL || (at = strchr(id, '@')) == NULL)
		return THREAD_PATCH_UNSEEN;
	if ((p = strstr(id, "git-send-email-")) != NULL && p < at)
		local = p + strlen("git-send-email-");
	else if ((p = strstr(id, ".git.")) != NULL && p < at)
		local = p + strlen(".git."); /* format-patch: cover.N.git.user@ */
	else {
		/* DIGITS.DIGITS-N-LOCAL@DOMAIN */
		for (p = id; p < at && isdigit((unsigned char)*p); p++)
			;
		if (p > id && p < at && *p == '.') {
			for (p++; p < at && isdigit((unsigned char)*p); p++)
				;
			if (p < at && *p == '-' && isdigit((unsigned char)p[1])) {
				for (p++; p < at && isdigit((unsigned char)*p); p++)
					;
				if (p < at && *p == '-')
					local = p + 1;
			}
		}
	}
	if (local == NULL || local >= at) {
		/* No mail of git's (nor b4's "DATE-slug-v1-1-HASH@"), and
		 * nothing in the thread says "Re: [PATCH": the lost mail
		 * that began the thread was no patch. */
		for (p = id; p < at && isdigit((unsigned char)*p); p++)
			;
		if (p - id == 8 && *p == '-')
			return THREAD_PATCH_UNSEEN;
		for (j = 0; j < (int)t->count; j++)
			if (t->n[j].patch_subject)
				return THREAD_PATCH_UNSEEN;
		return THREAD_NO_PATCH;
	}
	if ((addr = mlq_arena_strdup(t->a, local)) == NULL)
		return THREAD_PATCH_UNSEEN;
	for (p = addr; *p != '\0'; p++)
		addr[p - addr] = (char)mlq__lower(*p);
	u->from = addr;
	/* His name, from a mail of his in the thread. */
	for (j = 0; j < (int)t->count; j++)
		if (t->n[j].id != 0 && *t->n[j].name != '\0' &&
		    strcmp(t->n[j].from, addr) == 0) {
			u->name = t->n[j].name;
			break;
		}
	return THREAD_PATCH_UNSEEN;
}

/*
 * A series sent in reply to a mail of its sender's that starts the thread
 * and carries no "[PATCH" ("add a LRU for delegations", then "[PATCH
 * 01/12] ..." below it, as some send their series): that mail is the
 * series' cover letter, and what its replies say ("Applied to ...") is
 * said of every patch.  Two patches of the series below it make it one.
 */
static void
adopt_covers(struct rv_thread *t)
{
	struct rv_node *c, *p, *first;
	size_t i, j;
	int n;

	for (i = 0; i < t->count; i++) {
		c = &t->n[i];
		if (c->id == 0 || c->kind != 0 || c->parent != NULL ||
		    c->patch_subject)
			continue;
		first = NULL;
		for (j = 0, n = 0; j < t->count; j++) {
			p = &t->n[j];
			if (p->up != (int)i || p->kind != 1 || p->idx < 1 ||
			    p->total < 2 || !same_author(p, c) ||
			    (first != NULL && (p->version != first->version ||
						  p->total != first->total)))
				continue;
			if (first == NULL)
				first = p;
			n++;
		}
		if (n < 2)
			continue;
		c->kind = 2;
		c->version = first->version;
		c->total = first->total;
		c->idx = 0;
	}
}

/* Tags of every node; statuses come after every thread's tags are stored. */
static enum mlq_status
derive_tags(struct rv_thread *t, struct mlq_err *err)
{
	struct rv_node *n, *s, unseen;
	const char *greeted;
	size_t i;
	int j, top = -1, ntop = 0, hops, voc;
	bool broken;

	t->order = mlq_arena_alloc(t->a, (t->count + 1) * sizeof(*t->order));
	if (t->order == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	for (i = 0; i < t->count; i++) {
		t->order[i].msgid = t->n[i].msgid;
		t->order[i].i = (int)i;
	}
	qsort(t->order, t->count, sizeof(*t->order), cmp_key);
	for (i = 0; i < t->count; i++)
		if (t->n[i].parent != NULL)
			t->n[i].up = find_node(t, t->n[i].parent);
	adopt_covers(t);

	/* Submissions; the one top-level submission adopts orphans. */
	for (i = 0; i < t->count; i++) {
		n = &t->n[i];
		if (n->id == 0 || n->kind == 0)
			continue;
		n->sub = (int)i;
		n->cover = find_cover(t, (int)i);
		if (walk_up(t, (int)i, &broken) < 0) {
			top = (int)i;
			ntop++;
		}
	}
	for (i = 0; i < t->count; i++) {
		n = &t->n[i];
		if (n->id == 0 || n->kind > 0)
			continue;
		n->sub = walk_up(t, (int)i, &broken);
		if (n->sub < 0 && broken && ntop == 1)
			n->sub = top;
	}

	/* A reply's tags: its own, less what its submitter cannot earn. */
	for (i = 0; i < t->count; i++) {
		n = &t->n[i];
		if (n->id == 0 || n->kind > 0)
			continue;
		n->tags = n->own & MLQ__TAG_REPLY;
		if (n->sub >= 0) {
			s = &t->n[n->sub];
			/* A proposal in prose ("[RFC] ...", no diff): no
			 * patch to ask about or to change. */
			if (s->prose)
				n->tags &= ~(unsigned)(MLQ_TAG_QUESTION |
				    MLQ_TAG_CHANGES);
		} else if (unseen_submitter(t, (int)i, &unseen) ==
		    THREAD_NO_PATCH) {
			/* A discussion with no patch: nobody to ask or to
			 * ask a change of. */
			n->tags &= ~(unsigned)(MLQ_TAG_QUESTION |
			    MLQ_TAG_CHANGES);
			continue;
		} else if (unseen.from != NULL)
			s = &unseen;
		else
			continue;
		/* A mail that greets another ("Hi Tony,") asks its
		 * changes of him; of an unseen submitter whose name the
		 * thread does not give, a greeting tells nothing. */
		greeted = n->greeted;
		/* Greeting the reviewer it answers ("Hi Laurent," to
		 * Laurent's review): the mail argues with him, whoever
		 * the submitter is. */
		if (greeted != NULL && n->up >= 0 && t->n[n->up].id != 0 &&
		    t->n[n->up].kind == 0 &&
		    (t->n[n->up].own & (MLQ_TAG_CHANGES | MLQ_TAG_QUESTION)) &&
		    is_author(greeted, &t->n[n->up]) && !is_author(greeted, s))
			n->tags &= ~(unsigned)(MLQ_TAG_CHANGES |
			    MLQ_TAG_QUESTION);
		/* A request that calls someone by name is his. */
		voc = request_vocative(t, n, s);
		if (voc < 0)
			n->tags &= ~(unsigned)MLQ_TAG_CHANGES;
		/* "Can you ..." to a third person it answers (the list's
		 * maintainer, another reviewer) is asked of him. */
		if (n->asks_you && !n->on_code && greeted == NULL && voc == 0 &&
		    n->up >= 0 &&
		    t->n[n->up].id != 0 && t->n[n->up].kind == 0 &&
		    !same_person(&t->n[n->up], s) &&
		    !same_person(&t->n[n->up], n))
			n->tags &= ~(unsigned)MLQ_TAG_CHANGES;
		/* "X should be Y" to what another reply said argues in
		 * a discussion; below the patch itself it reviews it. */
		if (n->argues && n->up >= 0 && t->n[n->up].id != 0 &&
		    t->n[n->up].kind == 0)
			n->tags &= ~(unsigned)MLQ_TAG_CHANGES;
		if (s == &unseen && *unseen.name == '\0' && greeted != NULL &&
		    !is_author(greeted, s))
			greeted = NULL;
		if (greeted != NULL && !is_author(greeted, s) && voc <= 0)
			n->tags &= ~(unsigned)MLQ_TAG_CHANGES;
		/* Who is asked: the one named, else the one greeted, else
		 * the one answered. */
		if (n->asked != NULL && (n->by_name
			? !names_author(t, n->asked, s)
			: !mentions_author(n->asked, s) &&
			    (greeted != NULL ? !is_author(greeted, s)
					     : !to_author(t, n, s))))
			n->tags &= ~(unsigned)MLQ_TAG_QUESTION;
		if (same_person(n, s)) {
			/* A trailer the submitter passes on for a reviewer
			 * ("forgot the tag: Reviewed-by: ...") counts. */
			n->tags &= ~(unsigned)MLQ__TAG_OTHERS_ONLY |
			    (n->relayed & n->own);
			/* It answers every question above it. */
			hops = 0;
			for (j = n->up; j >= 0 && j != n->sub &&
			     !t->n[j].answered && hops++ < MLQ_REVIEW_MAX_DEPTH;
			     j = t->n[j].up)
				t->n[j].answered = true;
		}
		s->acc |= n->tags;
	}

	/* A submission's: its replies', its cover's or its patches'. */
	for (i = 0; i < t->count; i++) {
		n = &t->n[i];
		if (n->id == 0 || n->kind == 0)
			continue;
		n->tags = (n->own & MLQ_TAG_REVERT) | n->acc;
		if (n->cover >= 0)
			n->tags |= t->n[n->cover].acc;
		if (n->kind == 2)
			for (j = 0; j < (int)t->count; j++)
				if (t->n[j].cover == (int)i)
					n->tags |= t->n[j].acc;
	}
	return MLQ_OK;
}

/* Whether reply r is part of submission s's review (see mlq_state). */
static bool
reviews(const struct rv_thread *t, const struct rv_node *r, int s)
{
	if (r->sub < 0)
		return false;
	if (r->sub == s)
		return true;
	if (t->n[s].cover >= 0 && r->sub == t->n[s].cover)
		return true;
	return t->n[s].kind == 2 && t->n[r->sub].cover == s;
}

static enum mlq_status
is_reverted(struct mlq_store *st, int64_t id, bool *yes, struct mlq_err *err)
{
	/* A revert counts unless it was nacked itself (tag bit 1). */
	return exists(st, S_RV_REVERTED,
	    "SELECT 1 FROM link k JOIN msg r ON r.id = k.src "
	    "WHERE k.dst = ? AND k.kind = 1 AND (r.tags & 1) = 0 LIMIT 1",
	    id, yes, err);
}

/*
 * Superseded: a newer version links to it, or it was posted again as it
 * was (the same author, title and version: a "[PATCH RESEND]", an
 * unmarked second posting, in the same place of its series or in another
 * series of another thread: "[PATCH 08/19]" again as "[PATCH 09/20]"),
 * and the review goes on under the later posting.  Copies for stable
 * trees ("AUTOSEL 6.6", "AUTOSEL 6.1", "5.10.y") are one for each tree.
 */
static enum mlq_status
is_superseded(struct mlq_store *st, int64_t id, bool *yes, struct mlq_err *err)
{
	enum mlq_status rc;

	rc = exists(st, S_RV_SUPERSEDED,
	    "SELECT 1 FROM link WHERE dst = ? AND kind = 3 LIMIT 1", id, yes,
	    err);
	if (rc != MLQ_OK || *yes)
		return rc;
	return exists(st, S_RV_RESENT,
	    "SELECT 1 FROM msg m JOIN msg o ON o.norm = m.norm AND "
	    "o.from_email = m.from_email AND o.kind > 0 AND o.kind = m.kind "
	    "AND o.version = m.version AND ((o.idx = m.idx AND "
	    "o.total = m.total) OR o.thread <> m.thread) AND "
	    "(o.prefix = m.prefix OR (o.prefix NOT GLOB '*[0-9]*' AND "
	    "m.prefix NOT GLOB '*[0-9]*')) AND "
	    "o.id <> m.id AND (o.date > m.date OR "
	    "(o.date = m.date AND o.msgid > m.msgid)) "
	    "WHERE m.id = ? AND m.norm <> '' LIMIT 1",
	    id, yes, err);
}

/*
 * The marks of thread's messages (mlq mark) onto t's nodes.  A reply's
 * tags count as if its own text had earned them, so that the tags and
 * status of what it reviews follow; marks_win does the rest.
 */
static enum mlq_status
marks_load(struct mlq_store *st, int64_t thread, struct rv_thread *t,
    struct mlq_err *err)
{
	struct rv_node *n;
	sqlite3_stmt *s;
	unsigned what;
	size_t i;
	int rc;

	/* CROSS JOIN: through the thread's messages, not every mark. */
	s = mlq__store_stmt(st, S_RV_MARKS,
	    "SELECT m.id, k.what, k.value FROM msg m CROSS JOIN mark k "
	    "ON k.msgid = m.msgid WHERE m.thread = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, thread);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < t->count; i++)
			if (t->n[i].id == sqlite3_column_int64(s, 0))
				break;
		if (i == t->count)
			continue;
		n = &t->n[i];
		what = (unsigned)sqlite3_column_int(s, 1);
		if (what == 0) {
			n->mark_status = sqlite3_column_int(s, 2);
		} else if (sqlite3_column_int(s, 2) != 0) {
			n->mark_add |= what;
			n->own |= what;
		} else {
			n->mark_del |= what;
			n->own &= ~what;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? MLQ_OK
				 : mlq__store_fail(st, err, "read marks");
}

/*
 * The marks over the tags derive_tags found: a reply keeps a tag it was
 * given where a rule would drop it (a question not to the author, an ack
 * by the submitter), and so do the submissions it reviews; a
 * submission's own marks come last and win.
 */
static void
marks_win(struct rv_thread *t)
{
	struct rv_node *n;
	unsigned kept;
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		n = &t->n[i];
		if (n->id == 0 || n->kind > 0 ||
		    (kept = n->mark_add & ~n->tags) == 0)
			continue;
		n->tags |= kept;
		for (j = 0; j < t->count; j++)
			if (t->n[j].id != 0 && t->n[j].kind > 0 &&
			    reviews(t, n, (int)j))
				t->n[j].tags |= kept;
	}
	for (i = 0; i < t->count; i++) {
		n = &t->n[i];
		if (n->id != 0 && n->kind > 0)
			n->tags = (n->tags | n->mark_add) & ~n->mark_del;
	}
}

/*
 * Whether a commit of a tree read carries submission s (S_RV_MERGED), or
 * a commit reverts the one that does (S_RV_TREE_REVERTED); a cover
 * letter through any patch of its series.
 */
static enum mlq_status
in_tree(struct mlq_store *st, const struct rv_thread *t, int s,
    enum store_stmt slot, bool *yes, struct mlq_err *err)
{
	static const char merged_sql[] =
	    "SELECT 1 FROM merged WHERE msg = ? LIMIT 1";
	static const char reverted_sql[] =
	    "SELECT 1 FROM merged k JOIN gcommit c ON c.id = k.commit_id "
	    "JOIN gcommit r ON r.reverts = c.oid WHERE k.msg = ? LIMIT 1";
	const char *sql = slot == S_RV_MERGED ? merged_sql : reverted_sql;
	enum mlq_status rc;
	size_t j;

	if ((rc = exists(st, slot, sql, t->n[s].id, yes, err)) != MLQ_OK ||
	    *yes || t->n[s].kind != 2)
		return rc;
	for (j = 0; j < t->count && !*yes; j++)
		if (t->n[j].id != 0 && t->n[j].cover == s &&
		    (rc = exists(st, slot, sql, t->n[j].id, yes, err)) !=
			MLQ_OK)
			return rc;
	return MLQ_OK;
}

static enum mlq_status
derive_status(struct mlq_store *st, struct rv_thread *t, int s,
    struct mlq_err *err)
{
	struct rv_node *n = &t->n[s];
	const struct rv_node *r;
	enum mlq_status rc;
	bool yes = false, open = false;
	size_t i;

	/* The first answer by someone else among the replies reviewing it. */
	n->first = -1;
	for (i = 0; i < t->count; i++) {
		r = &t->n[i];
		if (r->id == 0 || r->kind != 0 || !r->date_ok ||
		    (n->date_ok && r->date < n->date) || same_person(r, n) ||
		    !reviews(t, r, s))
			continue;
		if (n->first < 0 || r->date < n->first)
			n->first = r->date;
	}
	/* A maintainer's mark wins over everything below. */
	if (n->mark_status != MLQ_STATE_NONE) {
		n->status = n->mark_status;
		return MLQ_OK;
	}
	if ((rc = is_reverted(st, n->id, &yes, err)) != MLQ_OK)
		return rc;
	if (!yes && (rc = in_tree(st, t, s, S_RV_TREE_REVERTED, &yes,
			 err)) != MLQ_OK)
		return rc;
	if (yes) {
		n->status = MLQ_STATE_REVERTED;
		return MLQ_OK;
	}
	/* A commit carries it: worth seeing even over a NACK. */
	if ((rc = in_tree(st, t, s, S_RV_MERGED, &yes, err)) != MLQ_OK)
		return rc;
	if (yes) {
		n->status = MLQ_STATE_MERGED;
		return MLQ_OK;
	}
	if (n->tags & MLQ_TAG_NACK) {
		n->status = MLQ_STATE_NACKED;
		return MLQ_OK;
	}
	if (n->tags & MLQ_TAG_APPLIED) {
		n->status = MLQ_STATE_APPLIED;
		return MLQ_OK;
	}
	if ((rc = is_superseded(st, n->id, &yes, err)) != MLQ_OK)
		return rc;
	if (!yes && n->cover >= 0 &&
	    (rc = is_superseded(st, t->n[n->cover].id, &yes, err)) != MLQ_OK)
		return rc;
	if (yes) {
		n->status = MLQ_STATE_SUPERSEDED;
		return MLQ_OK;
	}
	if (n->tags & MLQ_TAG_CHANGES) {
		n->status = MLQ_STATE_CHANGES;
		return MLQ_OK;
	}
	if (n->tags & (MLQ_TAG_ACK | MLQ_TAG_REVIEWED | MLQ_TAG_TESTED)) {
		n->status = MLQ_STATE_REVIEWED;
		return MLQ_OK;
	}
	for (i = 0; i < t->count && !open; i++)
		open = t->n[i].id != 0 && t->n[i].kind == 0 &&
		    (t->n[i].tags & MLQ_TAG_QUESTION) && !t->n[i].answered &&
		    reviews(t, &t->n[i], s);
	n->status = open ? MLQ_STATE_QUESTIONED : MLQ_STATE_PENDING;
	return MLQ_OK;
}

/* Writes what changed: tags (and their msg_tag rows), status. */
static enum mlq_status
store_node(struct mlq_store *st, const struct rv_node *n, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	unsigned bit, gone, added;

	if (n->tags == n->old_tags && n->status == n->old_status &&
	    n->first == n->old_first)
		return MLQ_OK;
	s = mlq__store_stmt(st, S_RV_UPDATE,
	    "UPDATE msg SET tags = ?, status = ?, first_review = ? WHERE id = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int(s, 1, (int)n->tags);
	sqlite3_bind_int(s, 2, n->status);
	if (n->first >= 0)
		sqlite3_bind_int64(s, 3, n->first);
	sqlite3_bind_int64(s, 4, n->id);
	if ((rc = mlq__store_step_done(st, s, err, "update tags")) != MLQ_OK)
		return rc;
	gone = n->old_tags & ~n->tags;
	added = n->tags & ~n->old_tags;
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1) {
		if (!((gone | added) & bit))
			continue;
		s = mlq__store_stmt(st, (gone & bit) ? S_RV_TAG_DEL : S_TAG_ADD,
		    (gone & bit)
			? "DELETE FROM msg_tag WHERE tag = ? AND msg = ?"
			: "INSERT OR IGNORE INTO msg_tag(tag, msg) VALUES (?, ?)",
		    err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int(s, 1, (int)bit);
		sqlite3_bind_int64(s, 2, n->id);
		if ((rc = mlq__store_step_done(st, s, err, "update tag")) !=
		    MLQ_OK)
			return rc;
	}
	return MLQ_OK;
}

/* The threads of the dirty messages, and of the originals they revert. */
static enum mlq_status
dirty_threads(struct mlq_store *st, struct ids *threads, struct mlq_err *err)
{
	struct ids subs = { 0 };
	sqlite3_stmt *s;
	size_t i, n;

	for (i = 0; i < st->ndirty; i++) {
		s = mlq__store_stmt(st, S_RV_THREAD_OF,
		    "SELECT thread FROM msg WHERE id = ?", err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, st->dirty[i]);
		if (sqlite3_step(s) == SQLITE_ROW)
			mlq__ids_add(threads, sqlite3_column_int64(s, 0));
		sqlite3_reset(s);
	}
	mlq__ids_uniq(threads);
	/* A revert's tags decide whether its original counts as reverted. */
	n = threads->n;
	for (i = 0; i < n; i++) {
		s = mlq__store_stmt(st, S_RV_REVERT_DSTS,
		    "SELECT d.thread FROM msg m JOIN link k ON k.src = m.id "
		    "AND k.kind = 1 JOIN msg d ON d.id = k.dst WHERE m.thread = ?",
		    err);
		if (s == NULL) {
			free(subs.v);
			return MLQ_EDB;
		}
		sqlite3_bind_int64(s, 1, threads->v[i]);
		while (sqlite3_step(s) == SQLITE_ROW)
			mlq__ids_add(&subs, sqlite3_column_int64(s, 0));
		sqlite3_reset(s);
	}
	for (i = 0; i < subs.n; i++)
		mlq__ids_add(threads, subs.v[i]);
	free(subs.v);
	mlq__ids_uniq(threads);
	if (threads->oom || subs.oom)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	return MLQ_OK;
}

static bool
ids_contains(const struct ids *a, int64_t id)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] == id)
			return true;
	return false;
}

/* Adds the threads joined to thread t by series links, either way. */
static enum mlq_status
series_threads(struct mlq_store *st, int64_t t, struct ids *out,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;

	s = mlq__store_stmt(st, S_RV_SERIES_THREADS,
	    "SELECT d.thread FROM msg m JOIN link k ON k.src = m.id AND "
	    "k.kind = 4 JOIN msg d ON d.id = k.dst WHERE m.thread = ?1 "
	    "UNION SELECT p.thread FROM msg m JOIN link k ON k.dst = m.id AND "
	    "k.kind = 4 JOIN msg p ON p.id = k.src WHERE m.thread = ?1",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, t);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (!ids_contains(out, sqlite3_column_int64(s, 0)))
			mlq__ids_add(out, sqlite3_column_int64(s, 0));
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return mlq__store_fail(st, err, "read series");
	return MLQ_OK;
}

/* Appends thread t and every thread its series links reach, if new. */
static enum mlq_status
bundle_add(struct mlq_store *st, int64_t t, struct ids *order,
    struct mlq_err *err)
{
	enum mlq_status rc;
	size_t k = order->n;

	if (ids_contains(order, t))
		return MLQ_OK;
	mlq__ids_add(order, t);
	for (; k < order->n && !order->oom; k++)
		if ((rc = series_threads(st, order->v[k], order, err)) !=
		    MLQ_OK)
			return rc;
	return order->oom ? mlq_err_set(err, MLQ_ENOMEM, "out of memory")
			  : MLQ_OK;
}

/*
 * Groups the dirty threads into bundles derived together: a thread and
 * those its series links reach (a cover letter and its unthreaded
 * patches).  order gets every thread, bundle by bundle; ends[k] is where
 * bundle k ends in it.
 */
static enum mlq_status
bundles(struct mlq_store *st, const struct ids *threads, struct ids *order,
    struct ids *ends, struct mlq_err *err)
{
	enum mlq_status rc;
	size_t i;

	for (i = 0; i < threads->n; i++) {
		if (ids_contains(order, threads->v[i]))
			continue;
		if ((rc = bundle_add(st, threads->v[i], order, err)) != MLQ_OK)
			return rc;
		mlq__ids_add(ends, (int64_t)order->n);
	}
	if (ends->oom)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	return MLQ_OK;
}

enum mlq_status
mlq_store_series_bundle(struct mlq_store *st, int64_t thread, int64_t **threads,
    size_t *n, struct mlq_err *err)
{
	struct ids order = { 0 };
	enum mlq_status rc;

	*threads = NULL;
	*n = 0;
	if ((rc = bundle_add(st, thread, &order, err)) != MLQ_OK) {
		free(order.v);
		return rc;
	}
	*threads = order.v;
	*n = order.n;
	return MLQ_OK;
}

enum mlq_status
mlq__review_flush(struct mlq_store *st, struct mlq_err *err)
{
	struct ids threads = { 0 }, order = { 0 }, ends = { 0 };
	struct rv_thread *ts = NULL;
	struct rv_node *n;
	enum mlq_status rc;
	size_t i, j, b;

	if (st->dirty_oom) {
		mlq__review_reset(st);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	if (st->ndirty == 0)
		return MLQ_OK;
	rc = dirty_threads(st, &threads, err);
	mlq__review_reset(st);
	if (rc != MLQ_OK ||
	    (rc = bundles(st, &threads, &order, &ends, err)) != MLQ_OK)
		goto out;
	if ((ts = calloc(ends.n + 1, sizeof(*ts))) == NULL) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	/* Every bundle's tags first: statuses read the reverts' tags. */
	for (b = 0, i = 0; b < ends.n; b++) {
		if ((ts[b].a = mlq_arena_new()) == NULL) {
			rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
			goto out;
		}
		for (; i < (size_t)ends.v[b]; i++)
			if ((rc = thread_load(st, order.v[i], &ts[b], err)) !=
				MLQ_OK ||
			    (rc = marks_load(st, order.v[i], &ts[b], err)) !=
				MLQ_OK)
				goto out;
		if ((rc = derive_tags(&ts[b], err)) != MLQ_OK)
			goto out;
		marks_win(&ts[b]);
		for (j = 0; j < ts[b].count; j++) {
			n = &ts[b].n[j];
			n->status = n->old_status;
			if (n->id != 0 &&
			    (rc = store_node(st, n, err)) != MLQ_OK)
				goto out;
			n->old_tags = n->tags;
		}
	}
	for (b = 0; b < ends.n; b++) {
		for (j = 0; j < ts[b].count; j++) {
			if (ts[b].n[j].id == 0 || ts[b].n[j].kind == 0)
				continue;
			if ((rc = derive_status(st, &ts[b], (int)j, err)) !=
				MLQ_OK ||
			    (rc = store_node(st, &ts[b].n[j], err)) != MLQ_OK)
				goto out;
		}
	}
out:
	for (b = 0; ts != NULL && b < ends.n; b++)
		mlq_arena_free(ts[b].a);
	free(ts);
	free(threads.v);
	free(order.v);
	free(ends.v);
	return rc;
}

enum mlq_status
mlq_store_first_review(struct mlq_store *st, int64_t id, int64_t *when,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int rc;
	bool found;

	s = mlq__store_stmt(st, S_RV_FIRST_REVIEW,
	    "SELECT first_review FROM msg WHERE id = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	found = rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL;
	if (found)
		*when = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return mlq__store_fail(st, err, "first review");
	return found ? MLQ_OK : MLQ_NOTFOUND;
}

/* ---- reindex support ---- */

/* The postings commits carry, derived again: they were stored before
 * their commits came across. */
static enum mlq_status
merged_again(struct mlq_store *st, struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	int step;

	if ((rc = mlq_store_begin(st, err)) != MLQ_OK)
		return rc;
	if (sqlite3_prepare_v2(st->db, "SELECT DISTINCT msg FROM merged", -1,
		&s, NULL) != SQLITE_OK) {
		mlq_store_rollback(st);
		return mlq__store_fail(st, err, "read merged");
	}
	while ((step = sqlite3_step(s)) == SQLITE_ROW)
		mlq__review_dirty(st, sqlite3_column_int64(s, 0));
	sqlite3_finalize(s);
	if (step != SQLITE_DONE) {
		mlq_store_rollback(st);
		return mlq__store_fail(st, err, "read merged");
	}
	return mlq_store_commit(st, err);
}

enum mlq_status
mlq__store_copy_meta(struct mlq_store *st, const char *old_path,
    struct mlq_err *err)
{
	static const char *const sql[] = {
		"INSERT OR REPLACE INTO source(name, url, kind, cursor, "
		"last_poll, last_ok, next_poll, last_error, ingested) "
		"SELECT name, url, kind, cursor, last_poll, last_ok, next_poll, "
		"last_error, ingested FROM old.source",
		/* Digests sent stay sent: a reindex must not mail one again. */
		"INSERT INTO digest_sent(period_start, period_end, scheduled, "
		"sent, message_id, recipients) SELECT period_start, period_end, "
		"scheduled, sent, message_id, recipients FROM old.digest_sent",
		/* Commits come from their trees, not from mail; a message
		 * keeps its id, so their links hold too. */
		"INSERT INTO gcommit SELECT * FROM old.gcommit",
		"INSERT INTO gcommit_ref SELECT * FROM old.gcommit_ref",
		"INSERT INTO gcommit_msgid SELECT * FROM old.gcommit_msgid",
		"INSERT INTO gcommit_fixes SELECT * FROM old.gcommit_fixes",
		"INSERT INTO merged SELECT * FROM old.merged",
		"INSERT INTO git_linked SELECT * FROM old.git_linked",
	};
	sqlite3_stmt *s;
	enum mlq_status rc = MLQ_OK;
	size_t i;

	if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ? AS old", -1, &s,
		NULL) != SQLITE_OK)
		return mlq__store_fail(st, err, "attach");
	mlq__store_bind_text(s, 1, old_path);
	if (sqlite3_step(s) != SQLITE_DONE) {
		sqlite3_finalize(s);
		return mlq__store_fail(st, err, "attach");
	}
	sqlite3_finalize(s);
	/* Deferred: IMMEDIATE would also want old's write lock, held by the
	 * caller until the rebuild replaces it. */
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		rc = mlq__store_fail(st, err, "copy metadata");
	for (i = 0; rc == MLQ_OK && i < MLQ__ARRAY_SIZE(sql); i++)
		if (sqlite3_exec(st->db, sql[i], NULL, NULL, NULL) != SQLITE_OK)
			rc = mlq__store_fail(st, err, "copy metadata");
	if (rc == MLQ_OK &&
	    sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = mlq__store_fail(st, err, "copy metadata");
	if (rc != MLQ_OK)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_exec(st->db, "DETACH DATABASE old", NULL, NULL, NULL);
	if (rc == MLQ_OK)
		rc = merged_again(st, err);
	return rc;
}

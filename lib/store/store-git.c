/*
 * Commits of git trees and the postings they carry (schemas 022, 023).  A
 * commit links to a posting by the first rule that holds:
 *  1. a thank-you mail in the posting's thread that names the commit
 *     ("[1/3] title" over "commit: ID", b4 ty's), or a Link: or
 *     Message-Id: naming a stored message (a reply: the submission it
 *     answers);
 *  2. the same patch id (several postings: the newest by the commit's
 *     author posted before the commit, else the newest before it);
 *  3. the same author address and title within a year before the
 *     commit, shown as weaker.
 * The posting's thread is derived again, so that its status says merged.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* How far back a title may be matched: 366 days, in seconds. */
#define GIT_TITLE_WINDOW "31622400"
/* How many replies up a Link:'s message may be from its submission. */
#define GIT_UP_MAX "64"

const char *
mlq_merged_how(int how)
{
	switch (how) {
	case MLQ_MERGED_BY_LINK:
		return "link";
	case MLQ_MERGED_BY_PATCH_ID:
		return "patch-id";
	case MLQ_MERGED_BY_TITLE:
		return "title";
	}
	return "?";
}

/* The row id of commit oid, 0 when it is not stored. */
static enum mlq_status
commit_id(struct mlq_store *st, const char *oid, int64_t *id,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;

	s = mlq__store_stmt(st, S_GIT_ID, "SELECT id FROM gcommit WHERE oid = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, oid);
	*id = 0;
	rc = mlq__store_step_int(st, s, id, err, "find commit");
	return rc == MLQ_NOTFOUND ? MLQ_OK : rc;
}

/* Runs sql, an insert of a commit's row id and one text, as slot. */
static enum mlq_status
put_pair(struct mlq_store *st, enum store_stmt slot, const char *sql,
    int64_t id, const char *text, const char *what, struct mlq_err *err)
{
	sqlite3_stmt *s = mlq__store_stmt(st, slot, sql, err);

	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	mlq__store_bind_text(s, 2, text);
	return mlq__store_step_done(st, s, err, what);
}

enum mlq_status
mlq_store_commit_put(struct mlq_store *st, const char *repo, const char *ref,
    const struct mlq_commit *c, bool *is_new, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int64_t id;
	enum mlq_status rc;
	size_t i;

	*is_new = false;
	s = mlq__store_stmt(st, S_GIT_PUT,
	    "INSERT OR IGNORE INTO gcommit(oid, repo, author_name, "
	    "author_email, adate, cdate, subject, norm, patch_id, reverts) "
	    "VALUES (?, ?, ?, lower(?), ?, ?, ?, ?, ?, ?)", err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, c->oid);
	mlq__store_bind_text(s, 2, repo);
	mlq__store_bind_text(s, 3, c->author_name);
	mlq__store_bind_text(s, 4, c->author_email);
	sqlite3_bind_int64(s, 5, c->adate);
	sqlite3_bind_int64(s, 6, c->cdate);
	mlq__store_bind_text(s, 7, c->subject);
	mlq__store_bind_text(s, 8, c->norm);
	mlq__store_bind_text(s, 9, c->has_patch_id ? c->patch_id : NULL);
	mlq__store_bind_text(s, 10, c->reverts);
	if ((rc = mlq__store_step_done(st, s, err, "store commit")) != MLQ_OK)
		return rc;
	/* A new row's id is known; only a commit read before is looked up. */
	if ((*is_new = sqlite3_changes(st->db) > 0))
		id = sqlite3_last_insert_rowid(st->db);
	else if ((rc = commit_id(st, c->oid, &id, err)) != MLQ_OK)
		return rc;
	else if (id == 0)
		return mlq__store_fail(st, err, "find commit");
	if (ref != NULL &&
	    (rc = put_pair(st, S_GIT_REF,
		 "INSERT OR IGNORE INTO gcommit_ref(commit_id, ref) "
		 "VALUES (?, ?)",
		 id, ref, "store ref", err)) != MLQ_OK)
		return rc;
	for (i = 0; i < c->nmsgids; i++)
		if ((rc = put_pair(st, S_GIT_MSGID,
			 "INSERT OR IGNORE INTO gcommit_msgid(commit_id, msgid) "
			 "VALUES (?, ?)",
			 id, c->msgids[i], "store link", err)) != MLQ_OK)
			return rc;
	for (i = 0; i < c->nfixes; i++)
		if ((rc = put_pair(st, S_GIT_FIXES,
			 "INSERT OR IGNORE INTO gcommit_fixes(commit_id, ckey) "
			 "VALUES (?, ?)",
			 id, c->fixes[i], "store fixes", err)) != MLQ_OK)
			return rc;
	return MLQ_OK;
}

/* A link rule: the first row's integer of sql for the commit, or 0. */
static enum mlq_status
rule_first(struct mlq_store *st, enum store_stmt slot, const char *sql,
    int64_t commit, int64_t *out, struct mlq_err *err)
{
	sqlite3_stmt *s = mlq__store_stmt(st, slot, sql, err);
	enum mlq_status rc;

	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, commit);
	*out = 0;
	rc = mlq__store_step_int(st, s, out, err, "link commit");
	return rc == MLQ_NOTFOUND ? MLQ_OK : rc;
}

/* Rule 0: the patch a thank-you mail said became this commit. */
static enum mlq_status
by_named(struct mlq_store *st, int64_t commit, int64_t *msg,
    struct mlq_err *err)
{
	return rule_first(st, S_GIT_BY_NAMED,
	    "SELECT p.id FROM gcommit c JOIN named_commit nc "
	    "ON nc.oid BETWEEN substr(c.oid, 1, 7) AND c.oid "
	    "AND substr(c.oid, 1, length(nc.oid)) = nc.oid "
	    "JOIN msg r ON r.id = nc.msg JOIN msg p ON p.thread = r.thread "
	    "AND p.kind = 1 AND p.norm = nc.norm "
	    "AND (nc.idx = 0 OR p.idx = nc.idx OR "
	    "(nc.idx = 1 AND p.total <= 1)) "
	    "WHERE c.id = ? ORDER BY p.date DESC LIMIT 1", commit, msg, err);
}

/* Rule 1: the submission a Message-Id of the commit names, or answers. */
static enum mlq_status
by_link(struct mlq_store *st, int64_t commit, int64_t *msg,
    struct mlq_err *err)
{
	return rule_first(st, S_GIT_BY_LINK,
	    "WITH RECURSIVE up(id, parent, kind, depth) AS ("
	    "SELECT m.id, m.parent, m.kind, 0 FROM gcommit_msgid g "
	    "JOIN msg m ON m.msgid = g.msgid WHERE g.commit_id = ? "
	    "UNION ALL SELECT p.id, p.parent, p.kind, up.depth + 1 "
	    "FROM up JOIN msg p ON p.msgid = up.parent "
	    "WHERE up.kind = 0 AND up.depth < " GIT_UP_MAX ") "
	    "SELECT id FROM up WHERE kind > 0 ORDER BY depth LIMIT 1", commit, msg, err);
}

/* Rule 2: a posting with the commit's patch id. */
static enum mlq_status
by_patch_id(struct mlq_store *st, int64_t commit, int64_t *msg,
    struct mlq_err *err)
{
	return rule_first(st, S_GIT_BY_PATCH,
	    "SELECT m.id FROM gcommit c JOIN msg m ON m.patch_id = c.patch_id "
	    "WHERE c.id = ? AND m.kind = 1 ORDER BY "
	    "lower(coalesce(m.author_email, m.from_email)) = c.author_email "
	    "DESC, coalesce(m.date <= c.cdate, 0) DESC, m.date DESC, m.id DESC "
	    "LIMIT 1", commit, msg, err);
}

/* Rule 3: the author's posting of the same title within a year before. */
static enum mlq_status
by_title(struct mlq_store *st, int64_t commit, int64_t *msg,
    struct mlq_err *err)
{
	return rule_first(st, S_GIT_BY_TITLE,
	    /* By title: a year's postings by date would be thousands. */
	    "SELECT m.id FROM gcommit c JOIN msg m INDEXED BY msg_author_norm "
	    "ON m.norm = c.norm WHERE c.id = ? AND c.norm <> '' AND "
	    "m.kind > 0 AND +m.kind = 1 AND "
	    "lower(coalesce(m.author_email, m.from_email)) = c.author_email "
	    "AND +m.date BETWEEN c.cdate - " GIT_TITLE_WINDOW
	    " AND c.cdate ORDER BY m.date DESC LIMIT 1", commit, msg, err);
}

/* Commit row id's hex id into oid; "" when there is no such row. */
static enum mlq_status
commit_oid(struct mlq_store *st, int64_t commit, char oid[65],
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int step;

	oid[0] = '\0';
	s = mlq__store_stmt(st, S_GIT_OID, "SELECT oid FROM gcommit WHERE id = ?",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, commit);
	step = sqlite3_step(s);
	if (step == SQLITE_ROW)
		snprintf(oid, 65, "%s", mlq__store_col_text(s, 0));
	sqlite3_reset(s);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return mlq__store_fail(st, err, "find commit");
	return MLQ_OK;
}

/* Each row's first column, a posting, is derived again. */
static enum mlq_status
dirty_rows(struct mlq_store *st, sqlite3_stmt *s, const char *what,
    struct mlq_err *err)
{
	int step;

	while ((step = sqlite3_step(s)) == SQLITE_ROW)
		mlq__review_dirty(st, sqlite3_column_int64(s, 0));
	return mlq__store_rows_done(st, s, step, err, what);
}

/* A revert or Fixes: posting naming the commit now finds its posting. */
static enum mlq_status
commit_named(struct mlq_store *st, int64_t commit, struct mlq_err *err)
{
	enum mlq_status rc;
	char oid[65];

	if ((rc = commit_oid(st, commit, oid, err)) != MLQ_OK || oid[0] == '\0')
		return rc;
	return mlq__review_commit_named(st, oid, err);
}

/* Links one commit by the first rule that holds, if any. */
static enum mlq_status
link_one(struct mlq_store *st, int64_t commit, uint64_t *linked,
    struct mlq_err *err)
{
	sqlite3_stmt *put;
	enum mlq_status rc;
	int64_t msg = 0;
	int how = MLQ_MERGED_BY_LINK;

	if ((rc = by_named(st, commit, &msg, err)) == MLQ_OK && msg == 0)
		rc = by_link(st, commit, &msg, err);
	if (rc == MLQ_OK && msg == 0) {
		how = MLQ_MERGED_BY_PATCH_ID;
		rc = by_patch_id(st, commit, &msg, err);
	}
	if (rc == MLQ_OK && msg == 0) {
		how = MLQ_MERGED_BY_TITLE;
		rc = by_title(st, commit, &msg, err);
	}
	if (rc != MLQ_OK || msg == 0)
		return rc;
	put = mlq__store_stmt(st, S_GIT_MERGED,
	    "INSERT OR IGNORE INTO merged(msg, commit_id, how) "
	    "VALUES (?, ?, ?)", err);
	if (put == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(put, 1, msg);
	sqlite3_bind_int64(put, 2, commit);
	sqlite3_bind_int(put, 3, how);
	if ((rc = mlq__store_step_done(st, put, err, "link commit")) != MLQ_OK)
		return rc;
	mlq__review_dirty(st, msg);
	(*linked)++;
	return commit_named(st, commit, err);
}

/* Each row's first integer of s (bound already) through link_one. */
static enum mlq_status
link_rows(struct mlq_store *st, sqlite3_stmt *s, uint64_t *linked,
    struct mlq_err *err)
{
	enum mlq_status rc = MLQ_OK;
	int step;

	while ((step = sqlite3_step(s)) == SQLITE_ROW)
		if ((rc = link_one(st, sqlite3_column_int64(s, 0), linked,
			 err)) != MLQ_OK) {
			sqlite3_reset(s);
			return rc;
		}
	return mlq__store_rows_done(st, s, step, err, "read commits");
}

/* The largest id of a table, 0 when empty. */
static enum mlq_status
max_id(struct mlq_store *st, enum store_stmt slot, const char *sql,
    int64_t *out, struct mlq_err *err)
{
	sqlite3_stmt *s = mlq__store_stmt(st, slot, sql, err);
	enum mlq_status rc;

	if (s == NULL)
		return MLQ_EDB;
	*out = 0;
	rc = mlq__store_step_int(st, s, out, err, "read commits");
	return rc == MLQ_NOTFOUND ? MLQ_OK : rc;
}

enum mlq_status
mlq_store_link_commits(struct mlq_store *st, uint64_t *linked,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	int64_t c_upto = 0, m_upto = 0, c_max, m_max;
	enum mlq_status rc;
	bool have = false;
	int step;

	*linked = 0;
	s = mlq__store_stmt(st, S_GIT_MARK_GET,
	    "SELECT commit_upto, msg_upto FROM git_linked", err);
	if (s == NULL)
		return MLQ_EDB;
	if ((step = sqlite3_step(s)) == SQLITE_ROW) {
		have = true;
		c_upto = sqlite3_column_int64(s, 0);
		m_upto = sqlite3_column_int64(s, 1);
	}
	sqlite3_reset(s);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return mlq__store_fail(st, err, "read link marks");
	if ((rc = max_id(st, S_GIT_MAX_COMMIT, "SELECT max(id) FROM gcommit",
		 &c_max, err)) != MLQ_OK ||
	    (rc = max_id(st, S_GIT_MAX_MSG, "SELECT max(id) FROM msg", &m_max,
		 err)) != MLQ_OK)
		return rc;
	/* No tree read yet: its first pass will see every posting. */
	if (c_max == 0)
		return MLQ_OK;
	/*
	 * Postings stored since the last pass, against the commits that
	 * pass saw: any a rule could now link (a database of version 22
	 * has no marks, and its first pass below sees every commit).
	 */
	if (have && c_upto > 0 && m_max > m_upto) {
		s = mlq__store_stmt(st, S_GIT_NEW_POSTINGS,
		    "SELECT c.id FROM msg m JOIN gcommit c ON "
		    "c.patch_id = m.patch_id WHERE m.id > ?1 AND m.kind = 1 "
		    "AND c.id <= ?2 "
		    "UNION SELECT c.id FROM msg m JOIN gcommit c ON "
		    "c.norm = m.norm AND c.norm <> '' WHERE m.id > ?1 "
		    "AND m.kind = 1 AND c.id <= ?2 "
		    "UNION SELECT g.commit_id FROM msg m JOIN gcommit_msgid g "
		    "ON g.msgid = m.msgid WHERE m.id > ?1 AND g.commit_id <= ?2 "
		    "UNION SELECT c.id FROM named_commit nc JOIN gcommit c "
		    "ON c.oid BETWEEN nc.oid AND nc.oid || 'g' "
		    "WHERE nc.msg > ?1 AND c.id <= ?2 "
		    "EXCEPT SELECT commit_id FROM merged ORDER BY 1", err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, m_upto);
		sqlite3_bind_int64(s, 2, c_upto);
		if ((rc = link_rows(st, s, linked, err)) != MLQ_OK)
			return rc;
	}
	/* Commits read since, against every posting; a link, once made,
	 * stays. */
	if (c_max > c_upto) {
		s = mlq__store_stmt(st, S_GIT_UNLINKED,
		    "SELECT id FROM gcommit c WHERE id > ? AND NOT EXISTS "
		    "(SELECT 1 FROM merged WHERE commit_id = c.id) ORDER BY id",
		    err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, c_upto);
		if ((rc = link_rows(st, s, linked, err)) != MLQ_OK)
			return rc;
		/* A revert in the tree changes what the reverted one
		 * carried. */
		s = mlq__store_stmt(st, S_GIT_REVERTED,
		    "SELECT DISTINCT k.msg FROM gcommit r JOIN gcommit c "
		    "ON c.oid = r.reverts JOIN merged k ON k.commit_id = c.id "
		    "WHERE r.id > ?", err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, c_upto);
		if ((rc = dirty_rows(st, s, "read reverts", err)) != MLQ_OK)
			return rc;
	}
	if (have && c_max == c_upto && m_max == m_upto)
		return MLQ_OK;
	s = mlq__store_stmt(st, S_GIT_MARK_SET,
	    "INSERT INTO git_linked(one, commit_upto, msg_upto) "
	    "VALUES (1, ?1, ?2) ON CONFLICT(one) DO UPDATE SET "
	    "commit_upto = ?1, msg_upto = ?2", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, c_max);
	sqlite3_bind_int64(s, 2, m_max);
	return mlq__store_step_done(st, s, err, "save link marks");
}

/* A commit no followed ref holds any more goes (it has no gcommit_ref
 * row left); what it carried is derived again without it. */
static enum mlq_status
drop_commit(struct mlq_store *st, int64_t commit, struct mlq_err *err)
{
	static const char *const del[] = {
		"DELETE FROM merged WHERE commit_id = ?",
		"DELETE FROM gcommit_msgid WHERE commit_id = ?",
		"DELETE FROM gcommit_fixes WHERE commit_id = ?",
		"DELETE FROM gcommit WHERE id = ?",
		/* Its id may be taken again by the next commit stored: the
		 * next pass must look at that one. */
		"UPDATE git_linked SET commit_upto = min(commit_upto, ?1 - 1)",
	};
	sqlite3_stmt *s;
	enum mlq_status rc;
	char oid[65];
	size_t i;

	/* Its postings, and those of what it reverted. */
	s = mlq__store_stmt(st, S_GIT_DROP_DIRTY,
	    "SELECT msg FROM merged WHERE commit_id = ?1 UNION "
	    "SELECT k.msg FROM gcommit r JOIN gcommit c ON c.oid = r.reverts "
	    "JOIN merged k ON k.commit_id = c.id WHERE r.id = ?1", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, commit);
	if ((rc = dirty_rows(st, s, "drop commit", err)) != MLQ_OK ||
	    (rc = commit_oid(st, commit, oid, err)) != MLQ_OK)
		return rc;
	for (i = 0; i < MLQ__ARRAY_SIZE(del); i++) {
		s = mlq__store_stmt(st, (enum store_stmt)(S_GIT_DROP_0 + i),
		    del[i], err);
		if (s == NULL)
			return MLQ_EDB;
		sqlite3_bind_int64(s, 1, commit);
		if ((rc = mlq__store_step_done(st, s, err, "drop commit")) !=
		    MLQ_OK)
			return rc;
	}
	/* What named it by commit id looks again. */
	return oid[0] != '\0' ? mlq__review_commit_named(st, oid, err) : MLQ_OK;
}

enum mlq_status
mlq_store_commit_unref(struct mlq_store *st, const char *oid, const char *ref,
    struct mlq_err *err)
{
	sqlite3_stmt *s;
	enum mlq_status rc;
	int64_t id;
	int step;

	if ((rc = commit_id(st, oid, &id, err)) != MLQ_OK || id == 0)
		return rc;
	s = mlq__store_stmt(st, S_GIT_UNREF,
	    "DELETE FROM gcommit_ref WHERE commit_id = ? AND ref = ?", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	mlq__store_bind_text(s, 2, ref);
	if ((rc = mlq__store_step_done(st, s, err, "drop ref")) != MLQ_OK)
		return rc;
	if (sqlite3_changes(st->db) == 0)
		return MLQ_OK;
	/* Still in another followed ref: it stays, and so does its link. */
	s = mlq__store_stmt(st, S_GIT_REFS_LEFT,
	    "SELECT 1 FROM gcommit_ref WHERE commit_id = ? LIMIT 1", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, id);
	step = sqlite3_step(s);
	sqlite3_reset(s);
	if (step == SQLITE_ROW)
		return MLQ_OK;
	if (step != SQLITE_DONE)
		return mlq__store_fail(st, err, "drop ref");
	return drop_commit(st, id, err);
}

/*
 * Each row of s (bound already) as a commit: oid, repo, cdate, subject,
 * refs; then, where s has them, how, the reverting commit and its date,
 * and "OID CDATE" of the first commit that fixes it.
 */
static enum mlq_status
commit_rows(struct mlq_store *st, sqlite3_stmt *s, mlq_commit_row_fn fn,
    void *arg, struct mlq_err *err)
{
	struct mlq_commit_row r;
	const char *fx, *sp;
	char fixed[65];
	int step;

	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		memset(&r, 0, sizeof(r));
		r.oid = mlq__store_col_text(s, 0);
		r.repo = mlq__store_col_text(s, 1);
		r.date = sqlite3_column_int64(s, 2);
		r.subject = mlq__store_col_text(s, 3);
		r.refs = mlq__store_col_text(s, 4);
		if (sqlite3_column_count(s) > 5) {
			r.how = sqlite3_column_int(s, 5);
			r.reverted_by = mlq__store_col_text(s, 6);
			r.reverted_date = sqlite3_column_int64(s, 7);
			if ((fx = mlq__store_col_text(s, 8)) != NULL &&
			    (sp = strchr(fx, ' ')) != NULL &&
			    (size_t)(sp - fx) < sizeof(fixed)) {
				memcpy(fixed, fx, (size_t)(sp - fx));
				fixed[sp - fx] = '\0';
				r.fixed_by = fixed;
				r.fixed_date = strtoll(sp + 1, NULL, 10);
			}
		}
		if (fn(&r, arg) != 0) {
			sqlite3_reset(s);
			return MLQ_OK;
		}
	}
	return mlq__store_rows_done(st, s, step, err, "read commits");
}

enum mlq_status
mlq_store_commits_of(struct mlq_store *st, int64_t msg, mlq_commit_row_fn fn,
    void *arg, struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_GIT_OF,
	    "SELECT c.oid, c.repo, c.cdate, c.subject, "
	    "(SELECT group_concat(ref, ' ') FROM gcommit_ref WHERE "
	    "commit_id = c.id), k.how, "
	    "(SELECT r.oid FROM gcommit r WHERE r.reverts = c.oid LIMIT 1), "
	    "(SELECT r.cdate FROM gcommit r WHERE r.reverts = c.oid LIMIT 1), "
	    "(SELECT x.oid || ' ' || x.cdate FROM gcommit_fixes f "
	    "JOIN gcommit x ON x.id = f.commit_id "
	    "WHERE f.ckey = substr(c.oid, 1, 12) ORDER BY x.cdate LIMIT 1) "
	    "FROM merged k JOIN gcommit c ON c.id = k.commit_id "
	    "WHERE k.msg = ? ORDER BY c.cdate, c.oid", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, msg);
	return commit_rows(st, s, fn, arg, err);
}

enum mlq_status
mlq_store_commits_named(struct mlq_store *st, int64_t msg, int kind,
    mlq_commit_row_fn fn, void *arg, struct mlq_err *err)
{
	sqlite3_stmt *s;

	s = mlq__store_stmt(st, S_GIT_NAMED_BY,
	    "SELECT DISTINCT c.oid, c.repo, c.cdate, c.subject, "
	    "(SELECT group_concat(ref, ' ') FROM gcommit_ref WHERE "
	    "commit_id = c.id) FROM ref f JOIN gcommit c "
	    "ON c.oid >= f.commit_id AND c.oid < f.commit_id || 'g' "
	    "WHERE f.msg = ? AND f.kind = ? AND f.commit_id IS NOT NULL "
	    "ORDER BY c.cdate, c.oid", err);
	if (s == NULL)
		return MLQ_EDB;
	sqlite3_bind_int64(s, 1, msg);
	sqlite3_bind_int(s, 2, kind);
	return commit_rows(st, s, fn, arg, err);
}

enum mlq_status
mlq_store_commit_posting(struct mlq_store *st, const char *prefix,
    struct mlq_buf *msgid, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int step, n = 0;

	s = mlq__store_stmt(st, S_GIT_POSTING,
	    "SELECT DISTINCT c.oid, m.msgid FROM gcommit c "
	    "JOIN merged k ON k.commit_id = c.id JOIN msg m ON m.id = k.msg "
	    "WHERE c.oid >= lower(?1) AND c.oid < lower(?1) || 'g' LIMIT 2",
	    err);
	if (s == NULL)
		return MLQ_EDB;
	mlq__store_bind_text(s, 1, prefix);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (n++ == 0) {
			mlq_buf_reset(msgid);
			mlq_buf_addstr(msgid, mlq__store_col_text(s, 1));
		}
	}
	sqlite3_reset(s);
	if (step != SQLITE_DONE)
		return mlq__store_fail(st, err, "find commit");
	if (n == 0)
		return MLQ_NOTFOUND;
	if (n > 1)
		return mlq_err_set(err, MLQ_EINPUT,
		    "'%s' names more than one commit or posting; give more of "
		    "the id", prefix);
	return msgid->oom ? mlq_err_set(err, MLQ_ENOMEM, "out of memory")
			  : MLQ_OK;
}

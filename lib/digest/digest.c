/*
 * The digest of a period: what a maintainer needs on Monday morning,
 * built from the store, rendered as plain text wrapped at 72 columns.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "digest-int.h"

#define DIGEST_WIDTH 72
#define DAY	     86400
/* An unanswered question is reported this long after it was asked. */
#define QUESTION_AGE (2 * DAY)

struct digest_build {
	struct mlq_store *st;
	struct mlq_digest *d;
	const struct mlq_conf *conf;
	struct mlq_err *err;
	enum mlq_status rc;
	/* The messages of a window, copied into the arena. */
	struct mlq__dmsg *msgs;
	size_t nmsgs;
	/* What mlq__store_digest_get found last. */
	struct mlq__dmsg got;
	bool have_got;
};

static void *
digest_grow(struct digest_build *b, void *arr, size_t n, size_t size)
{
	void *p = mlq_arena_grow(b->d->arena, arr, n, size);

	if (p == NULL && b->rc == MLQ_OK)
		b->rc =
		    mlq_err_set(b->err, MLQ_ENOMEM, "digest: out of memory");
	return p;
}

static const char *
digest_strdup(struct digest_build *b, const char *s)
{
	char *p;

	if (s == NULL)
		return NULL;
	if ((p = mlq_arena_strdup(b->d->arena, s)) == NULL && b->rc == MLQ_OK)
		b->rc =
		    mlq_err_set(b->err, MLQ_ENOMEM, "digest: out of memory");
	return p;
}

static const char *
digest_strbuf(struct digest_build *b, struct mlq_buf *t)
{
	if (t->oom) {
		if (b->rc == MLQ_OK)
			b->rc = mlq_err_set(b->err, MLQ_ENOMEM,
			    "digest: out of memory");
		return NULL;
	}
	return digest_strdup(b, t->data);
}

/* ---- text helpers ---- */

size_t
mlq__cols(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

void
mlq__wrap(struct mlq_buf *b, const char *first, const char *rest,
    const char *text, size_t width)
{
	const char *p = text, *w;
	size_t col, wl, wc;
	bool empty = true;

	mlq_buf_addstr(b, first);
	col = mlq__cols(first, strlen(first));
	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		w = p;
		p += strcspn(p, " ");
		wl = (size_t)(p - w);
		wc = mlq__cols(w, wl);
		if (!empty && col + 1 + wc > width) {
			mlq_buf_addch(b, '\n');
			mlq_buf_addstr(b, rest);
			col = mlq__cols(rest, strlen(rest));
			empty = true;
		}
		if (!empty) {
			mlq_buf_addch(b, ' ');
			col++;
		}
		mlq_buf_add(b, w, wl);
		col += wc;
		empty = false;
	}
	mlq_buf_addch(b, '\n');
}

void
mlq__pct_encode(struct mlq_buf *b, const char *s)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(keep, *p) != NULL)
			mlq_buf_addch(b, (char)*p);
		else
			mlq_buf_addf(b, "%%%02X", *p);
	}
}

/*
 * Mail text for one line of a digest: controls made visible, invalid
 * UTF-8 replaced, whitespace folded and trimmed, cut to 'max' code points.
 */
static const char *
digest_clean(struct digest_build *b, const char *s, size_t max)
{
	struct mlq_buf e, t;
	const char *r;
	size_t i, cols = 0;
	bool space = false;

	if (s == NULL)
		s = "";
	mlq_buf_init(&e);
	mlq_buf_init(&t);
	mlq_text_escape(&e, s, strlen(s));
	for (i = 0; i < e.len; i++) {
		if (e.data[i] == ' ') {
			space = t.len > 0;
			continue;
		}
		if (((unsigned char)e.data[i] & 0xc0) != 0x80) {
			if (cols + (space ? 1 : 0) >= max) {
				mlq_buf_addstr(&t, "...");
				break;
			}
			cols += space ? 2 : 1;
		}
		if (space)
			mlq_buf_addch(&t, ' ');
		space = false;
		mlq_buf_addch(&t, e.data[i]);
	}
	r = digest_strbuf(b, &t);
	mlq_buf_release(&e);
	mlq_buf_release(&t);
	return r;
}

/* ---- building ---- */

/* A link template with its %s filled by the Message-Id, into t. */
static void
link_fill(struct mlq_buf *t, const char *tmpl, const char *msgid)
{
	const char *pct = strstr(tmpl, "%s");

	mlq_buf_add(t, tmpl, (size_t)(pct - tmpl));
	mlq__pct_encode(t, msgid);
	mlq_buf_addstr(t, pct + 2);
}

/*
 * A message's URL: its source's 'link', else the public-inbox URL of an
 * http(s) source of its list, else [digest] link, else <msgid>.
 */
static const char *
digest_link(struct digest_build *b, const char *msgid, const char *list)
{
	const struct mlq_conf_source *src;
	struct mlq_buf t;
	const char *r;
	size_t i, n;

	mlq_buf_init(&t);
	for (i = 0; b->conf != NULL && list != NULL && i < b->conf->nsources &&
	     t.len == 0;
	     i++) {
		src = &b->conf->sources[i];
		if (src->list == NULL || strcmp(src->list, list) != 0)
			continue;
		if (src->link != NULL) {
			link_fill(&t, src->link, msgid);
			break;
		}
		if (strncmp(src->url, "https://", 8) != 0 &&
		    strncmp(src->url, "http://", 7) != 0)
			continue;
		n = strlen(src->url);
		mlq_buf_addstr(&t, src->url);
		if (n > 0 && src->url[n - 1] != '/')
			mlq_buf_addch(&t, '/');
		mlq__pct_encode(&t, msgid);
		mlq_buf_addch(&t, '/');
	}
	if (t.len == 0 && b->conf != NULL && b->conf->digest.link != NULL)
		link_fill(&t, b->conf->digest.link, msgid);
	if (t.len == 0) {
		mlq_buf_addch(&t, '<');
		mlq_text_escape(&t, msgid, strlen(msgid));
		mlq_buf_addch(&t, '>');
	}
	r = digest_strbuf(b, &t);
	mlq_buf_release(&t);
	return r;
}

static void
digest_msg(struct digest_build *b, const struct mlq__dmsg *m,
    struct mlq_digest_msg *out)
{
	memset(out, 0, sizeof(*out));
	out->id = m->id;
	out->msgid = digest_strdup(b, m->msgid);
	out->subject = digest_clean(b, m->subject, MLQ_DIGEST_SUBJECT_COLS);
	out->from_name = digest_clean(b, m->from_name, MLQ_DIGEST_SUBJECT_COLS);
	out->from_email =
	    digest_clean(b, m->from_email, MLQ_DIGEST_SUBJECT_COLS);
	out->list = digest_strdup(b, m->list);
	out->link = digest_link(b, m->msgid, m->list);
	out->date_ok = m->date_ok;
	out->date = m->date;
	out->kind = m->kind;
	out->version = m->version;
	out->status = m->status;
}

static int
digest_got(const struct mlq__dmsg *m, void *arg)
{
	struct digest_build *b = arg;

	b->got = *m;
	b->got.msgid = digest_strdup(b, m->msgid);
	b->got.subject = digest_strdup(b, m->subject);
	b->got.from_name = digest_strdup(b, m->from_name);
	b->got.from_email = digest_strdup(b, m->from_email);
	b->got.list = digest_strdup(b, m->list);
	b->got.norm = digest_strdup(b, m->norm);
	b->got.sub_from = digest_strdup(b, m->sub_from);
	b->have_got = true;
	return 1;
}

/* Message id as a digest message; false when absent or on failure. */
static bool
digest_get(struct digest_build *b, int64_t id, struct mlq_digest_msg *out,
    enum mlq_state *status)
{
	enum mlq_status rc;

	b->have_got = false;
	rc =
	    mlq__store_digest_get(b->st, id, b->d->list, digest_got, b, b->err);
	if (rc != MLQ_OK && rc != MLQ_NOTFOUND && b->rc == MLQ_OK)
		b->rc = rc;
	if (!b->have_got || b->rc != MLQ_OK)
		return false;
	digest_msg(b, &b->got, out);
	if (status != NULL)
		*status = b->got.status;
	return true;
}

/* The section's item for message id, added if new; NULL when full. */
static struct mlq_digest_item *
digest_item(struct digest_build *b, enum mlq_digest_section sec,
    const struct mlq_digest_msg *m)
{
	struct mlq_digest *d = b->d;
	struct mlq_digest_item *items;
	size_t i;

	for (i = 0; i < d->nitems[sec]; i++)
		if (d->items[sec][i].msg.id == m->id)
			return &d->items[sec][i];
	if (d->nitems[sec] >= MLQ_DIGEST_MAX_ITEMS) {
		d->nmore[sec]++;
		return NULL;
	}
	items = digest_grow(b, d->items[sec], d->nitems[sec], sizeof(*items));
	if (items == NULL)
		return NULL;
	d->items[sec] = items;
	memset(&items[d->nitems[sec]], 0, sizeof(*items));
	items[d->nitems[sec]].msg = *m;
	return &items[d->nitems[sec]++];
}

static void
digest_rel_add(struct digest_build *b, struct mlq_digest_item *it,
    const struct mlq_digest_msg *m)
{
	struct mlq_digest_msg *rel;

	if (it == NULL)
		return;
	if ((rel = digest_grow(b, it->rel, it->nrel, sizeof(*rel))) == NULL)
		return;
	it->rel = rel;
	rel[it->nrel++] = *m;
}

static bool
digest_is_watched(const struct mlq_digest *d, const char *email)
{
	const char *at = strrchr(email, '@'), *w, *dom;
	size_t i, dl, wl;

	if (at == NULL)
		return false;
	dom = at + 1;
	dl = strlen(dom);
	for (i = 0; i < d->nwatch; i++) {
		w = d->watch[i];
		if (*w != '@' && strchr(w, '@') != NULL) {
			if (strcasecmp(w, email) == 0)
				return true;
			continue;
		}
		if (*w == '@')
			w++;
		wl = strlen(w);
		/* The domain itself or a subdomain of it. */
		if (dl == wl ? strcasecmp(dom, w) == 0
			     : dl > wl && dom[dl - wl - 1] == '.' &&
			    strcasecmp(dom + dl - wl, w) == 0)
			return true;
	}
	return false;
}

static int
digest_collect(const struct mlq__dmsg *m, void *arg)
{
	struct digest_build *b = arg;
	struct mlq__dmsg *arr, *c;

	if ((arr = digest_grow(b, b->msgs, b->nmsgs, sizeof(*arr))) == NULL)
		return 1;
	b->msgs = arr;
	c = &arr[b->nmsgs++];
	*c = *m;
	c->msgid = digest_strdup(b, m->msgid);
	c->subject = digest_strdup(b, m->subject);
	c->from_name = digest_strdup(b, m->from_name);
	c->from_email = digest_strdup(b, m->from_email);
	c->list = digest_strdup(b, m->list);
	c->norm = digest_strdup(b, m->norm);
	c->sub_from = digest_strdup(b, m->sub_from);
	return b->rc != MLQ_OK;
}

/* Reads [since, until) into b->msgs. */
static void
digest_window(struct digest_build *b, int64_t since, int64_t until)
{
	enum mlq_status rc;

	b->msgs = NULL;
	b->nmsgs = 0;
	rc = mlq__store_digest_msgs(b->st, since, until, b->d->list,
	    digest_collect, b, b->err);
	if (rc != MLQ_OK && rc != MLQ_NOTFOUND && b->rc == MLQ_OK)
		b->rc = rc;
}

static int
digest_on_list(const struct mlq_digest_list *l, void *arg)
{
	struct digest_build *b = arg;
	struct mlq_digest_list *arr;

	if ((arr = digest_grow(b, b->d->lists, b->d->nlists, sizeof(*arr))) ==
	    NULL)
		return 1;
	b->d->lists = arr;
	arr[b->d->nlists] = *l;
	arr[b->d->nlists++].list = digest_strdup(b, l->list);
	return 0;
}

/* The original a revert reverts: the link, else the quoted title. */
static void
digest_revert(struct digest_build *b, const struct mlq__dmsg *m)
{
	struct mlq_digest_msg msg, orig;
	struct mlq_digest_item *it;
	struct mlq_subject subj, inner;
	int64_t ids[1], id = 0;
	size_t n;
	enum mlq_status rc;

	digest_msg(b, m, &msg);
	if ((it = digest_item(b, MLQ_DIGEST_REVERTS, &msg)) == NULL)
		return;
	rc = mlq__store_digest_links(b->st, m->id, MLQ_LINK_REVERT, ids, 1, &n,
	    b->err);
	if (rc == MLQ_OK && n > 0)
		id = ids[0];
	if (rc == MLQ_OK && id == 0 &&
	    mlq_subject_parse(m->subject, b->d->arena, &subj, NULL) == MLQ_OK &&
	    subj.reverted != NULL &&
	    mlq_subject_parse(subj.reverted, b->d->arena, &inner, NULL) ==
		MLQ_OK)
		rc = mlq__store_digest_title(b->st, inner.norm, NULL, 0,
		    m->date_ok ? m->date : b->d->until, &id, b->err);
	if (rc != MLQ_OK) {
		b->rc = rc;
		return;
	}
	if (id != 0 && digest_get(b, id, &orig, NULL))
		digest_rel_add(b, it, &orig);
}

/*
 * A newer version of it->msg, once per version: every posting of a version
 * links to the older ones, and a RESEND would repeat the first posting
 * (the period is scanned by date, so that one comes first).
 */
static void
digest_newer_add(struct digest_build *b, struct mlq_digest_item *it,
    const struct mlq_digest_msg *m)
{
	size_t i;

	if (it == NULL)
		return;
	for (i = 0; i < it->nrel; i++)
		if (it->rel[i].version == m->version)
			return;
	digest_rel_add(b, it, m);
}

/* Older versions of a vN submission: the links, else same author and title. */
static void
digest_versions(struct digest_build *b, const struct mlq__dmsg *m)
{
	struct mlq_digest_msg newer, older;
	int64_t ids[16];
	size_t n, i;
	enum mlq_status rc;

	rc = mlq__store_digest_links(b->st, m->id, MLQ_LINK_VERSION, ids,
	    MLQ__ARRAY_SIZE(ids), &n, b->err);
	if (rc == MLQ_OK && n == 0 && m->norm != NULL && *m->norm != '\0') {
		rc = mlq__store_digest_title(b->st, m->norm, m->from_email,
		    m->version, m->date_ok ? m->date : b->d->until, &ids[0],
		    b->err);
		n = ids[0] != 0;
	}
	if (rc != MLQ_OK) {
		b->rc = rc;
		return;
	}
	/* A pull request pulls a series, it is no version of it. */
	if (n == 0 || m->kind == 3)
		return;
	digest_msg(b, m, &newer);
	for (i = 0; i < n; i++) {
		if (!digest_get(b, ids[i], &older, NULL) || older.kind == 3)
			continue;
		/* Whatever a link says, a version is newer than the one it
		 * replaces. */
		if (older.date_ok && newer.date_ok && older.date > newer.date)
			continue;
		digest_newer_add(b,
		    digest_item(b, MLQ_DIGEST_SUPERSEDED, &older), &newer);
	}
}

static void
digest_nack(struct digest_build *b, const struct mlq__dmsg *m)
{
	struct mlq_digest_msg sub, reply;

	if (!digest_get(b, m->sub, &sub, NULL))
		return;
	digest_msg(b, m, &reply);
	digest_rel_add(b, digest_item(b, MLQ_DIGEST_NACKED, &sub), &reply);
}

static int
digest_cmp_email(const void *x, const void *y)
{
	const struct mlq__dmsg *const *a = x, *const *b = y;
	int c = strcmp((*a)->from_email, (*b)->from_email);

	if (c != 0)
		return c;
	return (*a)->date < (*b)->date ? -1 : (*a)->date > (*b)->date;
}

static int
digest_cmp_reviewer(const void *x, const void *y)
{
	const struct mlq_digest_reviewer *a = x, *b = y;

	if (a->replies != b->replies)
		return a->replies > b->replies ? -1 : 1;
	return strcmp(a->email, b->email);
}

/* Replies to someone else's submission, counted per sender. */
static void
digest_reviewers(struct digest_build *b)
{
	struct mlq_digest *d = b->d;
	const struct mlq__dmsg **r;
	struct mlq_digest_reviewer *rv = NULL, *g;
	size_t i, j, n = 0, nrv = 0;
	const char *name;

	if (b->nmsgs == 0)
		return;
	if ((r = calloc(b->nmsgs, sizeof(*r))) == NULL) {
		b->rc =
		    mlq_err_set(b->err, MLQ_ENOMEM, "digest: out of memory");
		return;
	}
	for (i = 0; i < b->nmsgs; i++)
		if (b->msgs[i].is_reply && b->msgs[i].sub_from != NULL &&
		    *b->msgs[i].from_email != '\0' &&
		    strcmp(b->msgs[i].from_email, b->msgs[i].sub_from) != 0)
			r[n++] = &b->msgs[i];
	qsort(r, n, sizeof(*r), digest_cmp_email);
	for (i = 0; i < n; i = j) {
		name = "";
		for (j = i;
		     j < n && strcmp(r[j]->from_email, r[i]->from_email) == 0;
		     j++)
			if (*r[j]->from_name != '\0')
				name = r[j]->from_name;
		if ((g = digest_grow(b, rv, nrv, sizeof(*rv))) == NULL)
			break;
		rv = g;
		rv[nrv].name = digest_clean(b, name, MLQ_DIGEST_SUBJECT_COLS);
		rv[nrv].email =
		    digest_clean(b, r[i]->from_email, MLQ_DIGEST_SUBJECT_COLS);
		rv[nrv++].replies = (int64_t)(j - i);
	}
	free(r);
	if (rv == NULL)
		return;
	qsort(rv, nrv, sizeof(*rv), digest_cmp_reviewer);
	d->reviewers = rv;
	d->nreviewers = nrv < MLQ_DIGEST_REVIEWERS ? nrv : MLQ_DIGEST_REVIEWERS;
}

static void
digest_scan_period(struct digest_build *b)
{
	const struct mlq__dmsg *m;
	struct mlq_digest_msg msg;
	size_t i;

	digest_window(b, b->d->since, b->d->until);
	for (i = 0; i < b->nmsgs && b->rc == MLQ_OK; i++) {
		m = &b->msgs[i];
		if (m->kind > 0 && m->top &&
		    digest_is_watched(b->d, m->from_email)) {
			digest_msg(b, m, &msg);
			digest_item(b, MLQ_DIGEST_WATCHED, &msg);
		}
		if (m->kind > 0 && (m->tags & MLQ_TAG_REVERT))
			digest_revert(b, m);
		if (m->is_reply && (m->tags & MLQ_TAG_NACK) && m->sub != 0)
			digest_nack(b, m);
		if (m->kind > 0 && m->top && m->version > 1)
			digest_versions(b, m);
	}
	if (b->rc == MLQ_OK)
		digest_reviewers(b);
}

static bool
digest_is_closed(enum mlq_state s)
{
	return s == MLQ_STATE_APPLIED || s == MLQ_STATE_NACKED ||
	    s == MLQ_STATE_REVERTED || s == MLQ_STATE_SUPERSEDED ||
	    s == MLQ_STATE_MERGED;
}

/* Questions asked long enough ago that the submitter has not answered. */
static void
digest_scan_questions(struct digest_build *b)
{
	const struct mlq__dmsg *m;
	struct mlq_digest_msg sub, q;
	enum mlq_state status;
	int64_t end = b->d->until - QUESTION_AGE;
	size_t i;
	bool answered;

	digest_window(b, end - MLQ_DIGEST_LOOKBACK_DAYS * DAY, end);
	for (i = 0; i < b->nmsgs && b->rc == MLQ_OK; i++) {
		m = &b->msgs[i];
		if (!m->is_reply || !(m->tags & MLQ_TAG_QUESTION) ||
		    m->sub == 0 || m->sub_from == NULL ||
		    strcmp(m->from_email, m->sub_from) == 0)
			continue;
		b->rc = mlq__store_digest_below(b->st, m->id, m->sub_from, true,
		    b->d->until, &answered, b->err);
		if (b->rc != MLQ_OK || answered)
			continue;
		if (!digest_get(b, m->sub, &sub, &status) ||
		    digest_is_closed(status))
			continue;
		digest_msg(b, m, &q);
		digest_rel_add(b, digest_item(b, MLQ_DIGEST_QUESTIONS, &sub),
		    &q);
	}
}

/* Submissions nobody but their author answered within the deadline. */
static void
digest_scan_unreviewed(struct digest_build *b)
{
	const struct mlq__dmsg *m;
	struct mlq_digest_msg msg;
	int64_t end = b->d->until - (int64_t)b->d->unreviewed_days * DAY;
	size_t i;
	bool reviewed;

	digest_window(b, end - MLQ_DIGEST_LOOKBACK_DAYS * DAY, end);
	for (i = 0; i < b->nmsgs && b->rc == MLQ_OK; i++) {
		m = &b->msgs[i];
		if (m->kind == 0 || !m->top || m->status != MLQ_STATE_PENDING)
			continue;
		b->rc = mlq__store_digest_below(b->st, m->id, m->from_email,
		    false, b->d->until, &reviewed, b->err);
		if (b->rc != MLQ_OK || reviewed)
			continue;
		digest_msg(b, m, &msg);
		digest_item(b, MLQ_DIGEST_UNREVIEWED, &msg);
	}
}

/* A commit of the period: its ref's counts, and its posting if unreviewed. */
static int
digest_on_commit(const struct mlq__dcommit *c, void *arg)
{
	struct digest_build *b = arg;
	struct mlq_digest *d = b->d;
	struct mlq_digest_merged *g = d->nmerged > 0 ?
	    &d->merged[d->nmerged - 1] : NULL;
	struct mlq_digest_item *it;
	struct mlq_digest_msg msg;
	enum mlq_status rc;
	int64_t first;

	if (g == NULL || strcmp(g->repo, c->repo) != 0 ||
	    strcmp(g->ref, c->ref) != 0) {
		g = digest_grow(b, d->merged, d->nmerged, sizeof(*g));
		if (g == NULL)
			return 1;
		d->merged = g;
		g = &d->merged[d->nmerged++];
		memset(g, 0, sizeof(*g));
		g->repo = digest_clean(b, c->repo, 200);
		g->ref = digest_clean(b, c->ref, 200);
	}
	g->commits++;
	if (c->msg == 0)
		return 0;
	g->postings++;
	rc = mlq_store_first_review(b->st, c->msg, &first, b->err);
	if (rc == MLQ_OK)
		return 0;
	if (rc != MLQ_NOTFOUND) {
		b->rc = rc;
		return 1;
	}
	g->unreviewed++;
	if (!digest_get(b, c->msg, &msg, NULL))
		return b->rc != MLQ_OK;
	it = digest_item(b, MLQ_DIGEST_MERGED_UNREVIEWED, &msg);
	if (it != NULL && it->commit == NULL) {
		it->commit = digest_strdup(b, c->oid);
		it->commit_repo = g->repo;
		it->commit_ref = g->ref;
		it->commit_date = c->date;
	}
	return 0;
}

static void
digest_scan_merged(struct digest_build *b)
{
	enum mlq_status rc;

	rc = mlq__store_digest_commits(b->st, b->d->since, b->d->until,
	    b->d->list, digest_on_commit, b, b->err);
	if (rc != MLQ_OK && b->rc == MLQ_OK)
		b->rc = rc;
}

static void
digest_title(struct digest_build *b)
{
	struct mlq_buf t;
	char label[64];
	size_t i;

	mlq_digest_label(b->d->since, b->d->until, label, sizeof(label));
	b->d->label = digest_strdup(b, label);
	mlq_buf_init(&t);
	/* The lists and the period: what a reader files it by. */
	mlq_buf_addstr(&t, "mlq digest: ");
	if (b->d->list != NULL)
		mlq_buf_addstr(&t, b->d->list);
	else if (b->d->nlists == 0)
		mlq_buf_addstr(&t, "no mail");
	for (i = 0; b->d->list == NULL && i < b->d->nlists; i++)
		mlq_buf_addf(&t, "%s%s", i ? ", " : "", b->d->lists[i].list);
	mlq_buf_addf(&t, ", %s", label);
	b->d->title = digest_clean(b, t.oom ? "" : t.data, 2 * DIGEST_WIDTH);
	mlq_buf_release(&t);
}

enum mlq_status
mlq_digest_build(struct mlq_store *st, const struct mlq_digest_opts *opts,
    struct mlq_digest **out, struct mlq_err *err)
{
	struct digest_build b;
	struct mlq_digest *d;
	size_t i;

	*out = NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->arena = mlq_arena_new()) == NULL) {
		free(d);
		return mlq_err_set(err, MLQ_ENOMEM, "digest: out of memory");
	}
	memset(&b, 0, sizeof(b));
	b.st = st;
	b.d = d;
	b.conf = opts->conf;
	b.err = err;
	d->since = opts->since;
	d->until = opts->until;
	d->unreviewed_days =
	    opts->unreviewed_days > 0 ? opts->unreviewed_days : 14;
	d->list = digest_strdup(&b, opts->list);
	if (opts->nwatch > 0 && opts->nwatch < SIZE_MAX / sizeof(*d->watch) &&
	    (d->watch = mlq_arena_alloc(d->arena,
		 opts->nwatch * sizeof(*d->watch))) != NULL) {
		for (i = 0; i < opts->nwatch; i++)
			d->watch[i] = digest_strdup(&b, opts->watch[i]);
		d->nwatch = opts->nwatch;
	}
	if (b.rc == MLQ_OK)
		b.rc = mlq__store_digest_lists(st, d->since, d->until, d->list,
		    digest_on_list, &b, err);
	if (b.rc == MLQ_OK)
		digest_title(&b);
	if (b.rc == MLQ_OK)
		digest_scan_period(&b);
	if (b.rc == MLQ_OK)
		digest_scan_questions(&b);
	if (b.rc == MLQ_OK)
		digest_scan_unreviewed(&b);
	if (b.rc == MLQ_OK)
		digest_scan_merged(&b);
	if (b.rc != MLQ_OK) {
		mlq_digest_free(d);
		return b.rc;
	}
	*out = d;
	return MLQ_OK;
}

void
mlq_digest_free(struct mlq_digest *d)
{
	if (d == NULL)
		return;
	mlq_arena_free(d->arena);
	free(d);
}

const char *
mlq_digest_section_key(enum mlq_digest_section s)
{
	static const char *const keys[MLQ_DIGEST_NSECTIONS] = {
		[MLQ_DIGEST_WATCHED] = "watched",
		[MLQ_DIGEST_NACKED] = "nacked",
		[MLQ_DIGEST_REVERTS] = "reverts",
		[MLQ_DIGEST_QUESTIONS] = "questions",
		[MLQ_DIGEST_UNREVIEWED] = "unreviewed",
		[MLQ_DIGEST_SUPERSEDED] = "superseded",
		[MLQ_DIGEST_MERGED_UNREVIEWED] = "merged_without_review",
	};

	return (unsigned)s < MLQ_DIGEST_NSECTIONS ? keys[s] : NULL;
}

/* ---- rendering ---- */

enum fmt { FMT_DAY, FMT_MINUTE, FMT_ZONE };

/* A local date: "2021-04-20", "2021-04-20 08:00" or "08:00 CEST". */
static void
digest_fmt_local(int64_t t, enum fmt f, char *out, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;
	size_t r = 0;

	if (localtime_r(&tt, &tm) != NULL) {
		if (f == FMT_DAY)
			r = strftime(out, n, "%Y-%m-%d", &tm);
		else if (f == FMT_MINUTE)
			r = strftime(out, n, "%Y-%m-%d %H:%M", &tm);
		else
			r = strftime(out, n, "%Y-%m-%d %H:%M %Z", &tm);
	}
	if (r == 0)
		snprintf(out, n, "?");
}

static void
digest_heading(struct mlq_buf *b, const char *title)
{
	size_t i, n = mlq__cols(title, strlen(title));

	mlq_buf_addch(b, '\n');
	mlq__wrap(b, "", "", title, DIGEST_WIDTH);
	for (i = 0; i < n && i < DIGEST_WIDTH; i++)
		mlq_buf_addch(b, '-');
	mlq_buf_addch(b, '\n');
}

/* "2021-04-20, Jane Doe <jane@umn.edu>, pending" */
static void
digest_msg_line(struct mlq_buf *b, const struct mlq_digest_msg *m,
    const char *ind, bool status)
{
	struct mlq_buf t;
	char date[32] = "unknown date";

	mlq_buf_init(&t);
	if (m->date_ok)
		digest_fmt_local(m->date, FMT_DAY, date, sizeof(date));
	mlq_buf_addf(&t, "%s, ", date);
	if (*m->from_name != '\0')
		mlq_buf_addf(&t, "%s <%s>", m->from_name, m->from_email);
	else
		mlq_buf_addf(&t, "<%s>", m->from_email);
	if (status && m->kind > 0)
		mlq_buf_addf(&t, ", %s", mlq_state_name(m->status));
	mlq__wrap(b, ind, ind, t.data, DIGEST_WIDTH);
	mlq_buf_release(&t);
}

/* A message in full: subject, date/sender/status, link. */
static void
digest_msg_block(struct mlq_buf *b, const struct mlq_digest_msg *m,
    const char *first, const char *ind)
{
	mlq__wrap(b, first, ind, m->subject, DIGEST_WIDTH);
	digest_msg_line(b, m, ind, true);
	mlq__wrap(b, ind, ind, m->link, DIGEST_WIDTH);
}

static void
digest_rel_lines(struct mlq_buf *b, enum mlq_digest_section sec,
    const struct mlq_digest_item *it)
{
	struct mlq_buf t;
	char date[32];
	size_t i;

	if (sec == MLQ_DIGEST_REVERTS && it->nrel == 0)
		mlq_buf_addstr(b, "  Reverts: (original not found)\n");
	if (it->commit != NULL) {
		digest_fmt_local(it->commit_date, FMT_DAY, date, sizeof(date));
		mlq_buf_init(&t);
		/* The whole id: a reader pastes it into git show. */
		mlq_buf_addf(&t, "Merged as %s in %s %s, %s", it->commit,
		    it->commit_repo, it->commit_ref, date);
		mlq__wrap(b, "  ", "    ", t.data, DIGEST_WIDTH);
		mlq_buf_release(&t);
	}
	for (i = 0; i < it->nrel; i++) {
		const struct mlq_digest_msg *r = &it->rel[i];

		switch (sec) {
		case MLQ_DIGEST_REVERTS:
			mlq_buf_addstr(b, "  Reverts:\n");
			digest_msg_block(b, r, "    ", "    ");
			break;
		case MLQ_DIGEST_SUPERSEDED:
			mlq_buf_addf(b, "  Superseded by v%d:\n", r->version);
			digest_msg_block(b, r, "    ", "    ");
			break;
		case MLQ_DIGEST_NACKED:
		case MLQ_DIGEST_QUESTIONS:
			mlq_buf_init(&t);
			snprintf(date, sizeof(date), "unknown date");
			if (r->date_ok)
				digest_fmt_local(r->date, FMT_DAY, date,
				    sizeof(date));
			mlq_buf_addf(&t, "%s by %s%s<%s>, %s",
			    sec == MLQ_DIGEST_NACKED ? "NACKed" : "Asked",
			    r->from_name, *r->from_name ? " " : "",
			    r->from_email, date);
			mlq__wrap(b, "  ", "    ", t.data, DIGEST_WIDTH);
			mlq_buf_release(&t);
			break;
		default:
			break;
		}
	}
}

static const char *
digest_section_title(const struct mlq_digest *d, enum mlq_digest_section s,
    char *buf, size_t n)
{
	switch (s) {
	case MLQ_DIGEST_WATCHED:
		return "New submissions from watched senders";
	case MLQ_DIGEST_NACKED:
		return "NACKed in this period";
	case MLQ_DIGEST_REVERTS:
		return "Reverts posted in this period";
	case MLQ_DIGEST_QUESTIONS:
		return "Open questions (no answer from the submitter)";
	case MLQ_DIGEST_UNREVIEWED:
		snprintf(buf, n, "No review after %d days", d->unreviewed_days);
		return buf;
	case MLQ_DIGEST_SUPERSEDED:
		return "Superseded by a new version";
	case MLQ_DIGEST_MERGED_UNREVIEWED:
		return "Merged without review (no reply but its author's)";
	default:
		return "";
	}
}

static void
digest_summary(struct mlq_buf *b, const struct mlq_digest_list *l)
{
	struct mlq_buf t;

	mlq_buf_init(&t);
	mlq_buf_addf(&t,
	    "%s: %lld new submission%s, %lld repl%s, %lld NACK%s, "
	    "%lld revert%s, %lld applied",
	    l->list, (long long)l->submissions, l->submissions == 1 ? "" : "s",
	    (long long)l->replies, l->replies == 1 ? "y" : "ies",
	    (long long)l->nacks, l->nacks == 1 ? "" : "s",
	    (long long)l->reverts, l->reverts == 1 ? "" : "s",
	    (long long)l->applied);
	mlq__wrap(b, "  ", "    ", t.data, DIGEST_WIDTH);
	mlq_buf_release(&t);
}

/* "linux master: 12 commits, 9 from postings, 2 of them without review" */
static void
digest_merged_line(struct mlq_buf *b, const struct mlq_digest_merged *g)
{
	struct mlq_buf t;

	mlq_buf_init(&t);
	mlq_buf_addf(&t,
	    "%s %s: %lld commit%s, %lld from postings, %lld of them without "
	    "review",
	    g->repo, g->ref, (long long)g->commits, g->commits == 1 ? "" : "s",
	    (long long)g->postings, (long long)g->unreviewed);
	mlq__wrap(b, "  ", "    ", t.data, DIGEST_WIDTH);
	mlq_buf_release(&t);
}

void
mlq_digest_render(const struct mlq_digest *d, struct mlq_buf *b)
{
	struct mlq_buf t;
	char from[32], to[32], buf[64];
	unsigned s;
	size_t i;
	bool any = d->nlists > 0;

	mlq__wrap(b, "", "", d->title, DIGEST_WIDTH);
	digest_fmt_local(d->since, FMT_MINUTE, from, sizeof(from));
	digest_fmt_local(d->until, FMT_ZONE, to, sizeof(to));
	mlq_buf_init(&t);
	mlq_buf_addf(&t, "From %s to %s", from, to);
	mlq__wrap(b, "", "", t.data, DIGEST_WIDTH);
	if (d->nwatch > 0) {
		mlq_buf_reset(&t);
		mlq_buf_addstr(&t, "Watching:");
		for (i = 0; i < d->nwatch; i++)
			mlq_buf_addf(&t, "%s %s", i ? "," : "", d->watch[i]);
		mlq__wrap(b, "", "  ", t.data, DIGEST_WIDTH);
	}
	mlq_buf_release(&t);
	if (d->nlists > 0) {
		digest_heading(b, "Summary");
		for (i = 0; i < d->nlists; i++)
			digest_summary(b, &d->lists[i]);
	}
	if (d->nmerged > 0) {
		any = true;
		digest_heading(b, "Merged in this period");
		for (i = 0; i < d->nmerged; i++)
			digest_merged_line(b, &d->merged[i]);
	}
	for (s = 0; s < MLQ_DIGEST_NSECTIONS; s++) {
		if (d->nitems[s] == 0)
			continue;
		any = true;
		digest_heading(b, digest_section_title(d, s, buf, sizeof(buf)));
		for (i = 0; i < d->nitems[s]; i++) {
			if (i > 0)
				mlq_buf_addch(b, '\n');
			digest_msg_block(b, &d->items[s][i].msg, "* ", "  ");
			digest_rel_lines(b, s, &d->items[s][i]);
		}
		if (d->nmore[s] > 0)
			mlq_buf_addf(b, "\n(and %zu more)\n", d->nmore[s]);
	}
	if (d->nreviewers > 0) {
		digest_heading(b, "Most active reviewers");
		for (i = 0; i < d->nreviewers; i++) {
			mlq_buf_init(&t);
			mlq_buf_addf(&t, "%s%s<%s>", d->reviewers[i].name,
			    *d->reviewers[i].name ? " " : "",
			    d->reviewers[i].email);
			snprintf(buf, sizeof(buf), "%6lld  ",
			    (long long)d->reviewers[i].replies);
			mlq__wrap(b, buf, "        ", t.data, DIGEST_WIDTH);
			mlq_buf_release(&t);
		}
	}
	if (!any)
		mlq_buf_addstr(b, "\nNo mail in this period.\n");
}

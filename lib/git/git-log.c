/*
 * A repository's commits, read through git(1) itself: `git log -p` of a
 * range, streamed, one commit at a time.  git is on every box that holds
 * a kernel tree and reads every repository format there is (packs,
 * alternates, worktrees, sha256 ones); a library would only restate it.
 * Each commit gives its id, author, dates, subject, the Message-Ids its
 * Link: and Message-Id: lines name, the commit it reverts, and the patch
 * id of its diff, by the function a posting's is computed with
 * (lib/mail/patch-id.c), so that the two compare directly.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlq-int.h"
#include "git-int.h"

/* Field and record marks in git's output: never in a commit's text
 * (git refuses NUL, and these are control bytes no editor writes). */
#define REC_START '\001'
#define FIELD_END '\037'
#define BODY_END  '\002'

static bool
is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
			(s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * The Message-Id a Link: names: the last path segment of a public-inbox
 * url (https://lore.kernel.org/r/ID, /LIST/ID/, msgid.link/ID,
 * patch.msgid.link/ID), %-decoded, when it holds an '@'.
 */
static char *
link_msgid(struct mlq_arena *a, const char *s, size_t n)
{
	const char *end = s + n, *seg, *next, *id = NULL, *id_end = NULL;
	struct mlq_buf b;
	char *out = NULL;
	const char *p;

	while (s < end && *s == ' ')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '>'))
		end--;
	if (s < end && *s == '<')
		s++;
	/* The last segment holding an '@': "…/ID/T/#u" views ID. */
	for (seg = s; seg < end; seg = next + 1) {
		if ((next = memchr(seg, '/', (size_t)(end - seg))) == NULL)
			next = end;
		if (memchr(seg, '@', (size_t)(next - seg)) != NULL) {
			id = seg;
			id_end = next;
		}
		if (next == end)
			break;
	}
	if (id == NULL || id == s)
		return NULL;
	mlq_buf_init(&b);
	for (p = id; p < id_end; p++) {
		if (*p == '%' && id_end - p >= 3 &&
		    strchr("0123456789abcdefABCDEF", p[1]) != NULL &&
		    strchr("0123456789abcdefABCDEF", p[2]) != NULL) {
			char hex[3] = { p[1], p[2], '\0' };

			mlq_buf_addch(&b, (char)strtol(hex, NULL, 16));
			p += 2;
		} else
			mlq_buf_addch(&b, *p);
	}
	if (!b.oom && b.len > 0)
		out = mlq_arena_strndup(a, b.data, b.len);
	mlq_buf_release(&b);
	return out;
}

/* "Message-Id: <ID>" or "Message-ID: ID". */
static char *
header_msgid(struct mlq_arena *a, const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '<')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '>'))
		n--;
	if (n == 0 || memchr(s, '@', n) == NULL || memchr(s, ' ', n) != NULL)
		return NULL;
	return mlq_arena_strndup(a, s, n);
}

/* "Fixes: 0123456789ab (\"title\")": the id's first 12 digits. */
static enum mlq_status
fixes_add(struct mlq_commit *c, const char *s, size_t n, struct mlq_arena *a)
{
	size_t k = 0, i;
	char *id;

	while (n > 0 && *s == ' ') {
		s++;
		n--;
	}
	while (k < n && is_hex(s + k, 1))
		k++;
	if (k < 12 || (k < n && s[k] != ' ' && s[k] != '('))
		return MLQ_OK;
	if ((id = mlq_arena_strndup(a, s, 12)) == NULL)
		return MLQ_ENOMEM;
	for (i = 0; i < c->nfixes; i++)
		if (strcmp(c->fixes[i], id) == 0)
			return MLQ_OK;
	if ((c->fixes = mlq_arena_grow(a, c->fixes, c->nfixes,
		 sizeof(*c->fixes))) == NULL)
		return MLQ_ENOMEM;
	c->fixes[c->nfixes++] = id;
	return MLQ_OK;
}

/* The commit message's lines that matter here. */
static enum mlq_status
read_body(struct mlq_commit *c, const char *body, size_t len,
    struct mlq_arena *a)
{
	const char *p = body, *end = body + len, *eol, *v = NULL;
	char *id;
	size_t n;

	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		n = (size_t)(eol - p);
		id = NULL;
		if (mlq_text_has_prefix_ci(p, n, "Link:"))
			id = link_msgid(a, p + 5, n - 5);
		else if (mlq_text_has_prefix_ci(p, n, "Message-Id:"))
			id = header_msgid(a, p + 11, n - 11);
		else if (mlq_text_has_prefix(p, n, "This reverts commit ") &&
		    n >= 20 + 40 && is_hex(p + 20, 40))
			v = p + 20;
		else if (mlq_text_has_prefix_ci(p, n, "Fixes:") &&
		    fixes_add(c, p + 6, n - 6, a) != MLQ_OK)
			return MLQ_ENOMEM;
		if (id != NULL) {
			if ((c->msgids = mlq_arena_grow(a, c->msgids,
				 c->nmsgids, sizeof(*c->msgids))) == NULL)
				return MLQ_ENOMEM;
			c->msgids[c->nmsgids++] = id;
		}
	}
	if (v != NULL && (c->reverts = mlq_arena_strndup(a, v, 40)) == NULL)
		return MLQ_ENOMEM;
	return MLQ_OK;
}

/* One record: "H\037an\037ae\037at\037ct\037s\037B\002 patch...". */
static enum mlq_status
read_commit(const char *rec, size_t len, mlq_commit_fn fn, void *arg,
    struct mlq_err *err)
{
	const char *f[7], *p = rec, *end = rec + len, *body_end;
	size_t fl[7], i;
	struct mlq_commit c;
	struct mlq_subject subj;
	struct mlq_arena *a;
	enum mlq_status rc = MLQ_OK;

	for (i = 0; i < 6; i++) {
		const char *q = memchr(p, FIELD_END, (size_t)(end - p));

		if (q == NULL)
			return mlq_err_set(err, MLQ_EINPUT,
			    "git log: a commit's fields are cut short");
		f[i] = p;
		fl[i] = (size_t)(q - p);
		p = q + 1;
	}
	if ((body_end = memchr(p, BODY_END, (size_t)(end - p))) == NULL)
		return mlq_err_set(err, MLQ_EINPUT,
		    "git log: a commit's message is cut short");
	f[6] = p;
	fl[6] = (size_t)(body_end - p);
	if (fl[0] < 40 || !is_hex(f[0], fl[0]))
		return mlq_err_set(err, MLQ_EINPUT,
		    "git log: '%.*s' is not a commit id", (int)(fl[0] > 64 ? 64 :
		    fl[0]), f[0]);
	if ((a = mlq_arena_new()) == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	memset(&c, 0, sizeof(c));
	c.oid = mlq_arena_strndup(a, f[0], fl[0]);
	c.author_name = mlq_arena_strndup(a, f[1], fl[1]);
	c.author_email = mlq_arena_strndup(a, f[2], fl[2]);
	c.adate = strtoll(f[3], NULL, 10);
	c.cdate = strtoll(f[4], NULL, 10);
	c.subject = mlq_arena_strndup(a, f[5], fl[5]);
	if (c.oid == NULL || c.author_name == NULL || c.author_email == NULL ||
	    c.subject == NULL ||
	    mlq_subject_parse(c.subject, a, &subj, err) != MLQ_OK ||
	    read_body(&c, f[6], fl[6], a) != MLQ_OK) {
		rc = mlq_err_set(err, MLQ_ENOMEM, "out of memory");
		goto out;
	}
	c.norm = subj.norm != NULL ? subj.norm : "";
	c.has_patch_id = mlq__git_patch_id(body_end + 1,
	    (size_t)(end - body_end - 1), c.patch_id);
	rc = fn(&c, arg);
out:
	mlq_arena_free(a);
	return rc;
}

/* A string of the copy: NULL stays NULL, a failure sets *oom. */
static const char *
copy_str(struct mlq_arena *a, const char *s, bool *oom)
{
	const char *p = s != NULL ? mlq_arena_strdup(a, s) : NULL;

	if (s != NULL && p == NULL)
		*oom = true;
	return p;
}

/* A copy of an array of n strings; NULL when n is 0. */
static const char **
copy_strs(struct mlq_arena *a, const char *const *v, size_t n, bool *oom)
{
	const char **out;
	size_t i;

	if (n == 0)
		return NULL;
	if ((out = mlq_arena_alloc(a, n * sizeof(*out))) == NULL) {
		*oom = true;
		return NULL;
	}
	for (i = 0; i < n; i++)
		out[i] = copy_str(a, v[i], oom);
	return out;
}

enum mlq_status
mlq_commit_copy(const struct mlq_commit *c, struct mlq_arena *a,
    struct mlq_commit *out)
{
	bool oom = false;

	*out = *c;
	out->oid = copy_str(a, c->oid, &oom);
	out->author_name = copy_str(a, c->author_name, &oom);
	out->author_email = copy_str(a, c->author_email, &oom);
	out->subject = copy_str(a, c->subject, &oom);
	out->norm = copy_str(a, c->norm, &oom);
	out->reverts = copy_str(a, c->reverts, &oom);
	out->msgids = copy_strs(a, c->msgids, c->nmsgids, &oom);
	out->fixes = copy_strs(a, c->fixes, c->nfixes, &oom);
	return oom ? MLQ_ENOMEM : MLQ_OK;
}

struct mlq_git_log {
	struct mlq__git_proc p;
	struct mlq_buf rec; /* output not yet read as whole commits */
	size_t scanned;	    /* of rec, searched for a start mark */
	char *what;	    /* "git log of 'RANGE' in 'REPO'", for errors */
};

enum mlq_status
mlq_git_log_start(const char *repo, const char *range, int64_t since,
    struct mlq_git_log **out, struct mlq_err *err)
{
	char since_arg[48];
	const char *args[] = { "log", "--no-merges", "--no-color",
		"--no-ext-diff", "--no-textconv", "-p",
		"--format=%x01%H%x1f%an%x1f%ae%x1f%at%x1f%ct%x1f%s%x1f%B%x02",
		NULL, NULL, NULL, NULL, NULL };
	size_t n = 7;
	struct mlq_git_log *g;
	struct mlq_buf what;
	enum mlq_status rc;

	*out = NULL;
	if (range[0] == '-')
		return mlq_err_set(err, MLQ_EUSAGE,
		    "git: '%s' is not a revision range", range);
	if (since > 0) {
		snprintf(since_arg, sizeof(since_arg), "--since=@%lld",
		    (long long)since);
		args[n++] = since_arg;
	}
	args[n++] = "--end-of-options";
	args[n++] = range;
	args[n++] = "--";
	mlq_buf_init(&what);
	mlq_buf_addf(&what, "git log of '%s' in '%s'", range, repo);
	if (what.oom || (g = calloc(1, sizeof(*g))) == NULL) {
		mlq_buf_release(&what);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	g->what = mlq_buf_detach(&what);
	if ((rc = mlq__git_spawn(repo, args, &g->p, err)) != MLQ_OK) {
		free(g->what);
		free(g);
		return rc;
	}
	mlq_buf_init(&g->rec);
	*out = g;
	return MLQ_OK;
}

int
mlq_git_log_fd(const struct mlq_git_log *g)
{
	return g->p.fd;
}

enum mlq_status
mlq_git_log_read(struct mlq_git_log *g, mlq_commit_fn fn, void *arg,
    bool *done, struct mlq_err *err)
{
	struct mlq_buf *rec = &g->rec;
	char chunk[65536], *start;
	enum mlq_status rc = MLQ_OK;
	size_t off, from;
	ssize_t n;

	*done = false;
	while ((n = read(g->p.fd, chunk, sizeof(chunk))) < 0 && errno == EINTR)
		;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return MLQ_OK;
	if (n < 0)
		return mlq_err_set(err, MLQ_EIO, "reading %s: %s", g->what,
		    strerror(errno));
	if (n > 0)
		mlq_buf_add(rec, chunk, (size_t)n);
	if (rec->oom)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	if (rec->len > 0 && rec->data[0] != REC_START)
		return mlq_err_set(err, MLQ_EINPUT,
		    "%s: output that is not a commit", g->what);
	/* Every whole record before the last start mark; a long one is
	 * not searched again from its start at each read. */
	off = 0;
	for (;;) {
		from = g->scanned > off + 1 ? g->scanned : off + 1;
		if (rec->len <= from ||
		    (start = memchr(rec->data + from, REC_START,
			 rec->len - from)) == NULL)
			break;
		rc = read_commit(rec->data + off + 1,
		    (size_t)(start - rec->data) - off - 1, fn, arg, err);
		if (rc != MLQ_OK)
			return rc;
		off = (size_t)(start - rec->data);
		g->scanned = 0;
	}
	if (off > 0) {
		memmove(rec->data, rec->data + off, rec->len - off);
		rec->len -= off;
	}
	g->scanned = rec->len;
	if (n == 0) {
		*done = true;
		if (rec->len > 0)
			rc = read_commit(rec->data + 1, rec->len - 1, fn, arg,
			    err);
		rec->len = 0;
	}
	return rc;
}

enum mlq_status
mlq_git_log_end(struct mlq_git_log *g, bool stop, struct mlq_err *err)
{
	enum mlq_status rc;

	if (g == NULL)
		return MLQ_OK;
	rc = mlq__git_wait(&g->p, stop, g->what, NULL, err);
	mlq_buf_release(&g->rec);
	free(g->what);
	free(g);
	return rc;
}

enum mlq_status
mlq_git_log(const char *repo, const char *range, int64_t since,
    mlq_commit_fn fn, void *arg, struct mlq_err *err)
{
	struct mlq_git_log *g;
	enum mlq_status rc;
	bool done = false;

	if ((rc = mlq_git_log_start(repo, range, since, &g, err)) != MLQ_OK)
		return rc;
	while (rc == MLQ_OK && !done)
		rc = mlq_git_log_read(g, fn, arg, &done, err);
	if (rc != MLQ_OK) {
		mlq_git_log_end(g, true, NULL);
		return rc;
	}
	return mlq_git_log_end(g, false, err);
}

/*
 * mlq am [-o FILE] [--cover FILE] [-v N] [--no-trailers] [--partial] ID:
 * what `b4 am` gives, from the local database.  From any patch, cover
 * letter or reply of a series: its newest version (or vN), patches 1..N
 * in order and each once, the cover letter kept apart, and the trailers
 * given in replies (to a patch; to the cover letter for every patch)
 * added below the patch's own, as b4 0.12 adds them: a person's trailer
 * counts when it is the replier's own, none twice, a patch's replies
 * first and then the cover letter's, in the order they were sent.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tree.h"

static int cmd_am_exec(struct cli *, int, char **);

const struct cli_cmd cmd_am = {
	.name = "am",
	.usage = CMD_AM_USAGE,
	.summary = CMD_AM_SUMMARY,
	.details = CMD_AM_DETAILS,
	.flags = CLI_DB_READ,
	.exec = cmd_am_exec,
	.conf_needs = "database identity",
};

/* One trailer line to add: "Key: value". */
struct am_trailer {
	const char *key, *value;
};

struct am {
	struct mlq_store *st;
	struct mlq_arena *a;
	struct mlq_err err;
	struct tree t;
	int *sub; /* each node's submission (tree_submissions) */
	bool oom;
};

/* ---- which messages ---- */

struct versions {
	struct mlq_arena *a;
	struct mlq_hit *v;
	size_t n;
};

static int
add_version(const struct mlq_hit *h, void *arg)
{
	struct versions *k = arg;

	if ((k->v = mlq_arena_grow(k->a, k->v, k->n, sizeof(*k->v))) == NULL)
		return 1;
	k->v[k->n] = *h;
	if ((k->v[k->n].msgid = mlq_arena_strdup(k->a, h->msgid)) == NULL)
		return 1;
	k->n++;
	return 0;
}

/*
 * The Message-Id of the version asked for (want 0: the newest) of the
 * submission with row id and version; NULL with *none naming the
 * versions there are when there is no such version.
 */
static const char *
pick_version(struct am *m, const struct mlq_hit *h, int want, char *none,
    size_t nn)
{
	struct versions k = { m->a, NULL, 0 };
	const struct mlq_hit *best = h;
	size_t i, len = 0;

	add_version(h, &k);
	mlq_store_links(m->st, h->id, MLQ_LINK_VERSION, true, add_version, &k,
	    &m->err);
	mlq_store_links(m->st, h->id, MLQ_LINK_VERSION, false, add_version,
	    &k, &m->err);
	for (i = 0; i < k.n; i++) {
		const struct mlq_hit *v = &k.v[i];

		if (want > 0 ? v->version == want &&
			    (best->version != want || v->date > best->date)
			     : v->version > best->version ||
			    (v->version == best->version && v->date > best->date))
			best = v;
	}
	if (want > 0 && best->version != want) {
		*none = '\0';
		for (i = 0; i < k.n && len + 8 < nn; i++)
			len += (size_t)snprintf(none + len, nn - len, "%sv%d",
			    i ? ", " : "", k.v[i].version);
		return NULL;
	}
	return best->msgid;
}

/* Another patch of the same posting: i/N of one poster's vN. */
static bool
same_posting(const struct mlq_hit *a, const struct mlq_hit *b)
{
	return a->version == b->version && a->total == b->total &&
	    a->thread == b->thread && strcasecmp(tree_poster(a), tree_poster(b)) == 0;
}

static int
by_index_then_date(const void *x, const void *y)
{
	const struct tree_node *a = *(const struct tree_node *const *)x;
	const struct tree_node *b = *(const struct tree_node *const *)y;

	if (a->hit.index != b->hit.index)
		return a->hit.index < b->hit.index ? -1 : 1;
	if (a->hit.date != b->hit.date)
		return a->hit.date < b->hit.date ? -1 : 1;
	return 0;
}

/* ---- trailers ---- */

struct collect {
	struct am *m;
	const struct mlq_hit *reply;
	struct am_trailer *v;
	size_t n;
};

static bool
trailer_eq(const struct am_trailer *x, const char *key, const char *value)
{
	return strcasecmp(x->key, key) == 0 && strcasecmp(x->value, value) == 0;
}

static void
trailer_add(struct collect *c, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (trailer_eq(&c->v[i], key, value))
			return;
	c->v = mlq_arena_grow(c->m->a, c->v, c->n, sizeof(*c->v));
	if (c->v == NULL || (key = mlq_arena_strdup(c->m->a, key)) == NULL ||
	    (value = mlq_arena_strdup(c->m->a, value)) == NULL) {
		c->m->oom = true;
		return;
	}
	c->v[c->n].key = key;
	c->v[c->n].value = value;
	c->n++;
}

/*
 * A reply's trailer, as b4 takes it from a follow-up: a person's when
 * it is the replier's own (address or name), else Fixes:.
 */
static int
on_trailer(const struct mlq_trailer *t, void *arg)
{
	struct collect *c = arg;
	const struct mlq_hit *r = c->reply;

	if (*t->email != '\0') {
		if (strcasecmp(t->email, r->from_email) != 0 &&
		    (*t->name == '\0' || strcasecmp(t->name, r->from_name) != 0))
			return 0;
	} else if (strcasecmp(t->key, "Fixes") != 0)
		return 0;
	trailer_add(c, t->key, t->value);
	return 0;
}

static int
by_date(const void *x, const void *y)
{
	const struct tree_node *a = *(const struct tree_node *const *)x;
	const struct tree_node *b = *(const struct tree_node *const *)y;

	if (a->hit.date != b->hit.date)
		return a->hit.date < b->hit.date ? -1 : 1;
	return a->hit.id < b->hit.id ? -1 : a->hit.id > b->hit.id;
}

/* The trailers of the replies to node s, oldest reply first, into c. */
static void
reply_trailers(struct am *m, int s, struct collect *c)
{
	const struct tree_node **r = NULL;
	size_t i, n = 0;

	for (i = 0; i < m->t.count; i++) {
		const struct tree_node *x = &m->t.n[i];

		if (x->ghost || x->hit.kind > 0 || m->sub[i] != s)
			continue;
		if ((r = mlq_arena_grow(m->a, r, n, sizeof(*r))) == NULL) {
			m->oom = true;
			return;
		}
		r[n++] = x;
	}
	if (n > 1)
		qsort(r, n, sizeof(*r), by_date);
	for (i = 0; i < n; i++) {
		c->reply = &r[i]->hit;
		mlq_store_trailers(m->st, r[i]->hit.id, on_trailer, c, &m->err);
	}
}

/* ---- a patch's body, with the trailers added ---- */

/* Whether a line is "Key: value" as b4 reads a trailer; *klen: the key. */
static bool
trailer_line(const char *p, size_t n, size_t *klen)
{
	size_t i = 0, k;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	k = i;
	if (i >= n || !(((p[i] | 32) >= 'a' && (p[i] | 32) <= 'z') ||
			  (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
		return false;
	while (i < n && p[i] != ':' && p[i] != ' ' && p[i] != '\t')
		i++;
	if (i - k < 2 || i + 1 >= n || p[i] != ':' ||
	    (p[i + 1] != ' ' && p[i + 1] != '\t'))
		return false;
	*klen = i - k;
	for (i++; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	/* b4 takes "Phone:" and "Email:" for prose. */
	return i < n && !(*klen == 5 && strncasecmp(p + k, "phone", 5) == 0) &&
	    !(*klen == 5 && strncasecmp(p + k, "email", 5) == 0);
}

/* Lines as an mbox carries them; nothing for none. */
static void
put_text(FILE *f, const char *p, size_t n)
{
	if (n > 0)
		out_mbox_text(f, p, n);
}

/* The first line of s[0, n) that starts with prefix; NULL if none. */
static const char *
line_starting(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	const char *p = s, *end = s + n;

	while (p < end) {
		if ((size_t)(end - p) >= k && memcmp(p, prefix, k) == 0)
			return p;
		if ((p = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return NULL;
		p++;
	}
	return NULL;
}

/*
 * The body rebuilt as b4 rebuilds it (get_body_parts, rebuild_message):
 * the commit message; its last paragraph's trailer lines and then the
 * new ones, none twice; from "---" (or the first "diff ") on; the
 * signature after the last "-- ".
 */
static void
put_body(FILE *f, struct am *m, const char *body, size_t len,
    const struct am_trailer *add, size_t nadd)
{
	const char *end = body + len, *sig = NULL, *base, *p, *eol, *last;
	struct collect all = { m, NULL, NULL, 0 };
	size_t i, mlen, klen, nother = 0;

	while (body < end && *body == '\n')
		body++;
	while (end > body && end[-1] == '\n')
		end--;
	for (p = body; (p = line_starting(p, (size_t)(end - p), "-- \n")) !=
	     NULL; p += 4)
		if (p > body)
			sig = p;
	base = line_starting(body, (size_t)((sig ? sig : end) - body), "---\n");
	if (base == NULL) {
		base = line_starting(body, (size_t)((sig ? sig : end) - body),
		    "diff ");
		if (base == body)
			base = NULL;
	}
	mlen = (size_t)((base ? base : sig ? sig : end) - body);
	while (mlen > 0 && body[mlen - 1] == '\n')
		mlen--;
	/* The last paragraph: after the last empty line. */
	for (last = body + mlen; last > body; last--)
		if (last - body >= 2 && last[-1] == '\n' && last[-2] == '\n')
			break;
	/* Everything above it as it is. */
	put_text(f, body, (size_t)(last - body));
	/* Its other lines, then its trailers and the new ones. */
	for (p = last; p < body + mlen; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(body + mlen - p))) == NULL)
			eol = body + mlen;
		if (trailer_line(p, (size_t)(eol - p), &klen)) {
			const char *v = p + strspn(p, " \t") + klen + 1;
			char *key, *val;

			v += strspn(v, " \t");
			key = mlq_arena_strndup(m->a, p + strspn(p, " \t"), klen);
			val = mlq_arena_strndup(m->a, v, (size_t)(eol - v));
			if (key == NULL || val == NULL) {
				m->oom = true;
				return;
			}
			trailer_add(&all, key, val);
		} else {
			out_mbox_text(f, p, (size_t)(eol - p));
			nother++;
		}
		if (eol == body + mlen)
			break;
	}
	for (i = 0; i < nadd; i++)
		trailer_add(&all, add[i].key, add[i].value);
	if (all.n > 0 && nother > 0)
		fputc('\n', f);
	for (i = 0; i < all.n; i++) {
		fprintf(f, "%s: ", all.v[i].key);
		out_mbox_text(f, all.v[i].value, strlen(all.v[i].value));
	}
	if (base != NULL) {
		if (all.n == 0)
			fputc('\n', f);
		fputs("---\n", f);
		if (strncmp(base, "---\n", 4) == 0)
			base += 4;
		put_text(f, base, (size_t)((sig ? sig : end) - base));
	}
	if (sig != NULL) {
		fputs("-- \n", f);
		put_text(f, sig + 4, (size_t)(end - sig - 4));
	}
}

/* ---- output ---- */

/*
 * b[from..] as one header line: a line break decoded from an encoded
 * word would otherwise start a header of its own.
 */
static void
one_line(struct mlq_buf *b, size_t from)
{
	size_t i;

	for (i = from; i < b->len; i++)
		if (b->data[i] == '\n' || b->data[i] == '\r')
			b->data[i] = ' ';
	mlq_buf_addch(b, '\n');
}

/* One patch as b4 writes it to its .mbx: git am applies it as it is. */
static enum mlq_status
put_patch(FILE *f, struct am *m, const struct tree_node *x,
    const struct am_trailer *add, size_t nadd)
{
	const struct mlq_addr *from;
	struct mlq_buf raw, head;
	struct mlq_msg *msg = NULL;
	enum mlq_status rc;
	char tag[64];
	size_t n;

	mlq_buf_init(&raw);
	if ((rc = mlq_store_raw(m->st, x->hit.id, &raw, &m->err)) == MLQ_OK)
		rc = mlq_msg_parse(raw.data, raw.len, &msg, &m->err);
	mlq_buf_release(&raw);
	if (rc != MLQ_OK)
		return rc;
	/* The header From as sent: an in-body From: stays in the body,
	 * where git am reads the author. */
	from = &msg->from;
	/* b4's subject: [PATCH RFC vN i/N] title */
	snprintf(tag, sizeof(tag), "[PATCH%s", msg->subj.is_rfc ? " RFC" : "");
	if (msg->subj.version > 1)
		snprintf(tag + strlen(tag), sizeof(tag) - strlen(tag), " v%d",
		    msg->subj.version);
	if (msg->subj.total > 1)
		snprintf(tag + strlen(tag), sizeof(tag) - strlen(tag),
		    " %d/%d", msg->subj.index, msg->subj.total);
	mlq_buf_init(&head);
	n = head.len;
	mlq_buf_addf(&head, "Subject: %s] %s", tag, msg->subj.title);
	one_line(&head, n);
	n = head.len;
	if (*from->name != '\0')
		mlq_buf_addf(&head, "From: %s <%s>", from->name, from->email);
	else
		mlq_buf_addf(&head, "From: %s", from->email);
	one_line(&head, n);
	n = head.len;
	mlq_buf_addf(&head, "Date: %s", msg->date_raw);
	one_line(&head, n);
	n = head.len;
	mlq_buf_addf(&head, "Message-Id: <%s>", msg->msgid);
	one_line(&head, n);
	fputs("From git@z Thu Jan  1 00:00:00 1970\n", f);
	if (head.oom)
		m->oom = true;
	else
		out_mbox_text(f, head.data, head.len);
	mlq_buf_release(&head);
	fputs("MIME-Version: 1.0\nContent-Type: text/plain; charset=\"utf-8\"\n"
	      "Content-Transfer-Encoding: 8bit\n\n", f);
	put_body(f, m, msg->body, msg->body_len, add, nadd);
	fputc('\n', f);
	mlq_msg_free(msg);
	return m->oom ? mlq_err_set(&m->err, MLQ_ENOMEM, "out of memory")
		      : MLQ_OK;
}

static FILE *
open_out(const char *path, struct am *m)
{
	FILE *f;

	if (path == NULL || strcmp(path, "-") == 0)
		return stdout;
	if ((f = fopen(path, "w")) == NULL)
		mlq_err_set(&m->err, MLQ_EIO, "am: %s: %s", path,
		    strerror(errno));
	return f;
}

/*
 * Closes an output file; when writing failed (rc, or the close itself)
 * removes it, so that no half series waits there for git am.
 */
static enum mlq_status
close_out(FILE *f, const char *path, struct am *m, enum mlq_status rc)
{
	struct stat sb;

	if (f == stdout || f == NULL)
		return rc;
	if ((ferror(f) | (fclose(f) != 0)) && rc == MLQ_OK)
		rc = mlq_err_set(&m->err, MLQ_EIO, "am: %s: %s", path,
		    strerror(errno));
	/* A regular file only: never a device such as /dev/full. */
	if (rc != MLQ_OK && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		unlink(path);
	return rc;
}

/* ---- the command ---- */

/* Loads the thread of msgid; its node's submission and cover letter. */
static enum mlq_status
load(struct am *m, const char *msgid, int *s, int *c)
{
	int self = -1;
	enum mlq_status rc;

	tree_release(&m->t);
	if ((rc = tree_load_msgid(m->st, msgid, true, &m->t, &self, &m->err)) !=
	    MLQ_OK)
		return rc;
	if ((m->sub = mlq_arena_alloc(m->a,
		 (m->t.count + 1) * sizeof(*m->sub))) == NULL)
		return mlq_err_set(&m->err, MLQ_ENOMEM, "out of memory");
	tree_submissions(&m->t, m->sub);
	*s = m->sub[self];
	*c = *s >= 0 ? tree_cover(&m->t, (size_t)*s) : -1;
	return MLQ_OK;
}

static int
cmd_am_exec(struct cli *cli, int argc, char **argv)
{
	enum { O_COVER = 256, O_NO_TRAILERS, O_PARTIAL };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "cover", required_argument, NULL, O_COVER },
		{ "version", required_argument, NULL, 'v' },
		{ "no-trailers", no_argument, NULL, O_NO_TRAILERS },
		{ "partial", no_argument, NULL, O_PARTIAL },
		{ NULL, 0, NULL, 0 },
	};
	const char *out_path = NULL, *cover_path = NULL, *chosen;
	const struct tree_node **p = NULL;
	struct collect cov, own;
	struct mlq_buf id;
	struct am m;
	char versions[256], *endp;
	enum mlq_status rc = MLQ_OK;
	bool trailers = true, partial = false;
	size_t i, n = 0, k;
	long want = 0;
	int c, s, cv, total, ret;
	FILE *f = NULL;

	if ((c = cli_check_options(&cmd_am, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "o:v:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case O_COVER:
			cover_path = optarg;
			break;
		case 'v':
			want = strtol(optarg, &endp, 10);
			if (*optarg == '\0' || *endp != '\0' || want < 1 ||
			    want > 1000)
				return cli_usage_error(&cmd_am,
				    "am: bad version '%s'", optarg);
			break;
		case O_NO_TRAILERS:
			trailers = false;
			break;
		case O_PARTIAL:
			partial = true;
			break;
		default:
			return cli_bad_option(&cmd_am);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(&cmd_am, "am: one ID is needed");
	mlq_buf_init(&id);
	if ((ret = cli_msgid("am", argv[optind], &id)) != 0) {
		mlq_buf_release(&id);
		return ret;
	}
	memset(&m, 0, sizeof(m));
	m.st = cli->st;
	if ((m.a = mlq_arena_new()) == NULL) {
		mlq_buf_release(&id);
		mlq_err_set(&m.err, MLQ_ENOMEM, "out of memory");
		return cli_fail(&m.err);
	}
	rc = load(&m, id.data, &s, &cv);
	if (rc == MLQ_NOTFOUND) {
		ret = cli_not_found("am", argv[optind]);
		goto out;
	}
	if (rc == MLQ_OK && s < 0) {
		ret = cli_usage_error(NULL,
		    "am: '%s' is not a patch, a cover letter or a reply to one",
		    id.data);
		goto out;
	}
	/* The version: of the cover letter where there is one. */
	if (rc == MLQ_OK) {
		const struct mlq_hit *h = &m.t.n[cv >= 0 ? cv : s].hit;

		chosen = pick_version(&m, h, (int)want, versions,
		    sizeof(versions));
		if (chosen == NULL) {
			ret = cli_usage_error(NULL,
			    "am: no v%ld of '%s' (there is %s)", want, h->msgid,
			    versions);
			goto out;
		}
		if (strcmp(chosen, h->msgid) != 0) {
			chosen = mlq_arena_strdup(m.a, chosen);
			rc = chosen == NULL ?
			    mlq_err_set(&m.err, MLQ_ENOMEM, "out of memory") :
			    load(&m, chosen, &s, &cv);
		}
	}
	/* The patches: the cover letter's; with none, those of one
	 * poster's i/N in the thread; else this one alone. */
	for (i = 0; rc == MLQ_OK && i < m.t.count; i++) {
		const struct tree_node *x = &m.t.n[i];

		if (x->ghost || x->hit.kind != 1)
			continue;
		if (cv >= 0 ? tree_cover(&m.t, i) != cv :
		    m.t.n[s].hit.total > 1 ? !same_posting(&x->hit, &m.t.n[s].hit) :
					     (int)i != s)
			continue;
		if ((p = mlq_arena_grow(m.a, p, n, sizeof(*p))) == NULL) {
			rc = mlq_err_set(&m.err, MLQ_ENOMEM, "out of memory");
			break;
		}
		p[n++] = x;
	}
	if (rc != MLQ_OK)
		goto fail;
	qsort(p, n, sizeof(*p), by_index_then_date);
	/* One of each: a resent patch, the newest. */
	for (i = k = 0; i < n; i++) {
		if (k > 0 && p[k - 1]->hit.index == p[i]->hit.index)
			k--;
		p[k++] = p[i];
	}
	n = k;
	total = cv >= 0 ? m.t.n[cv].hit.total : m.t.n[s].hit.total > 1 ?
	    m.t.n[s].hit.total : 1;
	for (i = 0, k = 1; (int)k <= total; k++) {
		if (i < n && (p[i]->hit.index == (int)k || total == 1)) {
			i++;
			continue;
		}
		if (!partial) {
			ret = cli_usage_error(NULL,
			    "am: patch %zu/%d of '%s' is not in the archive "
			    "(--partial takes the rest)",
			    k, total, cv >= 0 ? m.t.n[cv].hit.msgid : id.data);
			goto out;
		}
	}
	if (n == 0) {
		ret = cli_usage_error(NULL, "am: no patch of '%s' is stored",
		    id.data);
		goto out;
	}
	memset(&cov, 0, sizeof(cov));
	cov.m = &m;
	if (trailers && cv >= 0)
		reply_trailers(&m, cv, &cov);
	if ((f = open_out(out_path, &m)) == NULL) {
		rc = m.err.status;
		goto fail;
	}
	for (i = 0; i < n && rc == MLQ_OK; i++) {
		memset(&own, 0, sizeof(own));
		own.m = &m;
		if (trailers) {
			reply_trailers(&m, (int)(p[i] - m.t.n), &own);
			for (k = 0; k < cov.n; k++)
				trailer_add(&own, cov.v[k].key, cov.v[k].value);
		}
		rc = m.oom ? mlq_err_set(&m.err, MLQ_ENOMEM, "out of memory") :
		    put_patch(f, &m, p[i], own.v, own.n);
	}
	rc = close_out(f, out_path, &m, rc);
	if (rc == MLQ_OK && cover_path != NULL && cv >= 0) {
		if ((f = open_out(cover_path, &m)) == NULL)
			rc = m.err.status;
		else
			rc = close_out(f, cover_path, &m,
			    put_patch(f, &m, &m.t.n[cv], NULL, 0));
	}
fail:
	ret = rc == MLQ_OK ? 0 : cli_fail(&m.err);
out:
	tree_release(&m.t);
	mlq_arena_free(m.a);
	mlq_buf_release(&id);
	return ret;
}

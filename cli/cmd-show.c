/* mlq show [--format text|json] MSGID: a submission and its review history. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tree.h"

static int cmd_show_exec(struct cli *, int, char **);

const struct cli_cmd cmd_show = {
	.name = "show",
	.usage = "[--format text|json] MSGID",
	.summary =
	    "a submission with its replies, tags, versions, reverts and fixes",
	.details = CMD_ID_DETAILS,
	.flags = CLI_DB_READ,
	.exec = cmd_show_exec,
	.conf_needs = "database identity",
};

struct show {
	struct mlq_store *st;
	struct out_json j;
	bool json;
	struct mlq_err err;
	int count;
	char cover[1024]; /* a cover letter found through a series link */
	bool *in;	  /* review_set() */
};

/* ---- JSON ---- */

static int
json_file(const struct mlq_patch_file *f, void *arg)
{
	json_str(arg, f->path);
	return 0;
}

static int
json_trailer(const struct mlq_trailer *t, void *arg)
{
	struct out_json *j = arg;

	json_obj_begin(j);
	json_key(j, "key");
	json_str(j, t->key);
	json_key(j, "value");
	json_str(j, t->value);
	json_obj_end(j);
	return 0;
}

static int
json_evidence(const struct mlq_evidence *e, void *arg)
{
	struct out_json *j = arg;

	json_obj_begin(j);
	json_key(j, "tag");
	json_str(j, mlq_tag_name(e->tag));
	json_key(j, "text");
	json_str(j, e->line);
	json_key(j, "rule");
	json_str(j, e->rule);
	json_obj_end(j);
	return 0;
}

/* "merged:   8e9d2b8 in master (2021-01-18), by patch-id", and below it
 * "reverted: 6f8b0c2 (2021-05-03)" when a commit reverts it. */
static int
text_commit(const struct mlq_commit_row *r, void *arg)
{
	char day[32];

	(void)arg;
	printf("merged:   %.12s", r->oid);
	if (r->refs != NULL) {
		fputs(" in ", stdout);
		out_safe(stdout, r->refs);
	}
	mlq_date_format_rfc3339(r->date, day, sizeof(day));
	printf(" (%.10s), by %s\n", day, mlq_merged_how(r->how));
	if (r->reverted_by != NULL) {
		mlq_date_format_rfc3339(r->reverted_date, day, sizeof(day));
		printf("reverted: %.12s (%.10s)\n", r->reverted_by, day);
	}
	if (r->fixed_by != NULL) {
		mlq_date_format_rfc3339(r->fixed_date, day, sizeof(day));
		printf("fixed:    %.12s (%.10s)\n", r->fixed_by, day);
	}
	return 0;
}

/* "reverts:  6f8b0c2d1e3a in master (2021-01-18): the commit's title" */
static int
text_named(const struct mlq_commit_row *r, void *arg)
{
	char day[32];

	(void)arg;
	printf("reverts:  %.12s", r->oid);
	if (r->refs != NULL) {
		fputs(" in ", stdout);
		out_safe(stdout, r->refs);
	}
	mlq_date_format_rfc3339(r->date, day, sizeof(day));
	printf(" (%.10s): ", day);
	out_safe(stdout, r->subject);
	fputc('\n', stdout);
	return 0;
}

/* A commit's "id", "repo", "ref", "date" and "subject". */
static void
json_commit_fields(struct out_json *j, const struct mlq_commit_row *r)
{
	char when[32];

	json_key(j, "id");
	json_str(j, r->oid);
	json_key(j, "repo");
	json_str(j, r->repo);
	json_key(j, "ref");
	json_str(j, r->refs);
	json_key(j, "date");
	mlq_date_format_rfc3339(r->date, when, sizeof(when));
	json_str(j, when);
	json_key(j, "subject");
	json_str(j, r->subject);
}

static int
json_commit(const struct mlq_commit_row *r, void *arg)
{
	struct out_json *j = arg;

	json_obj_begin(j);
	json_commit_fields(j, r);
	json_key(j, "how");
	json_str(j, mlq_merged_how(r->how));
	json_obj_end(j);
	return 0;
}

/* A tree commit the posting names by id (a revert's original). */
static int
json_named(const struct mlq_commit_row *r, void *arg)
{
	struct out_json *j = arg;

	json_obj_begin(j);
	json_commit_fields(j, r);
	json_obj_end(j);
	return 0;
}

/* A tree commit that reverts or fixes the posting's commit. */
struct tree_after {
	struct out_json *j;
	bool fixes; /* else reverts */
};

static int
json_tree_after(const struct mlq_commit_row *r, void *arg)
{
	const struct tree_after *ta = arg;
	const char *id = ta->fixes ? r->fixed_by : r->reverted_by;
	char when[32];

	if (id == NULL)
		return 0;
	json_obj_begin(ta->j);
	json_key(ta->j, "id");
	json_str(ta->j, id);
	json_key(ta->j, ta->fixes ? "fixes" : "reverts");
	json_str(ta->j, r->oid);
	json_key(ta->j, "date");
	mlq_date_format_rfc3339(ta->fixes ? r->fixed_date : r->reverted_date,
	    when, sizeof(when));
	json_str(ta->j, when);
	json_obj_end(ta->j);
	return 0;
}

static int
json_link(const struct mlq_hit *h, void *arg)
{
	struct out_json *j = arg;
	char date[32];

	json_obj_begin(j);
	json_key(j, "message_id");
	json_str(j, h->msgid);
	json_key(j, "subject");
	json_str(j, h->subject);
	json_key(j, "date");
	if (h->date_ok)
		json_str(j, out_date(h, date, sizeof(date)));
	else
		json_null(j);
	json_obj_end(j);
	return 0;
}

static int
json_version(const struct mlq_hit *h, void *arg)
{
	struct out_json *j = arg;

	json_obj_begin(j);
	json_key(j, "message_id");
	json_str(j, h->msgid);
	json_key(j, "version");
	json_int(j, h->version);
	json_obj_end(j);
	return 0;
}

/*
 * Which nodes are replies in self's review, as the store sees it: its
 * own, its cover letter's, or (for a cover letter) its patches'.  Once
 * per show, so that big threads cost O(n * depth).
 */
static bool *
review_set(const struct tree *t, int self)
{
	bool *in = calloc(t->count + 1, sizeof(*in));
	int *sub = calloc(t->count + 1, sizeof(*sub));
	int cover = tree_cover(t, (size_t)self), sc;
	size_t i;

	if (in == NULL || sub == NULL) {
		free(in);
		free(sub);
		return NULL;
	}
	tree_submissions(t, sub);
	for (i = 0; i < t->count; i++) {
		if (t->n[i].ghost || t->n[i].hit.kind > 0 || sub[i] < 0)
			continue;
		if (sub[i] == self ||
		    (cover >= 0 && cover != self && sub[i] == cover))
			in[i] = true;
		else if (t->n[self].hit.kind == 2) {
			sc = tree_cover(t, (size_t)sub[i]);
			in[i] = sc == self;
		}
	}
	free(sub);
	return in;
}

/* A lost message counts when it hangs under self or a reply quotes it. */
static bool
missing_here(const struct tree *t, const bool *in, size_t g, int self)
{
	size_t i;

	if (!t->n[g].ghost)
		return false;
	if (tree_descends(t, g, (size_t)self))
		return true;
	for (i = 0; i < t->count; i++)
		if (in[i] && tree_descends(t, i, g))
			return true;
	return false;
}

static int
take_cover(const struct mlq_hit *h, void *arg)
{
	snprintf(arg, sizeof(((struct show *)0)->cover), "%s", h->msgid);
	return 1;
}

/* The series' cover letter: in the thread, else through a series link. */
static const char *
series_cover(struct show *s, const struct tree *t, int self)
{
	int c = tree_cover(t, (size_t)self);

	if (c >= 0)
		return t->n[c].hit.msgid;
	s->cover[0] = '\0';
	if (t->n[self].hit.kind == 1 && t->n[self].hit.index > 0)
		mlq_store_links(s->st, t->n[self].hit.id, MLQ_LINK_SERIES,
		    false, take_cover, s->cover, &s->err);
	return s->cover[0] ? s->cover : NULL;
}

/* Evidence of the tags a reply kept (its submitter's own are dropped). */
struct ev_filter {
	struct out_json *j;
	unsigned tags;
};

static int
json_evidence_kept(const struct mlq_evidence *e, void *arg)
{
	struct ev_filter *f = arg;

	if (f->tags & e->tag)
		json_evidence(e, f->j);
	return 0;
}

/* ---- marks set by hand (mlq mark) ---- */

/* A message's marks together, as JSON shows them. */
struct marked {
	size_t n;
	enum mlq_state status; /* MLQ_STATE_NONE: not set */
	unsigned given, taken;
	char who[256]; /* of the latest mark */
	int64_t at;
};

static int
marked_add(const struct mlq_mark *m, void *arg)
{
	struct marked *k = arg;

	if (m->tag == 0)
		k->status = m->status;
	else if (m->removed)
		k->taken |= m->tag;
	else
		k->given |= m->tag;
	if (k->n++ == 0 || m->at >= k->at) {
		snprintf(k->who, sizeof(k->who), "%s", m->who);
		k->at = m->at;
	}
	return 0;
}

static void
marked_load(struct show *s, const char *msgid, struct marked *k)
{
	memset(k, 0, sizeof(*k));
	mlq_store_marks(s->st, msgid, marked_add, k, &s->err);
}

static void
json_tag_bits(struct out_json *j, unsigned tags)
{
	unsigned bit;

	json_arr_begin(j);
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1)
		if (tags & bit)
			json_str(j, mlq_tag_name(bit));
	json_arr_end(j);
}

/* "marked": what was set by hand and by whom, or null. */
static void
json_marked(struct show *s, const char *msgid)
{
	struct out_json *j = &s->j;
	struct marked k;
	char at[32];

	marked_load(s, msgid, &k);
	json_key(j, "marked");
	if (k.n == 0) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_key(j, "status");
	json_str(j,
	    k.status != MLQ_STATE_NONE ? mlq_state_name(k.status) : NULL);
	json_key(j, "tags_added");
	json_tag_bits(j, k.given);
	json_key(j, "tags_removed");
	json_tag_bits(j, k.taken);
	json_key(j, "by");
	json_str(j, k.who);
	json_key(j, "at");
	mlq_date_format_rfc3339(k.at, at, sizeof(at));
	json_str(j, at);
	json_obj_end(j);
}

static void
show_json(struct show *s, const struct tree *t, int self)
{
	const struct mlq_hit *h = &t->n[self].hit;
	struct out_json *j = &s->j;
	struct ev_filter f;
	struct tree_after ta;
	int p;
	size_t i;

	json_obj_begin(j);
	out_hit_fields(j, h);
	json_marked(s, h->msgid);
	json_key(j, "series");
	json_obj_begin(j);
	json_key(j, "version");
	json_int(j, h->version);
	json_key(j, "index");
	json_int(j, h->index);
	json_key(j, "total");
	json_int(j, h->total);
	json_key(j, "cover");
	json_str(j, series_cover(s, t, self));
	json_obj_end(j);
	json_key(j, "files");
	json_arr_begin(j);
	mlq_store_files(s->st, h->id, json_file, j, &s->err);
	json_arr_end(j);
	json_key(j, "insertions");
	json_int(j, h->insertions);
	json_key(j, "deletions");
	json_int(j, h->deletions);
	json_key(j, "trailers");
	json_arr_begin(j);
	mlq_store_trailers(s->st, h->id, json_trailer, j, &s->err);
	json_arr_end(j);
	json_key(j, "replies");
	json_arr_begin(j);
	for (i = 0; i < t->count; i++) {
		if (!s->in[i])
			continue;
		json_obj_begin(j);
		out_hit_fields(j, &t->n[i].hit);
		json_marked(s, t->n[i].hit.msgid);
		json_key(j, "in_reply_to");
		p = t->n[i].parent;
		json_str(j, t->n[i].hit.parent);
		json_key(j, "parent_missing");
		json_bool(j, p >= 0 && t->n[p].ghost);
		json_key(j, "trailers");
		json_arr_begin(j);
		mlq_store_trailers(s->st, t->n[i].hit.id, json_trailer, j,
		    &s->err);
		json_arr_end(j);
		json_key(j, "evidence");
		json_arr_begin(j);
		f.j = j;
		f.tags = t->n[i].hit.tags;
		mlq_store_evidence(s->st, t->n[i].hit.id, json_evidence_kept,
		    &f, &s->err);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "missing");
	json_arr_begin(j);
	for (i = 0; i < t->count; i++)
		if (missing_here(t, s->in, i, self))
			json_str(j, t->n[i].hit.msgid);
	json_arr_end(j);
	json_key(j, "versions");
	json_arr_begin(j);
	mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, false, json_version, j,
	    &s->err);
	json_version(h, j);
	mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, true, json_version, j,
	    &s->err);
	json_arr_end(j);
	json_key(j, "reverted_by");
	json_arr_begin(j);
	mlq_store_links(s->st, h->id, MLQ_LINK_REVERT, true, json_link, j,
	    &s->err);
	json_arr_end(j);
	json_key(j, "reverts");
	json_arr_begin(j);
	mlq_store_links(s->st, h->id, MLQ_LINK_REVERT, false, json_link, j,
	    &s->err);
	json_arr_end(j);
	json_key(j, "reverts_commit");
	json_arr_begin(j);
	mlq_store_commits_named(s->st, h->id, MLQ_LINK_REVERT, json_named, j,
	    &s->err);
	json_arr_end(j);
	json_key(j, "fixed_by");
	json_arr_begin(j);
	mlq_store_links(s->st, h->id, MLQ_LINK_FIXES, true, json_link, j,
	    &s->err);
	json_arr_end(j);
	json_key(j, "commits");
	json_arr_begin(j);
	mlq_store_commits_of(s->st, h->id, json_commit, j, &s->err);
	json_arr_end(j);
	json_key(j, "reverted_in_tree");
	json_arr_begin(j);
	ta.j = j;
	ta.fixes = false;
	mlq_store_commits_of(s->st, h->id, json_tree_after, &ta, &s->err);
	json_arr_end(j);
	json_key(j, "fixed_in_tree");
	json_arr_begin(j);
	ta.fixes = true;
	mlq_store_commits_of(s->st, h->id, json_tree_after, &ta, &s->err);
	json_arr_end(j);
	json_key(j, "fixes");
	json_arr_begin(j);
	mlq_store_links(s->st, h->id, MLQ_LINK_FIXES, false, json_link, j,
	    &s->err);
	json_arr_end(j);
	json_obj_end(j);
	json_end_line(j);
}

/* ---- text ---- */

/* "Name <addr>", never cut: an address is an identifier. */
static void
text_who(const struct mlq_hit *h)
{
	out_safe(stdout, *h->from_name ? h->from_name : h->from_email);
	if (*h->from_name && *h->from_email) {
		fputs(" <", stdout);
		out_safe(stdout, h->from_email);
		fputc('>', stdout);
	}
	if (h->sender_email != NULL) {
		fputs(", sent by ", stdout);
		out_safe(stdout, *h->sender_name ? h->sender_name :
						  h->sender_email);
	}
}

/* "2021-04-07 15:34" or blanks. */
static const char *
when(bool ok, int64_t date, char *buf, size_t n)
{
	if (!ok) {
		snprintf(buf, n, "%-16s", "(date unknown)");
		return buf;
	}
	mlq_date_format_rfc3339(date, buf, n);
	buf[10] = ' ';
	buf[16] = '\0';
	return buf;
}

/* Lent to text_mark, which takes void *: a header's, a reply's. */
static char mark_head[] = "", mark_reply[] = "      ";

/* "set by hand: status nacked (Who, 2021-04-07)", after arg's indent. */
static int
text_mark(const struct mlq_mark *m, void *arg)
{
	char day[32];
	int w;

	mlq_date_format_rfc3339(m->at, day, sizeof(day));
	day[10] = '\0';
	if (m->tag == 0)
		w = printf("%sset by hand: status %s (", (const char *)arg,
		    mlq_state_name(m->status));
	else
		w = printf("%sset by hand: %c%s (", (const char *)arg,
		    m->removed ? '-' : '+', mlq_tag_name(m->tag));
	/* 80 columns with ", YYYY-MM-DD)" */
	out_safe_width(stdout, m->who, w < 50 ? 67 - w : 17);
	printf(", %s)\n", day);
	return 0;
}

static int
text_file(const struct mlq_patch_file *f, void *arg)
{
	int *count = arg;

	printf("%s", (*count)++ ? "          " : "files:    ");
	out_safe(stdout, f->path);
	printf(" (+%d -%d)\n", f->insertions, f->deletions);
	return 0;
}

static int
text_trailer(const struct mlq_trailer *t, void *arg)
{
	int col = (int)strlen((const char *)arg) + (int)strlen(t->key) + 2;

	fputs((const char *)arg, stdout);
	out_safe(stdout, t->key);
	fputs(": ", stdout);
	/* Never cut: a trailer is copied from here. */
	out_safe_wrap(stdout, t->value, col, 79, "", "");
	fputc('\n', stdout);
	return 0;
}

static int
text_evidence(const struct mlq_evidence *e, void *arg)
{
	unsigned kept = *(unsigned *)arg;
	int w;

	if (!(kept & e->tag))
		return 0;
	w = printf("      %s: ", mlq_tag_name(e->tag));
	out_safe_wrap(stdout, e->line, w, 79, "\"", "\"");
	fputc('\n', stdout);
	return 0;
}

/* Lent to text_trailer, which takes void *. */
static char indent[] = "          ";

/* A reply's evidence lines, so that its trailers are not printed twice. */
struct said {
	struct mlq_arena *a;
	const char **lines;
	size_t n;
	unsigned kept;
};

static int
said_evidence(const struct mlq_evidence *e, void *arg)
{
	struct said *d = arg;

	if (!(d->kept & e->tag))
		return 0;
	d->lines = mlq_arena_grow(d->a, d->lines, d->n, sizeof(*d->lines));
	if (d->lines == NULL) {
		d->n = 0;
		return 1;
	}
	d->lines[d->n++] = mlq_arena_strdup(d->a, e->line);
	return 0;
}

/* A reply's trailers that no evidence line already shows. */
static int
text_reply_trailer(const struct mlq_trailer *t, void *arg)
{
	const struct said *d = arg;
	char line[512];
	size_t i;

	snprintf(line, sizeof(line), "%s: %s", t->key, t->value);
	for (i = 0; i < d->n; i++)
		if (d->lines[i] != NULL && strcmp(d->lines[i], line) == 0)
			return 0;
	fputs("      ", stdout);
	out_safe_wrap(stdout, line, 6, 79, "", "");
	fputc('\n', stdout);
	return 0;
}

/* The header's link lines: a label on the first, indented after. */
struct hdr_links {
	const char *label;
	int count;
	int64_t self;
	bool versions;
};

static void
hdr_line(struct hdr_links *l, const struct mlq_hit *h, bool self)
{
	char buf[32];

	printf("%-10s", l->count++ ? "" : l->label);
	if (l->versions) {
		printf("v%-3d %s  <", h->version,
		    when(h->date_ok, h->date, buf, sizeof(buf)));
		out_safe(stdout, h->msgid);
		fputc('>', stdout);
		/* An RFC and the posting after it share their vN. */
		if (mlq_subject_tagged_rfc(h->subject))
			fputs("  RFC", stdout);
		fputs(self ? "  (this)\n" : "\n", stdout);
		return;
	}
	out_safe_width(stdout, h->subject, 68);
	fputc('\n', stdout);
}

static int
hdr_link(const struct mlq_hit *h, void *arg)
{
	hdr_line(arg, h, false);
	return 0;
}

/* One line of the timeline. */
enum ev_kind { EV_POSTED, EV_REPLY, EV_MISSING, EV_VERSION, EV_REVERT, EV_FIX };

struct ev {
	enum ev_kind kind;
	bool date_ok;
	int64_t date;
	int node;	     /* tree node for posted, reply, missing */
	struct mlq_hit link; /* a linked message (strings in the show arena) */
};

struct evs {
	struct mlq_arena *a;
	struct ev *v;
	size_t n;
	enum ev_kind kind; /* for link callbacks */
	int64_t self_version;
};

static struct ev *
ev_add(struct evs *e, enum ev_kind kind)
{
	struct ev *x;

	e->v = mlq_arena_grow(e->a, e->v, e->n, sizeof(*e->v));
	if (e->v == NULL) {
		e->n = 0;
		return NULL;
	}
	x = &e->v[e->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->node = -1;
	return x;
}

static int
ev_link(const struct mlq_hit *h, void *arg)
{
	struct evs *e = arg;
	struct ev *x;

	if (e->kind == EV_VERSION && h->version <= e->self_version)
		return 0;
	if ((x = ev_add(e, e->kind)) == NULL)
		return 1;
	x->date_ok = h->date_ok;
	x->date = h->date;
	x->link = *h;
	x->link.msgid = mlq_arena_strdup(e->a, h->msgid);
	x->link.subject = mlq_arena_strdup(e->a, h->subject);
	/* Only the id and subject are kept past the call. */
	x->link.from_name = x->link.from_email = x->link.list = NULL;
	x->link.sender_name = x->link.sender_email = NULL;
	x->link.parent = x->link.date_raw = NULL;
	return 0;
}

static int
ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->date_ok != y->date_ok)
		return x->date_ok ? -1 : 1;
	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/* A lost message is dated just before the first reply that quotes it. */
static void
ghost_date(const struct tree *t, size_t g, struct ev *x)
{
	size_t i;

	for (i = 0; i < t->count; i++) {
		if (t->n[i].ghost || !t->n[i].hit.date_ok ||
		    !tree_descends(t, i, g))
			continue;
		if (!x->date_ok || t->n[i].hit.date - 1 < x->date) {
			x->date_ok = true;
			x->date = t->n[i].hit.date - 1;
		}
	}
}

static void
text_event(struct show *s, const struct tree *t, const struct ev *x)
{
	static const char *const label[] = {
		[EV_VERSION] = "newer version: ",
		[EV_REVERT] = "reverted by: ",
		[EV_FIX] = "fixed by: ",
	};
	const struct mlq_hit *r;
	char buf[32];
	struct said d;
	unsigned kept;
	int w;

	printf("  %s  ", when(x->date_ok, x->date, buf, sizeof(buf)));
	switch (x->kind) {
	case EV_POSTED:
		fputs("posted by ", stdout);
		text_who(&t->n[x->node].hit);
		fputc('\n', stdout);
		break;
	case EV_REPLY:
		r = &t->n[x->node].hit;
		text_who(r);
		fputs("\n      <", stdout);
		out_safe(stdout, r->msgid);
		fputs(">\n", stdout);
		mlq_store_marks(s->st, r->msgid, text_mark, mark_reply,
		    &s->err);
		kept = r->tags;
		mlq_store_evidence(s->st, r->id, text_evidence, &kept, &s->err);
		memset(&d, 0, sizeof(d));
		if ((d.a = mlq_arena_new()) == NULL)
			break;
		d.kept = r->tags;
		mlq_store_evidence(s->st, r->id, said_evidence, &d, &s->err);
		mlq_store_trailers(s->st, r->id, text_reply_trailer, &d,
		    &s->err);
		mlq_arena_free(d.a);
		break;
	case EV_MISSING:
		fputs("[missing: not in the archive, quoted by a reply]\n",
		    stdout);
		fputs("      <", stdout);
		out_safe(stdout, t->n[x->node].hit.msgid);
		fputs(">\n", stdout);
		break;
	default:
		w = printf("%s", label[x->kind]);
		out_safe_width(stdout, x->link.subject, 60 - w);
		fputs("\n      <", stdout);
		out_safe(stdout, x->link.msgid);
		fputs(">\n", stdout);
		break;
	}
}

/* Counts newer versions without printing them. */
static int
count_only(const struct mlq_hit *h, void *arg)
{
	(void)h;
	((struct hdr_links *)arg)->count = 1;
	return 1;
}

static void
show_text(struct show *s, const struct tree *t, int self)
{
	const struct mlq_hit *h = &t->n[self].hit;
	const char *cover = series_cover(s, t, self);
	struct marked k;
	struct hdr_links l;
	struct evs e;
	struct ev *x;
	char buf[32];
	unsigned bit;
	size_t i;
	int files = 0;

	out_safe_width(stdout, h->subject, 80);
	fputc('\n', stdout);
	marked_load(s, h->msgid, &k);
	printf("status:   %s%s\n",
	    h->kind > 0 ? mlq_state_name(h->status) : "(not a submission)",
	    k.status != MLQ_STATE_NONE ? " (set by hand)" : "");
	fputs("tags:    ", stdout);
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1)
		if (h->tags & bit)
			printf(" %s", mlq_tag_name(bit));
	fputs(h->tags ? "\n" : " -\n", stdout);
	if (k.n > 0)
		mlq_store_marks(s->st, h->msgid, text_mark, mark_head, &s->err);
	fputs("from:     ", stdout);
	text_who(h);
	printf("\ndate:     %s",
	    h->date_ok ? out_date(h, buf, sizeof(buf)) : "unknown");
	fputs("\nid:       <", stdout);
	out_safe(stdout, h->msgid);
	fputs(">\n", stdout);
	if (h->list != NULL) {
		fputs("list:     ", stdout);
		out_safe_width(stdout, h->list, 70);
		fputc('\n', stdout);
	}
	if (h->total > 0 || h->version > 1) {
		printf("series:   v%d", h->version);
		if (h->total > 0)
			printf(", %d of %d", h->index, h->total);
		if (cover != NULL && h->kind != 2) {
			fputs(", cover <", stdout);
			out_safe(stdout, cover);
			fputc('>', stdout);
		}
		fputc('\n', stdout);
	}
	mlq_store_files(s->st, h->id, text_file, &files, &s->err);
	if (files > 0)
		printf("          %d file%s changed, %d insertion%s(+), "
		       "%d deletion%s(-)\n",
		    files, files == 1 ? "" : "s", h->insertions,
		    h->insertions == 1 ? "" : "s", h->deletions,
		    h->deletions == 1 ? "" : "s");
	mlq_store_trailers(s->st, h->id, text_trailer, indent, &s->err);
	memset(&l, 0, sizeof(l));
	l.label = "versions:";
	l.versions = true;
	mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, false, hdr_link, &l,
	    &s->err);
	if (l.count > 0)
		hdr_line(&l, h, true);
	mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, true,
	    l.count > 0 ? hdr_link : count_only, &l, &s->err);
	if (l.count == 1) {
		/* Only newer ones: list this one first, then them again. */
		l.count = 0;
		hdr_line(&l, h, true);
		mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, true, hdr_link,
		    &l, &s->err);
	}
	if (h->kind > 0)
		mlq_store_commits_of(s->st, h->id, text_commit, NULL, &s->err);
	memset(&l, 0, sizeof(l));
	l.label = "reverts:";
	mlq_store_links(s->st, h->id, MLQ_LINK_REVERT, false, hdr_link, &l,
	    &s->err);
	mlq_store_commits_named(s->st, h->id, MLQ_LINK_REVERT, text_named,
	    NULL, &s->err);
	memset(&l, 0, sizeof(l));
	l.label = "fixes:";
	mlq_store_links(s->st, h->id, MLQ_LINK_FIXES, false, hdr_link, &l,
	    &s->err);

	memset(&e, 0, sizeof(e));
	if ((e.a = mlq_arena_new()) == NULL) {
		mlq_err_set(&s->err, MLQ_ENOMEM, "out of memory");
		return;
	}
	if ((x = ev_add(&e, EV_POSTED)) != NULL) {
		x->node = self;
		x->date_ok = h->date_ok;
		x->date = h->date;
	}
	for (i = 0; i < t->count; i++) {
		if (s->in[i]) {
			if ((x = ev_add(&e, EV_REPLY)) == NULL)
				break;
			x->date_ok = t->n[i].hit.date_ok;
			x->date = t->n[i].hit.date;
		} else if (missing_here(t, s->in, i, self)) {
			if ((x = ev_add(&e, EV_MISSING)) == NULL)
				break;
			ghost_date(t, i, x);
		} else
			continue;
		x->node = (int)i;
	}
	e.self_version = h->version;
	e.kind = EV_VERSION;
	mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, true, ev_link, &e,
	    &s->err);
	e.kind = EV_REVERT;
	mlq_store_links(s->st, h->id, MLQ_LINK_REVERT, true, ev_link, &e,
	    &s->err);
	e.kind = EV_FIX;
	mlq_store_links(s->st, h->id, MLQ_LINK_FIXES, true, ev_link, &e,
	    &s->err);
	if (e.n > 0)
		qsort(e.v, e.n, sizeof(*e.v), ev_cmp);
	fputs("\ntimeline:\n", stdout);
	for (i = 0; i < e.n; i++)
		text_event(s, t, &e.v[i]);
	mlq_arena_free(e.a);
}

/* 7 to 40 hex digits: what a commit id is given as. */
static bool
is_commit_id(const char *s)
{
	size_t n = strlen(s);

	return n >= 7 && n <= 40 && strspn(s, "0123456789abcdefABCDEF") == n;
}

static int
cmd_show_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = OUT_TEXT;
	struct show s;
	struct mlq_buf id;
	struct tree t;
	enum mlq_status rc;
	int c, self = 0;

	if ((c = cli_check_options(&cmd_show, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'f' ||
		    !out_format_parse(optarg,
			OUT_ALLOW(OUT_TEXT) | OUT_ALLOW(OUT_JSON), &fmt))
			return cli_bad_option(&cmd_show);
	}
	if (optind + 1 != argc)
		return cli_usage_error(&cmd_show, "show: one MSGID is needed");
	mlq_buf_init(&id);
	if ((c = cli_msgid("show", argv[optind], &id)) != 0) {
		mlq_buf_release(&id);
		return c;
	}
	memset(&s, 0, sizeof(s));
	s.st = cli->st;
	rc = tree_load_msgid(cli->st, id.data, true, &t, &self, &s.err);
	/* No such message: a commit id names the posting it carries. */
	if (rc == MLQ_NOTFOUND && is_commit_id(argv[optind])) {
		tree_release(&t);
		rc = mlq_store_commit_posting(cli->st, argv[optind], &id,
		    &s.err);
		if (rc == MLQ_OK)
			rc = tree_load_msgid(cli->st, id.data, true, &t,
			    &self, &s.err);
		else
			memset(&t, 0, sizeof(t));
	}
	mlq_buf_release(&id);
	if (rc == MLQ_NOTFOUND) {
		tree_release(&t);
		return cli_not_found("show", argv[optind]);
	}
	if (rc != MLQ_OK) {
		tree_release(&t);
		return cli_fail(&s.err);
	}
	if ((s.in = review_set(&t, self)) == NULL) {
		tree_release(&t);
		mlq_err_set(&s.err, MLQ_ENOMEM, "out of memory");
		return cli_fail(&s.err);
	}
	json_init(&s.j, stdout);
	if (fmt == OUT_JSON)
		show_json(&s, &t, self);
	else
		show_text(&s, &t, self);
	free(s.in);
	tree_release(&t);
	return s.err.status == MLQ_OK ? 0 : cli_fail(&s.err);
}

/* mlq show [--format text|json] MSGID: a submission and its review history. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tree.h"

static int cmd_show_exec(struct cli *, int, char **);

const struct cli_cmd cmd_show = {
	.name = "show",
	.usage = "[--format text|json] MSGID",
	.summary = "a submission with its replies, tags, versions, reverts and fixes",
	.flags = CLI_DB_READ,
	.exec = cmd_show_exec,
};

struct show {
	struct mlq_store *st;
	struct out_json j;
	bool json;
	struct mlq_err err;
	int count;
};

static int
take_thread(const struct mlq_hit *h, void *arg)
{
	*(int64_t *)arg = h->thread;
	return 1;
}

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
	json_key(j, "rule");
	json_str(j, e->rule);
	json_key(j, "line");
	json_str(j, e->line);
	json_obj_end(j);
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

/* The cover letter a series patch answers, if the thread has it. */
static const char *
series_cover(const struct tree *t, int self)
{
	int p = t->n[self].parent;

	if (t->n[self].hit.index == 0)
		return NULL;
	if (p >= 0 && !t->n[p].ghost && t->n[p].hit.kind == 2)
		return t->n[p].hit.msgid;
	return NULL;
}

static void
show_json(struct show *s, const struct tree *t, int self)
{
	const struct mlq_hit *h = &t->n[self].hit;
	struct out_json *j = &s->j;
	size_t i;

	json_obj_begin(j);
	out_hit_fields(j, h);
	json_key(j, "series");
	json_obj_begin(j);
	json_key(j, "version");
	json_int(j, h->version);
	json_key(j, "index");
	json_int(j, h->index);
	json_key(j, "total");
	json_int(j, h->total);
	json_key(j, "cover");
	json_str(j, series_cover(t, self));
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
		if (t->n[i].ghost || !tree_descends(t, i, (size_t)self))
			continue;
		json_obj_begin(j);
		out_hit_fields(j, &t->n[i].hit);
		json_key(j, "trailers");
		json_arr_begin(j);
		mlq_store_trailers(s->st, t->n[i].hit.id, json_trailer, j, &s->err);
		json_arr_end(j);
		json_key(j, "evidence");
		json_arr_begin(j);
		mlq_store_evidence(s->st, t->n[i].hit.id, json_evidence, j, &s->err);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "missing");
	json_arr_begin(j);
	for (i = 0; i < t->count; i++)
		if (t->n[i].ghost && tree_descends(t, i, (size_t)self))
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
	mlq_store_links(s->st, h->id, MLQ_LINK_REVERT, true, json_link, j, &s->err);
	json_arr_end(j);
	json_key(j, "fixed_by");
	json_arr_begin(j);
	mlq_store_links(s->st, h->id, MLQ_LINK_FIXES, true, json_link, j, &s->err);
	json_arr_end(j);
	json_obj_end(j);
	json_end_line(j);
}

/* ---- text ---- */

static void
text_who(const struct mlq_hit *h)
{
	out_safe(stdout, *h->from_name ? h->from_name : h->from_email);
	if (*h->from_name && *h->from_email) {
		fputs(" <", stdout);
		out_safe(stdout, h->from_email);
		fputc('>', stdout);
	}
}

static const char *
day(const struct mlq_hit *h, char *buf, size_t n)
{
	if (!h->date_ok)
		return "unknown   ";
	out_date(h, buf, n);
	buf[10] = '\0';
	return buf;
}

static int
text_file(const struct mlq_patch_file *f, void *arg)
{
	int *count = arg;

	printf("%s ", (*count)++ ? "        " : "files:  ");
	out_safe(stdout, f->path);
	printf(" (+%d -%d)\n", f->insertions, f->deletions);
	return 0;
}

static int
text_trailer(const struct mlq_trailer *t, void *arg)
{
	fputs((const char *)arg, stdout);
	out_safe(stdout, t->key);
	fputs(": ", stdout);
	out_safe_width(stdout, t->value, 66);
	fputc('\n', stdout);
	return 0;
}

static int
text_evidence(const struct mlq_evidence *e, void *arg)
{
	(void)arg;
	printf("             %-17s \"", mlq_tag_name(e->tag));
	out_safe_width(stdout, e->line, 44);
	fputs("\"\n", stdout);
	return 0;
}

static int
text_link(const struct mlq_hit *h, void *arg)
{
	char buf[32];

	printf("%s%s  ", (const char *)arg, day(h, buf, sizeof(buf)));
	out_safe_width(stdout, h->subject, 60);
	fputs("\n", stdout);
	return 0;
}

/* Labels lent to the callbacks (which take void *). */
static char indent[] = "         ";
static char newer[] = "  newer version ";
static char reverted[] = "  reverted ";
static char fixed[] = "  fixed by ";

static void
show_text(struct show *s, const struct tree *t, int self)
{
	const struct mlq_hit *h = &t->n[self].hit;
	const char *cover = series_cover(t, self);
	char buf[32];
	unsigned bit;
	size_t i;
	int files = 0;

	out_safe(stdout, h->subject);
	fputc('\n', stdout);
	printf("status:  %s", h->kind > 0 ? mlq_state_name(h->status) : "(not a submission)");
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1)
		if (h->tags & bit)
			printf(" %s", mlq_tag_name(bit));
	fputs("\nfrom:    ", stdout);
	text_who(h);
	printf("\ndate:    %s", h->date_ok ? out_date(h, buf, sizeof(buf)) : "unknown");
	fputs("\nid:      <", stdout);
	out_safe(stdout, h->msgid);
	fputs(">\n", stdout);
	if (h->list != NULL) {
		fputs("list:    ", stdout);
		out_safe(stdout, h->list);
		fputc('\n', stdout);
	}
	if (h->total > 0 || h->version > 1) {
		printf("series:  v%d", h->version);
		if (h->total > 0)
			printf(", %d of %d", h->index, h->total);
		if (cover != NULL) {
			fputs(", cover <", stdout);
			out_safe(stdout, cover);
			fputc('>', stdout);
		}
		fputc('\n', stdout);
	}
	mlq_store_files(s->st, h->id, text_file, &files, &s->err);
	if (files > 0)
		printf("         %d file%s changed, %d insertion%s(+), %d deletion%s(-)\n",
		    files, files == 1 ? "" : "s", h->insertions,
		    h->insertions == 1 ? "" : "s", h->deletions,
		    h->deletions == 1 ? "" : "s");
	mlq_store_trailers(s->st, h->id, text_trailer, indent, &s->err);
	fputs("\ntimeline:\n", stdout);
	printf("  %s  posted by ", day(h, buf, sizeof(buf)));
	text_who(h);
	fputc('\n', stdout);
	for (i = 0; i < t->count; i++) {
		const struct mlq_hit *r = &t->n[i].hit;

		if (!tree_descends(t, i, (size_t)self))
			continue;
		if (t->n[i].ghost) {
			fputs("  (missing)   [a reply not in the archive] <", stdout);
			out_safe(stdout, r->msgid);
			fputs(">\n", stdout);
			continue;
		}
		printf("  %s  ", day(r, buf, sizeof(buf)));
		text_who(r);
		for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1)
			if (r->tags & bit)
				printf(" [%s]", mlq_tag_name(bit));
		fputc('\n', stdout);
		mlq_store_evidence(s->st, r->id, text_evidence, NULL, &s->err);
	}
	mlq_store_links(s->st, h->id, MLQ_LINK_VERSION, true, text_link,
	    newer, &s->err);
	mlq_store_links(s->st, h->id, MLQ_LINK_REVERT, true, text_link,
	    reverted, &s->err);
	mlq_store_links(s->st, h->id, MLQ_LINK_FIXES, true, text_link, fixed,
	    &s->err);
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
	struct tree t;
	enum mlq_status rc;
	int64_t thread = 0;
	const char *id;
	size_t n;
	int c, self;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'f' || !out_format_parse(optarg,
		    OUT_ALLOW(OUT_TEXT) | OUT_ALLOW(OUT_JSON), &fmt))
			return cli_usage_error(&cmd_show, "show: bad option");
	}
	if (optind + 1 != argc)
		return cli_usage_error(&cmd_show, "show: one MSGID is needed");
	memset(&s, 0, sizeof(s));
	s.st = cli->st;
	rc = mlq_store_get(cli->st, argv[optind], take_thread, &thread, &s.err);
	if (rc == MLQ_NOTFOUND) {
		fputs("mlq: show: no message '", stderr);
		out_safe(stderr, argv[optind]);
		fputs("'\n", stderr);
		return 1;
	}
	if (rc != MLQ_OK || (rc = tree_load(cli->st, thread, &t, &s.err)) != MLQ_OK)
		return cli_fail(&s.err);
	id = argv[optind] + (argv[optind][0] == '<');
	n = strlen(id) - (id[0] && id[strlen(id) - 1] == '>');
	for (self = 0; self < (int)t.count; self++)
		if (!t.n[self].ghost && strlen(t.n[self].hit.msgid) == n &&
		    strncmp(t.n[self].hit.msgid, id, n) == 0)
			break;
	if (self == (int)t.count) {
		tree_release(&t);
		mlq_err_set(&s.err, MLQ_EDB, "show: thread of '%s' is inconsistent", id);
		return cli_fail(&s.err);
	}
	json_init(&s.j, stdout);
	if (fmt == OUT_JSON)
		show_json(&s, &t, self);
	else
		show_text(&s, &t, self);
	tree_release(&t);
	return s.err.status == MLQ_OK ? 0 : cli_fail(&s.err);
}

/* mlq search [OPTIONS] [QUERY...] */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int cmd_search_exec(struct cli *, int, char **);

/* The same command, run by mlq-ingest for a phrase. */
static const struct cli_cmd search_helper = {
	.name = "search",
	.helper = CMD_INGEST_HELPER,
};

const struct cli_cmd cmd_search = {
	.name = "search",
	.usage = "[--from X] [--addr X] [--subject TEXT] [--list NAME] "
		 "[--file PATH] [--since DATE] [--until DATE] [--status S] "
		 "[--tag T] [--commit ID] [--patches] "
		 "[--format text|json|jsonl|mbox|ids] "
		 "[--links] [--limit N] [QUERY...]",
	.summary = "find messages by sender, address, list, file, date, status, tag or text",
	.details =
	    "QUERY is lore's: words AND; OR, NOT, -word, ( ), \"phrase\", word*;\n"
	    "prefixes s: b: bs: nq: q: f: t: c: tc: a: l: m: dfn: dfa: dfb: dfctx:\n"
	    "dfhh: d: rt: patchid: status: tag: is:patch (doc/query.md).  A flag\n"
	    "given twice means either value; different flags all hold.\n"
	    "DATE: YYYY-MM-DD, YYYYMMDD, 7d, 2w, 3m, 1y, 2.weeks.ago, yesterday\n"
	    "formats: text json jsonl mbox ids; --links ends a text line with\n"
	    "  the message's URL where its list comes from a public-inbox\n"
	    "statuses: pending questioned reviewed changes-requested superseded\n"
		   "  applied nacked reverted\n"
	    "tags: nack ack reviewed tested question changes-requested applied revert\n",
	.flags = CLI_DB_READ,
	.exec = cmd_search_exec,
	.conf_needs = "database identity",
};

struct search_out {
	enum out_format fmt;
	struct out_json j;
	struct mlq_store *st;
	struct mlq_err err;
	bool failed;
	const struct mlq_conf *links; /* --links: the sources' web URLs */
};

/*
 * The public-inbox URL of a message whose list came from an http(s)
 * source: its URL, then the Message-Id escaped as public-inbox escapes
 * it (all but RFC 3986's unreserved and sub-delims, ':' and '@').
 */
static bool
print_link(const struct mlq_conf *c, const struct mlq_hit *h)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";
	const struct mlq_conf_source *src = NULL;
	const unsigned char *p;
	size_t i, n;

	for (i = 0; c != NULL && h->list != NULL && i < c->nsources; i++)
		if (c->sources[i].list != NULL &&
		    strcmp(c->sources[i].list, h->list) == 0 &&
		    (strncmp(c->sources[i].url, "http://", 7) == 0 ||
			strncmp(c->sources[i].url, "https://", 8) == 0)) {
			src = &c->sources[i];
			break;
		}
	if (src == NULL)
		return false;
	n = strlen(src->url);
	out_safe(stdout, src->url);
	if (n == 0 || src->url[n - 1] != '/')
		fputc('/', stdout);
	for (p = (const unsigned char *)h->msgid; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(keep, *p) != NULL)
			fputc(*p, stdout);
		else
			printf("%%%02X", *p);
	}
	fputc('/', stdout);
	return true;
}

/* One line: date, status, author, subject, Message-Id; nothing cut. */
static void
print_text(const struct mlq_hit *h, const struct mlq_conf *links)
{
	char date[32];

	if (h->date_ok) {
		out_date(h, date, sizeof(date));
		date[10] = '\0';
	} else {
		snprintf(date, sizeof(date), "unknown   ");
	}
	printf("%s  %-17s  ", date, h->kind > 0 ? mlq_state_name(h->status) : "-");
	out_safe(stdout, h->from_name && *h->from_name ? h->from_name :
						      h->from_email);
	if (h->from_name && *h->from_name && h->from_email && *h->from_email) {
		fputs(" <", stdout);
		out_safe(stdout, h->from_email);
		fputc('>', stdout);
	}
	fputs("  ", stdout);
	out_safe(stdout, h->subject);
	fputs("  ", stdout);
	if (links == NULL || !print_link(links, h)) {
		fputc('<', stdout);
		out_safe(stdout, h->msgid);
		fputc('>', stdout);
	}
	fputc('\n', stdout);
}

static int
on_hit(const struct mlq_hit *h, void *arg)
{
	struct search_out *o = arg;

	switch (o->fmt) {
	case OUT_TEXT:
		print_text(h, o->links);
		break;
	case OUT_JSON:
		json_obj_begin(&o->j);
		out_hit_fields(&o->j, h);
		json_obj_end(&o->j);
		break;
	case OUT_JSONL:
		json_obj_begin(&o->j);
		out_hit_fields(&o->j, h);
		json_obj_end(&o->j);
		json_end_line(&o->j);
		break;
	case OUT_IDS:
		out_safe(stdout, h->msgid);
		fputc('\n', stdout);
		break;
	case OUT_MBOX:
		if (out_mbox(stdout, o->st, h, &o->err) != MLQ_OK) {
			o->failed = true;
			return 1;
		}
		break;
	}
	return 0;
}

static bool
parse_limit(const char *s, int64_t *out)
{
	char *end;
	long long v;

	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v <= 0)
		return false;
	*out = v;
	return true;
}

/* The list names the database holds, for --list to check against. */
struct names {
	struct mlq_arena *a;
	const char **v;
	size_t n;
};

static int
add_name(const char *name, int64_t count, bool dated, int64_t newest,
    void *arg)
{
	struct names *k = arg;

	(void)count;
	(void)dated;
	(void)newest;
	if ((k->v = mlq_arena_grow(k->a, k->v, k->n, sizeof(*k->v))) == NULL ||
	    (k->v[k->n] = mlq_arena_strdup(k->a, name)) == NULL)
		return 1;
	k->n++;
	return 0;
}

/* A --list value that names no list is a typo, not an empty answer. */
static int
check_lists(struct mlq_store *st, char **vals, size_t n, struct mlq_arena *a)
{
	struct names k = { a, NULL, 0 };
	struct mlq_err err;
	const char *near;
	size_t i, j;

	mlq_err_clear(&err);
	if (mlq_store_lists(st, add_name, &k, &err) != MLQ_OK)
		return cli_fail(&err);
	for (i = 0; i < n; i++) {
		for (j = 0; j < k.n && strcmp(k.v[j], vals[i]) != 0; j++)
			;
		if (j < k.n || *vals[i] == '\0')
			continue;
		if ((near = mlq_nearest(vals[i], k.v, k.n)) != NULL)
			return cli_usage_error(NULL,
			    "search: no list '%s' (did you mean '%s'?)", vals[i],
			    near);
		return cli_usage_error(NULL,
		    "search: no list '%s' ('mlq lists' names them)", vals[i]);
	}
	return 0;
}

/* The flags that narrow a search, in the order of their O_ codes. */
static const char *const flag_names[] = { "from", "addr", "subject", "list",
	"file", "since", "until", "status", "tag", "commit", "patches" };
#define NFLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

/*
 * Puts the options first and the query after a "--", so that a query's
 * "-term" (lore's NOT) is not taken for an option, wherever the options
 * are.  What starts with "--" is an option; a word after a lone "--" is
 * query.  out has room for argc + 2.
 */
static int
options_first(int argc, char **argv, const struct option *opts, char **out)
{
	static char dashdash[] = "--";
	const struct option *o;
	int i, n = 0, nq = 0;
	char **query = out + argc + 1;

	out[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (++i < argc)
				query[nq++] = argv[i];
			break;
		}
		if (strncmp(argv[i], "--", 2) != 0) {
			query[nq++] = argv[i];
			continue;
		}
		out[n++] = argv[i];
		o = cli_long_option(opts, argv[i]);
		if (o != NULL && o->has_arg == required_argument &&
		    strchr(argv[i], '=') == NULL && i + 1 < argc)
			out[n++] = argv[++i];
	}
	out[n++] = dashdash;
	for (i = 0; i < nq; i++)
		out[n++] = query[i];
	out[n] = NULL;
	return n;
}

static int
cmd_search_exec(struct cli *cli, int argc, char **argv)
{
	enum { O_FROM = 256, O_ADDR, O_SUBJECT, O_LIST, O_FILE, O_SINCE, O_UNTIL,
		O_STATUS, O_TAG, O_COMMIT, O_PATCHES, O_FORMAT, O_LIMIT,
		O_LINKS };
	static const struct option opts[] = {
		{ "from", required_argument, NULL, O_FROM },
		{ "addr", required_argument, NULL, O_ADDR },
		{ "subject", required_argument, NULL, O_SUBJECT },
		{ "list", required_argument, NULL, O_LIST },
		{ "file", required_argument, NULL, O_FILE },
		{ "since", required_argument, NULL, O_SINCE },
		{ "until", required_argument, NULL, O_UNTIL },
		{ "status", required_argument, NULL, O_STATUS },
		{ "tag", required_argument, NULL, O_TAG },
		{ "commit", required_argument, NULL, O_COMMIT },
		{ "patches", no_argument, NULL, O_PATCHES },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "links", no_argument, NULL, O_LINKS },
		{ NULL, 0, NULL, 0 },
	};
	/* Each flag's values, in the order given: repeats OR. */
	char **vals[NFLAGS] = { NULL }, **args;
	size_t nvals[NFLAGS] = { 0 };
	struct mlq_query q;
	struct search_out o;
	struct mlq_arena *a;
	struct mlq_buf text;
	enum mlq_status rc = MLQ_OK;
	int64_t now = (int64_t)time(NULL);
	size_t k;
	int c, i, ret;

	if ((c = cli_check_options(&cmd_search, argc, argv, opts)) != 0)
		return c;
	memset(&q, 0, sizeof(q));
	memset(&o, 0, sizeof(o));
	o.fmt = OUT_TEXT;
	o.st = cli->st;
	if ((a = mlq_arena_new()) == NULL) {
		mlq_err_set(&o.err, MLQ_ENOMEM, "out of memory");
		return cli_fail(&o.err);
	}
	/* The query words are moved to the end, behind a "--". */
	if ((args = mlq_arena_alloc(a, sizeof(*args) * (2 * (size_t)argc + 2))) ==
	    NULL) {
		mlq_arena_free(a);
		mlq_err_set(&o.err, MLQ_ENOMEM, "out of memory");
		return cli_fail(&o.err);
	}
	argc = options_first(argc, argv, opts, args);
	argv = args;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_FORMAT:
			if (!out_format_parse(optarg, OUT_ALLOW(OUT_TEXT) |
				OUT_ALLOW(OUT_JSON) | OUT_ALLOW(OUT_JSONL) |
				OUT_ALLOW(OUT_MBOX) | OUT_ALLOW(OUT_IDS), &o.fmt)) {
				mlq_arena_free(a);
				return cli_usage_error(&cmd_search,
				    "search: unknown format '%s' (text, json, "
				    "jsonl, mbox, ids)", optarg);
			}
			break;
		case O_LINKS:
			/* An empty config: ids as ever. */
			o.links = cli->conf;
			break;
		case O_LIMIT:
			if (!parse_limit(optarg, &q.limit)) {
				mlq_arena_free(a);
				return cli_usage_error(&cmd_search,
				    "search: bad limit '%s'", optarg);
			}
			break;
		default:
			if (c < O_FROM || c > O_PATCHES) {
				mlq_arena_free(a);
				return cli_bad_option(&cmd_search);
			}
			k = (size_t)(c - O_FROM);
			vals[k] = mlq_arena_grow(a, vals[k], nvals[k],
			    sizeof(*vals[k]));
			if (vals[k] == NULL) {
				mlq_arena_free(a);
				mlq_err_set(&o.err, MLQ_ENOMEM, "out of memory");
				return cli_fail(&o.err);
			}
			vals[k][nvals[k]++] = optarg;
			break;
		}
	}
	if (nvals[O_LIST - O_FROM] > 0 &&
	    (ret = check_lists(cli->st, vals[O_LIST - O_FROM],
		 nvals[O_LIST - O_FROM], a)) != 0) {
		mlq_arena_free(a);
		return ret;
	}
	/* Raw mail goes out in the order it was written. */
	q.oldest_first = o.fmt == OUT_MBOX;
	for (k = 0; k < NFLAGS && rc == MLQ_OK; k++)
		if (nvals[k] > 0)
			rc = mlq_query_flag(&q, flag_names[k], vals[k], nvals[k],
			    now, a, &o.err);
	mlq_buf_init(&text);
	for (i = optind; i < argc; i++) {
		if (text.len > 0)
			mlq_buf_addch(&text, ' ');
		mlq_buf_addstr(&text, argv[i]);
	}
	if (rc == MLQ_OK)
		rc = text.oom ?
		    mlq_err_set(&o.err, MLQ_ENOMEM, "out of memory") :
		    mlq_query_text(&q, text.data ? text.data : "", now, a,
			&o.err);
	/* mlq does not parse mail: mlq-ingest checks a phrase. */
	if (rc == MLQ_OK && mlq_query_has_phrase(&q) && cli_phrases == NULL) {
		mlq_buf_release(&text);
		mlq_arena_free(a);
		return cli_exec_helper(&search_helper, cli->argv);
	}
	if (rc == MLQ_OK && mlq_query_has_phrase(&q))
		rc = cli_phrases(cli->st, &o.err);
	if (rc == MLQ_OK) {
		json_init(&o.j, stdout);
		if (o.fmt == OUT_JSON)
			json_arr_begin(&o.j);
		rc = mlq_store_search(cli->st, &q, on_hit, &o, &o.err);
		if (o.fmt == OUT_JSON) {
			json_arr_end(&o.j);
			json_end_line(&o.j);
		}
		if (o.failed)
			rc = o.err.status;
	}
	mlq_buf_release(&text);
	mlq_arena_free(a);
	if (rc == MLQ_NOTFOUND)
		return 1;
	ret = rc == MLQ_OK ? 0 : cli_fail(&o.err);
	return ret;
}

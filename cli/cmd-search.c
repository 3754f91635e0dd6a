/* mlq search [OPTIONS] [QUERY...] */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int cmd_search_exec(struct cli *, int, char **);

const struct cli_cmd cmd_search = {
	.name = "search",
	.usage = "[--from X] [--addr X] [--subject TEXT] [--list NAME] "
		 "[--file PATH] [--since DATE] [--until DATE] [--status S] "
		 "[--tag T] [--patches] [--format text|json|jsonl|mbox] "
		 "[--limit N] [QUERY...]",
	.summary = "find messages by sender, address, list, file, date, status, tag or text",
	.flags = CLI_DB_READ,
	.exec = cmd_search_exec,
};

struct search_out {
	enum out_format fmt;
	struct out_json j;
	struct mlq_store *st;
	struct mlq_err err;
	bool failed;
};

/* One line: date, status, sender, subject. */
static void
print_text(const struct mlq_hit *h)
{
	char date[32];

	if (h->date_ok) {
		out_date(h, date, sizeof(date));
		date[10] = '\0';
	} else {
		snprintf(date, sizeof(date), "unknown   ");
	}
	printf("%s  %-17s  ", date, h->kind > 0 ? mlq_state_name(h->status) : "-");
	out_safe_width(stdout, h->from_name && *h->from_name ? h->from_name :
							     h->from_email, 24);
	if (h->from_name && *h->from_name && h->from_email && *h->from_email) {
		fputs(" <", stdout);
		out_safe(stdout, h->from_email);
		fputc('>', stdout);
	}
	fputs("  ", stdout);
	out_safe(stdout, h->subject);
	fputc('\n', stdout);
}

static int
on_hit(const struct mlq_hit *h, void *arg)
{
	struct search_out *o = arg;

	switch (o->fmt) {
	case OUT_TEXT:
		print_text(h);
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

static int
cmd_search_exec(struct cli *cli, int argc, char **argv)
{
	enum { O_FROM = 256, O_ADDR, O_SUBJECT, O_LIST, O_FILE, O_SINCE, O_UNTIL,
		O_STATUS, O_TAG, O_PATCHES, O_FORMAT, O_LIMIT };
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
		{ "patches", no_argument, NULL, O_PATCHES },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_query q;
	struct search_out o;
	struct mlq_arena *a;
	struct mlq_buf text;
	enum mlq_status rc;
	int64_t now = (int64_t)time(NULL), t;
	int c, i, ret;

	memset(&q, 0, sizeof(q));
	memset(&o, 0, sizeof(o));
	o.fmt = OUT_TEXT;
	o.st = cli->st;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_FROM:
			q.from = optarg;
			break;
		case O_ADDR:
			q.addr = optarg;
			break;
		case O_SUBJECT:
			q.subject = optarg;
			break;
		case O_LIST:
			q.list = optarg;
			break;
		case O_FILE:
			q.file = optarg;
			break;
		case O_SINCE:
		case O_UNTIL:
			if (!mlq_date_parse_arg(optarg, now, &t))
				return cli_usage_error(&cmd_search,
				    "search: bad date '%s' (YYYY-MM-DD, 7d, 2w, 3m)",
				    optarg);
			if (c == O_SINCE) {
				q.has_since = true;
				q.since = t;
			} else {
				q.has_until = true;
				q.until = t + 86400; /* the day itself is included */
			}
			break;
		case O_STATUS:
			q.status = mlq_state_from_name(optarg);
			if (q.status == MLQ_STATE_NONE)
				return cli_usage_error(&cmd_search,
				    "search: unknown status '%s'", optarg);
			break;
		case O_TAG:
			if ((q.tag = mlq_tag_from_name(optarg)) == 0)
				return cli_usage_error(&cmd_search,
				    "search: unknown tag '%s'", optarg);
			break;
		case O_PATCHES:
			q.patches = true;
			break;
		case O_FORMAT:
			if (!out_format_parse(optarg, OUT_ALLOW(OUT_TEXT) |
				OUT_ALLOW(OUT_JSON) | OUT_ALLOW(OUT_JSONL) |
				OUT_ALLOW(OUT_MBOX), &o.fmt))
				return cli_usage_error(&cmd_search,
				    "search: unknown format '%s'", optarg);
			break;
		case O_LIMIT:
			if (!parse_limit(optarg, &q.limit))
				return cli_usage_error(&cmd_search,
				    "search: bad limit '%s'", optarg);
			break;
		default:
			return cli_usage_error(&cmd_search, "search: bad option");
		}
	}
	a = mlq_arena_new();
	mlq_buf_init(&text);
	for (i = optind; i < argc; i++) {
		if (text.len > 0)
			mlq_buf_addch(&text, ' ');
		mlq_buf_addstr(&text, argv[i]);
	}
	rc = a == NULL || text.oom ?
	    mlq_err_set(&o.err, MLQ_ENOMEM, "out of memory") :
	    mlq_query_text(&q, text.data, now, a, &o.err);
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

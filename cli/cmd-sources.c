/* mlq sources [--format text|json]: what mlqd polls and how it went. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int cmd_sources_exec(struct cli *, int, char **);

const struct cli_cmd cmd_sources = {
	.name = "sources",
	.usage = "[--format text|json]",
	.summary = "each source and followed repo: cursor, last poll, last "
		   "error, counts",
	.flags = CLI_DB_READ,
	.exec = cmd_sources_exec,
};

struct sources_out {
	bool json;
	struct out_json j;
	int n;
};

static const char *
when(int64_t t, char *buf, size_t n)
{
	if (t == 0)
		return "never";
	mlq_date_format_rfc3339(t, buf, n);
	return buf;
}

static void
json_time(struct out_json *j, const char *key, int64_t t)
{
	char buf[32];

	json_key(j, key);
	if (t == 0)
		json_null(j);
	else
		json_str(j, when(t, buf, sizeof(buf)));
}

/*
 * An HTTP source's cursor "rt:T": every message the inbox received before
 * T is stored.  0 for any other cursor.
 */
static int64_t
received_until(const struct mlq_source_state *s)
{
	long long v;
	int n = 0;

	if (s->cursor == NULL || s->kind == NULL ||
	    strcmp(s->kind, "http") != 0 ||
	    sscanf(s->cursor, "rt:%lld%n", &v, &n) != 1 ||
	    s->cursor[n] != '\0' || v <= 0)
		return 0;
	return (int64_t)v;
}

static void
ref_text(const char *ref, size_t rn, const char *id, size_t idn, void *arg)
{
	char *r = strndup(ref, rn), *i = strndup(id, idn);

	fputs("\n  ref:          ", stdout);
	out_safe(stdout, r != NULL ? r : "");
	fputs(" at ", stdout);
	out_safe(stdout, i != NULL ? i : "");
	free(r);
	free(i);
}

static void
ref_json(const char *ref, size_t rn, const char *id, size_t idn, void *arg)
{
	struct out_json *j = arg;
	char *r = strndup(ref, rn), *i = strndup(id, idn);

	json_obj_begin(j);
	json_key(j, "ref");
	json_str(j, r);
	json_key(j, "commit");
	json_str(j, i);
	json_obj_end(j);
	free(r);
	free(i);
}

static int
on_source(const struct mlq_source_state *s, void *arg)
{
	struct sources_out *o = arg;
	bool git = s->kind != NULL && strcmp(s->kind, "git") == 0;
	char buf[32];

	o->n++;
	if (o->json) {
		json_obj_begin(&o->j);
		json_key(&o->j, "name");
		json_str(&o->j, s->name);
		json_key(&o->j, "url");
		json_str(&o->j, s->url);
		json_key(&o->j, "kind");
		json_str(&o->j, s->kind);
		json_key(&o->j, "cursor");
		json_str(&o->j, s->cursor);
		if (git) {
			json_key(&o->j, "refs");
			json_arr_begin(&o->j);
			mlq_git_cursor_each(s->cursor, ref_json, &o->j);
			json_arr_end(&o->j);
		}
		if (strcmp(s->kind != NULL ? s->kind : "", "http") == 0)
			json_time(&o->j, "received_until", received_until(s));
		json_time(&o->j, "last_poll", s->last_poll);
		json_time(&o->j, "last_success", s->last_ok);
		json_time(&o->j, "next_poll", s->next_poll);
		json_key(&o->j, "last_error");
		json_str(&o->j, s->last_error);
		json_key(&o->j, git ? "commits" : "messages");
		json_int(&o->j, (long long)s->ingested);
		json_obj_end(&o->j);
		return 0;
	}
	out_safe(stdout, s->name);
	fputs("\n  url:          ", stdout);
	out_safe(stdout, s->url);
	fputs("\n  kind:         ", stdout);
	out_safe(stdout, s->kind);
	if (git && s->cursor != NULL) {
		mlq_git_cursor_each(s->cursor, ref_text, NULL);
	} else {
		fputs("\n  cursor:       ", stdout);
		out_safe(stdout, s->cursor ? s->cursor : "(none)");
	}
	/* By the inbox's received time: late-filed old mail is not seen. */
	if (received_until(s) != 0)
		printf("\n  received to:  %s (the inbox's received time)",
		    when(received_until(s), buf, sizeof(buf)));
	printf("\n  last poll:    %s", when(s->last_poll, buf, sizeof(buf)));
	printf("\n  last success: %s", when(s->last_ok, buf, sizeof(buf)));
	printf("\n  next poll:    %s", when(s->next_poll, buf, sizeof(buf)));
	fputs("\n  last error:   ", stdout);
	out_safe(stdout, s->last_error ? s->last_error : "none");
	printf("\n  %s     %llu\n", git ? "commits: " : "messages:",
	    (unsigned long long)s->ingested);
	return 0;
}

static int
cmd_sources_exec(struct cli *cli, int argc, char **argv)
{
	struct sources_out o;
	struct mlq_err err;
	enum out_format fmt = OUT_TEXT;

	if (argc == 3 && strcmp(argv[1], "--format") == 0) {
		if (!out_format_parse(argv[2], OUT_ALLOW(OUT_TEXT) |
		    OUT_ALLOW(OUT_JSON), &fmt))
			return cli_usage_error(&cmd_sources, "sources: bad format");
	} else if (argc != 1) {
		return cli_usage_error(&cmd_sources, "sources: bad arguments");
	}
	memset(&o, 0, sizeof(o));
	o.json = fmt == OUT_JSON;
	json_init(&o.j, stdout);
	mlq_err_clear(&err);
	if (o.json)
		json_arr_begin(&o.j);
	if (mlq_store_source_list(cli->st, on_source, &o, &err) != MLQ_OK)
		return cli_fail(&err);
	if (o.json) {
		json_arr_end(&o.j);
		json_end_line(&o.j);
	}
	return o.n > 0 ? 0 : 1;
}

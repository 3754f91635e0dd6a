/* mlq who [--since DATE] [--format text|json] DOMAIN_OR_ADDR */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int cmd_who_exec(struct cli *, int, char **);

const struct cli_cmd cmd_who = {
	.name = "who",
	.usage = "[--since DATE] [--limit N] [--format text|json] "
		 "DOMAIN_OR_ADDR",
	.summary = "the track record of a sender or a whole domain",
	.flags = CLI_DB_READ,
	.exec = cmd_who_exec,
	.conf_needs = "database identity",
};

/* The most recent submissions listed (--limit). */
#define WHO_RECENT 10

/* One submission, kept for the counts and the recent list. */
struct sub {
	struct mlq_hit hit; /* strings in the arena */
	bool reviewed;
	int64_t first_review; /* seconds after posting */
	bool reverted;	      /* a revert of it was posted */
	bool fixed;	      /* a later patch names it in Fixes: */
	bool merged;	      /* a commit read carries it */
	bool tree_reverted;   /* and a commit read reverts that */
};

struct who {
	struct mlq_store *st;
	struct mlq_arena *a;
	struct sub *v;
	size_t n;
	bool oom;
	struct mlq_err err;
};

static int
on_sub(const struct mlq_hit *h, void *arg)
{
	struct who *w = arg;
	struct sub *s;

	w->v = mlq_arena_grow(w->a, w->v, w->n, sizeof(*w->v));
	if (w->v == NULL) {
		w->oom = true;
		return 1;
	}
	s = &w->v[w->n++];
	memset(s, 0, sizeof(*s));
	s->hit = *h;
	s->hit.msgid = mlq_arena_strdup(w->a, h->msgid);
	s->hit.subject = mlq_arena_strdup(w->a, h->subject);
	s->hit.from_name = mlq_arena_strdup(w->a, h->from_name);
	s->hit.from_email = mlq_arena_strdup(w->a, h->from_email);
	s->hit.list = h->list ? mlq_arena_strdup(w->a, h->list) : NULL;
	s->hit.sender_name = h->sender_name ?
	    mlq_arena_strdup(w->a, h->sender_name) : NULL;
	s->hit.sender_email = h->sender_email ?
	    mlq_arena_strdup(w->a, h->sender_email) : NULL;
	s->hit.parent = NULL;
	s->hit.date_raw = "";
	if (s->hit.msgid == NULL || s->hit.subject == NULL ||
	    s->hit.from_name == NULL || s->hit.from_email == NULL) {
		w->oom = true;
		return 1;
	}
	return 0;
}

static int
count_link(const struct mlq_hit *h, void *arg)
{
	(void)h;
	*(bool *)arg = true;
	return 1;
}

/* A revert that was itself nacked does not count (as for the status). */
static int
count_revert(const struct mlq_hit *h, void *arg)
{
	if (h->tags & MLQ_TAG_NACK)
		return 0;
	*(bool *)arg = true;
	return 1;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* What `who` reports, computed once for both formats. */
struct who_stats {
	size_t by_status[MLQ_STATE_LAST + 1];
	size_t kinds[4];
	size_t reviewed, nacked, reverted, fixed;
	size_t merged, merged_reverted, merged_unreviewed;
	int64_t median; /* seconds; -1 when nothing was reviewed */
};

static int
count_commit(const struct mlq_commit_row *r, void *arg)
{
	struct sub *s = arg;

	s->merged = true;
	s->tree_reverted |= r->reverted_by != NULL;
	/* A commit of the tree whose Fixes: names it: later fixed too. */
	s->fixed |= r->fixed_by != NULL;
	return 0;
}

static enum mlq_status
who_stats(struct who *w, struct who_stats *o)
{
	int64_t *times;
	enum mlq_status rc;
	size_t i;
	struct sub *s;

	memset(o, 0, sizeof(*o));
	o->median = -1;
	if ((times = calloc(w->n + 1, sizeof(*times))) == NULL)
		return mlq_err_set(&w->err, MLQ_ENOMEM, "out of memory");
	for (i = 0; i < w->n; i++) {
		s = &w->v[i];
		if ((unsigned)s->hit.status <= MLQ_STATE_LAST)
			o->by_status[s->hit.status]++;
		if (s->hit.kind >= 1 && s->hit.kind <= 3)
			o->kinds[s->hit.kind]++;
		rc = mlq_store_first_review(w->st, s->hit.id, &s->first_review,
		    &w->err);
		if (rc == MLQ_OK && s->hit.date_ok) {
			s->reviewed = true;
			s->first_review -= s->hit.date;
			times[o->reviewed++] = s->first_review;
		} else if (rc != MLQ_OK && rc != MLQ_NOTFOUND) {
			free(times);
			return rc;
		}
		if ((rc = mlq_store_links(w->st, s->hit.id, MLQ_LINK_REVERT,
			 true, count_revert, &s->reverted, &w->err)) !=
			MLQ_OK ||
		    (rc = mlq_store_links(w->st, s->hit.id, MLQ_LINK_FIXES,
			 true, count_link, &s->fixed, &w->err)) != MLQ_OK) {
			free(times);
			return rc;
		}
		if ((rc = mlq_store_commits_of(w->st, s->hit.id, count_commit,
			 s, &w->err)) != MLQ_OK) {
			free(times);
			return rc;
		}
		o->nacked += (s->hit.tags & MLQ_TAG_NACK) != 0;
		o->reverted += s->reverted || s->tree_reverted;
		o->fixed += s->fixed;
		o->merged += s->merged;
		o->merged_reverted += s->merged &&
		    (s->reverted || s->tree_reverted);
		o->merged_unreviewed += s->merged && !s->reviewed;
	}
	if (o->reviewed > 0) {
		qsort(times, o->reviewed, sizeof(*times), cmp_i64);
		o->median = o->reviewed % 2
		    ? times[o->reviewed / 2]
		    : (times[o->reviewed / 2 - 1] + times[o->reviewed / 2]) / 2;
	}
	free(times);
	return MLQ_OK;
}

/* "3d 4h", "5h 12m", "7m": a duration for people. */
static const char *
duration(int64_t secs, char *buf, size_t n)
{
	if (secs < 0)
		secs = 0;
	if (secs >= 86400)
		snprintf(buf, n, "%lldd %lldh", (long long)(secs / 86400),
		    (long long)(secs % 86400 / 3600));
	else if (secs >= 3600)
		snprintf(buf, n, "%lldh %lldm", (long long)(secs / 3600),
		    (long long)(secs % 3600 / 60));
	else
		snprintf(buf, n, "%lldm", (long long)(secs / 60));
	return buf;
}

static double
pct(size_t k, size_t n)
{
	return n ? 100.0 * (double)k / (double)n : 0.0;
}

static void
who_text(const struct who *w, const struct who_stats *o, const char *x,
    const char *since, size_t limit)
{
	/* Statuses in their precedence, the one that wins first. */
	static const enum mlq_state by_rank[] = { MLQ_STATE_REVERTED,
		MLQ_STATE_MERGED, MLQ_STATE_NACKED, MLQ_STATE_APPLIED,
		MLQ_STATE_SUPERSEDED, MLQ_STATE_CHANGES, MLQ_STATE_REVIEWED,
		MLQ_STATE_QUESTIONED, MLQ_STATE_PENDING };
	char buf[64], date[32];
	size_t i;
	int st, n, col;
	bool first = true;

	fputs("who:          ", stdout);
	out_safe(stdout, x);
	if (since != NULL) {
		fputs(" since ", stdout);
		out_safe(stdout, since);
	}
	printf("\nsubmissions:  %zu (%zu patches, %zu cover letters, "
	       "%zu pull requests)\n",
	    w->n, o->kinds[1], o->kinds[2], o->kinds[3]);
	fputs("by status:   ", stdout);
	col = 13;
	for (i = 0; i < sizeof(by_rank) / sizeof(by_rank[0]); i++) {
		st = by_rank[i];
		if (o->by_status[st] == 0)
			continue;
		n = snprintf(buf, sizeof(buf), " %s %zu", mlq_state_name(st),
		    o->by_status[st]);
		if (!first) {
			fputc(',', stdout);
			col++;
		}
		if (!first && col + n > 79) {
			fputs("\n             ", stdout);
			col = 13;
		}
		fputs(buf, stdout);
		col += n;
		first = false;
	}
	fputs(first ? " -\n" : "\n", stdout);
	if (o->median >= 0)
		printf("first review: median %s (%zu of %zu "
		       "answered by others)\n",
		    duration(o->median, buf, sizeof(buf)), o->reviewed, w->n);
	else
		fputs("first review: none yet\n", stdout);
	printf("no review:    %zu (%.1f%%)\n", w->n - o->reviewed,
	    pct(w->n - o->reviewed, w->n));
	printf("merged:       %zu (%.1f%%), %zu of them then reverted, %zu "
	       "with no review\n",
	    o->merged, pct(o->merged, w->n), o->merged_reverted,
	    o->merged_unreviewed);
	printf("nacked:       %zu (%.1f%%)\n", o->nacked, pct(o->nacked, w->n));
	printf("reverted:     %zu (%.1f%%)\n", o->reverted,
	    pct(o->reverted, w->n));
	printf("fixed later:  %zu (%.1f%%)\n", o->fixed, pct(o->fixed, w->n));
	if (w->n == 0)
		return;
	fputs("\nmost recent:\n", stdout);
	for (i = 0; i < w->n && i < limit; i++) {
		const struct mlq_hit *h = &w->v[i].hit;

		if (h->date_ok) {
			out_date(h, date, sizeof(date));
			date[10] = '\0';
		} else
			snprintf(date, sizeof(date), "unknown");
		printf("  %-10s  %-17s  ", date, mlq_state_name(h->status));
		out_safe_width(stdout, h->subject, 47);
		fputc('\n', stdout);
	}
}

static void
rate(struct out_json *j, const char *key, size_t k, size_t n)
{
	json_key(j, key);
	json_obj_begin(j);
	json_key(j, "count");
	json_int(j, (long long)k);
	json_key(j, "rate");
	json_real(j, n ? (double)k / (double)n : 0.0, 4);
	json_obj_end(j);
}

static void
who_json(const struct who *w, const struct who_stats *o, const char *x,
    const char *since, size_t limit)
{
	struct out_json j;
	size_t i;
	int st;

	json_init(&j, stdout);
	json_obj_begin(&j);
	json_key(&j, "who");
	json_str(&j, x);
	json_key(&j, "since");
	json_str(&j, since);
	json_key(&j, "submissions");
	json_int(&j, (long long)w->n);
	json_key(&j, "by_status");
	json_obj_begin(&j);
	for (st = MLQ_STATE_PENDING; st <= MLQ_STATE_LAST; st++) {
		json_key(&j, mlq_state_name(st));
		json_int(&j, (long long)o->by_status[st]);
	}
	json_obj_end(&j);
	json_key(&j, "reviewed");
	json_int(&j, (long long)o->reviewed);
	json_key(&j, "median_first_review_seconds");
	if (o->median >= 0)
		json_int(&j, o->median);
	else
		json_null(&j);
	json_key(&j, "rates");
	json_obj_begin(&j);
	rate(&j, "nack", o->nacked, w->n);
	rate(&j, "revert", o->reverted, w->n);
	rate(&j, "later_fixed", o->fixed, w->n);
	rate(&j, "merge", o->merged, w->n);
	json_obj_end(&j);
	json_key(&j, "merged");
	json_int(&j, (long long)o->merged);
	json_key(&j, "merged_then_reverted");
	json_int(&j, (long long)o->merged_reverted);
	json_key(&j, "merged_without_review");
	json_int(&j, (long long)o->merged_unreviewed);
	json_key(&j, "never_reviewed");
	json_int(&j, (long long)(w->n - o->reviewed));
	json_key(&j, "recent");
	json_arr_begin(&j);
	for (i = 0; i < w->n && i < limit; i++) {
		json_obj_begin(&j);
		out_hit_fields(&j, &w->v[i].hit);
		json_key(&j, "first_review_seconds");
		if (w->v[i].reviewed)
			json_int(&j, w->v[i].first_review);
		else
			json_null(&j);
		json_key(&j, "reverted");
		json_bool(&j, w->v[i].reverted);
		json_key(&j, "fixed_later");
		json_bool(&j, w->v[i].fixed);
		json_key(&j, "merged");
		json_bool(&j, w->v[i].merged);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end_line(&j);
}

static int
cmd_who_exec(struct cli *cli, int argc, char **argv)
{
	enum { O_SINCE = 256, O_FORMAT, O_LIMIT };
	static const struct option opts[] = {
		{ "since", required_argument, NULL, O_SINCE },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = OUT_TEXT;
	struct mlq_query q;
	struct who_stats o;
	struct who w;
	char *since = NULL;
	char *who_arg = NULL, *no_value = NULL;
	int64_t t;
	enum mlq_status rc;
	long long lim;
	size_t limit = WHO_RECENT;
	char *end;
	int c, ret = 0;

	memset(&q, 0, sizeof(q));
	if ((c = cli_check_options(&cmd_who, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_SINCE:
			if (!mlq_date_parse_arg(optarg, (int64_t)time(NULL),
				&t))
				return cli_usage_error(&cmd_who,
				    "who: bad date '%s'", optarg);
			since = optarg;
			break;
		case O_FORMAT:
			if (!out_format_parse(optarg,
				OUT_ALLOW(OUT_TEXT) | OUT_ALLOW(OUT_JSON),
				&fmt))
				return cli_usage_error(&cmd_who,
				    "who: bad format '%s'", optarg);
			break;
		case O_LIMIT:
			lim = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || lim < 0 ||
			    lim > 1000000)
				return cli_usage_error(&cmd_who,
				    "who: bad limit '%s'", optarg);
			limit = (size_t)lim;
			break;
		default:
			return cli_bad_option(&cmd_who);
		}
	}
	if (optind + 1 != argc || argv[optind][0] == '\0')
		return cli_usage_error(&cmd_who,
		    "who: one DOMAIN_OR_ADDR is needed");
	memset(&w, 0, sizeof(w));
	w.st = cli->st;
	if ((w.a = mlq_arena_new()) == NULL) {
		mlq_err_set(&w.err, MLQ_ENOMEM, "out of memory");
		return cli_fail(&w.err);
	}
	who_arg = argv[optind];
	rc = mlq_query_flag(&q, "from", &who_arg, 1, 0, w.a, &w.err);
	if (rc == MLQ_OK && since != NULL)
		rc = mlq_query_flag(&q, "since", &since, 1,
		    (int64_t)time(NULL), w.a, &w.err);
	if (rc == MLQ_OK)
		rc = mlq_query_flag(&q, "patches", &no_value, 1, 0, w.a,
		    &w.err);
	if (rc == MLQ_OK)
		rc = mlq_store_search(cli->st, &q, on_sub, &w, &w.err);
	if (w.oom)
		rc = mlq_err_set(&w.err, MLQ_ENOMEM, "out of memory");
	if (rc == MLQ_NOTFOUND)
		rc = MLQ_OK;
	if (rc == MLQ_OK)
		rc = who_stats(&w, &o);
	if (rc != MLQ_OK)
		ret = cli_fail(&w.err);
	else if (fmt == OUT_JSON)
		who_json(&w, &o, who_arg, since, limit);
	else
		who_text(&w, &o, who_arg, since, limit);
	/* Nothing submitted is an answer, but "nothing found" to scripts. */
	if (ret == 0 && w.n == 0)
		ret = 1;
	mlq_arena_free(w.a);
	return ret;
}

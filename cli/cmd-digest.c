/*
 * mlq digest: the review state of a period, printed or mailed.
 *
 * MLQ_NOW (unix seconds) replaces the clock, for tests of the schedule:
 * `mlq digest --send` without dates runs the daemon's due-digest round.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int cmd_digest_exec(struct cli *, int, char **);

const struct cli_cmd cmd_digest = {
	.name = "digest",
	.usage = "[--since DATE] [--until DATE] [--watch DOMAIN_OR_ADDR]... "
		 "[--list NAME] [--send [--dry-run]] [--format text|json]",
	.summary = "the review state of a period; --send mails it",
	.details =
	    "With no dates: the period --send would mail next, the last one the\n"
	    "[digest] schedule has completed (else the last 7 days).  --send\n"
	    "--dry-run prints the whole mail instead of sending it.\n",
	.flags = CLI_DB_NONE,
	.exec = cmd_digest_exec,
};

#define WEEK (7 * 86400)

static void
json_date(struct out_json *j, bool ok, int64_t t)
{
	char buf[32];

	if (!ok) {
		json_null(j);
		return;
	}
	mlq_date_format_rfc3339(t, buf, sizeof(buf));
	json_str(j, buf);
}

static void
json_msg(struct out_json *j, const struct mlq_digest_msg *m)
{
	json_obj_begin(j);
	json_key(j, "message_id");
	json_str(j, m->msgid);
	json_key(j, "subject");
	json_str(j, m->subject);
	json_key(j, "from");
	json_obj_begin(j);
	json_key(j, "name");
	json_str(j, m->from_name);
	json_key(j, "email");
	json_str(j, m->from_email);
	json_obj_end(j);
	json_key(j, "date");
	json_date(j, m->date_ok, m->date);
	json_key(j, "list");
	json_str(j, m->list);
	json_key(j, "is_patch");
	json_bool(j, m->kind > 0);
	if (m->kind > 0) {
		json_key(j, "status");
		json_str(j, mlq_state_name(m->status));
		json_key(j, "version");
		json_int(j, m->version);
	}
	json_key(j, "link");
	json_str(j, m->link);
}

/* What an item's related messages are, per section. */
static const char *
rel_key(enum mlq_digest_section s)
{
	switch (s) {
	case MLQ_DIGEST_NACKED:
		return "nacks";
	case MLQ_DIGEST_REVERTS:
		return "reverts";
	case MLQ_DIGEST_QUESTIONS:
		return "questions";
	case MLQ_DIGEST_SUPERSEDED:
		return "superseded_by";
	default:
		return NULL;
	}
}

static void
print_json(const struct mlq_digest *d)
{
	struct out_json j;
	const struct mlq_digest_item *it;
	unsigned s;
	size_t i, k;

	json_init(&j, stdout);
	json_obj_begin(&j);
	json_key(&j, "title");
	json_str(&j, d->title);
	json_key(&j, "label");
	json_str(&j, d->label);
	json_key(&j, "since");
	json_date(&j, true, d->since);
	json_key(&j, "until");
	json_date(&j, true, d->until);
	json_key(&j, "list");
	json_str(&j, d->list);
	json_key(&j, "watch");
	json_arr_begin(&j);
	for (i = 0; i < d->nwatch; i++)
		json_str(&j, d->watch[i]);
	json_arr_end(&j);
	json_key(&j, "unreviewed_days");
	json_int(&j, d->unreviewed_days);
	json_key(&j, "lists");
	json_arr_begin(&j);
	for (i = 0; i < d->nlists; i++) {
		json_obj_begin(&j);
		json_key(&j, "list");
		json_str(&j, d->lists[i].list);
		json_key(&j, "submissions");
		json_int(&j, d->lists[i].submissions);
		json_key(&j, "replies");
		json_int(&j, d->lists[i].replies);
		json_key(&j, "nacks");
		json_int(&j, d->lists[i].nacks);
		json_key(&j, "reverts");
		json_int(&j, d->lists[i].reverts);
		json_key(&j, "applied");
		json_int(&j, d->lists[i].applied);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	for (s = 0; s < MLQ_DIGEST_NSECTIONS; s++) {
		json_key(&j, mlq_digest_section_key(s));
		json_arr_begin(&j);
		for (i = 0; i < d->nitems[s]; i++) {
			it = &d->items[s][i];
			json_msg(&j, &it->msg);
			if (it->commit != NULL) {
				json_key(&j, "commit");
				json_obj_begin(&j);
				json_key(&j, "id");
				json_str(&j, it->commit);
				json_key(&j, "repo");
				json_str(&j, it->commit_repo);
				json_key(&j, "ref");
				json_str(&j, it->commit_ref);
				json_key(&j, "date");
				json_date(&j, true, it->commit_date);
				json_obj_end(&j);
			}
			if (rel_key(s) != NULL) {
				json_key(&j, rel_key(s));
				json_arr_begin(&j);
				for (k = 0; k < it->nrel; k++) {
					json_msg(&j, &it->rel[k]);
					json_obj_end(&j);
				}
				json_arr_end(&j);
			}
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_key(&j, "merged");
	json_arr_begin(&j);
	for (i = 0; i < d->nmerged; i++) {
		json_obj_begin(&j);
		json_key(&j, "repo");
		json_str(&j, d->merged[i].repo);
		json_key(&j, "ref");
		json_str(&j, d->merged[i].ref);
		json_key(&j, "commits");
		json_int(&j, d->merged[i].commits);
		json_key(&j, "postings");
		json_int(&j, d->merged[i].postings);
		json_key(&j, "without_review");
		json_int(&j, d->merged[i].unreviewed);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "reviewers");
	json_arr_begin(&j);
	for (i = 0; i < d->nreviewers; i++) {
		json_obj_begin(&j);
		json_key(&j, "name");
		json_str(&j, d->reviewers[i].name);
		json_key(&j, "email");
		json_str(&j, d->reviewers[i].email);
		json_key(&j, "replies");
		json_int(&j, d->reviewers[i].replies);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end_line(&j);
}

static enum mlq_status
load_conf(const struct cli *cli, struct mlq_conf **conf, struct mlq_err *err)
{
	return mlq_conf_load(cli->config_path, conf, err);
}

static enum mlq_status
open_store(const struct cli *cli, bool write, struct mlq_store **st,
    struct mlq_err *err)
{
	struct stat sb;

	if (stat(cli->db_path, &sb) != 0)
		return mlq_err_set(err, MLQ_EIO,
		    "database '%s': %s (import some mail first)", cli->db_path,
		    strerror(errno));
	return mlq_store_open(cli->db_path,
	    write ? MLQ_STORE_WRITE : MLQ_STORE_READ, st, err);
}

/* mlq_smtp_fn of --dry-run: the mail as it would go, on stdout. */
static enum mlq_status
print_mail(const struct mlq_conf *c, const char *mail, size_t len,
    bool *retryable, struct mlq_err *err)
{
	(void)c;
	(void)err;
	*retryable = false;
	fwrite(mail, 1, len, stdout);
	return MLQ_OK;
}

/* The daemon's round: every scheduled period due at 'now' and not sent. */
static int
send_due(struct mlq_store *st, const struct mlq_conf *conf, int64_t now)
{
	struct mlq_digest_state ds;
	struct mlq_err err;
	enum mlq_status rc;
	int64_t due;
	char next[32];

	memset(&ds, 0, sizeof(ds));
	mlq_err_clear(&err);
	rc = mlq_digest_send_due(st, conf, cli_smtp_send, now, &ds, &err);
	if (rc != MLQ_OK) {
		if (ds.label[0] != '\0')
			fprintf(stderr, "mlq: digest for %s not sent\n",
			    ds.label);
		return cli_fail(&err);
	}
	/* When the next one is due, not when mlq would look again. */
	if (!mlq_digest_next(&conf->digest.schedule, now, &due))
		due = ds.next;
	mlq_date_format_rfc3339(due, next, sizeof(next));
	if (ds.sent > 0)
		printf("sent %u digest%s, the last for %s; the next is due %s\n",
		    ds.sent, ds.sent == 1 ? "" : "s", ds.label, next);
	else
		printf("no digest due; the next is due %s\n", next);
	return 0;
}

static int
cmd_digest_exec(struct cli *cli, int argc, char **argv)
{
	enum { O_SINCE = 256, O_UNTIL, O_WATCH, O_LIST, O_SEND, O_FORMAT,
		O_DRY_RUN };
	static const struct option opts[] = {
		{ "since", required_argument, NULL, O_SINCE },
		{ "until", required_argument, NULL, O_UNTIL },
		{ "watch", required_argument, NULL, O_WATCH },
		{ "list", required_argument, NULL, O_LIST },
		{ "send", no_argument, NULL, O_SEND },
		{ "dry-run", no_argument, NULL, O_DRY_RUN },
		{ "format", required_argument, NULL, O_FORMAT },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_digest_opts o;
	struct mlq_conf *conf = NULL;
	struct mlq_store *st = NULL;
	struct mlq_digest *d = NULL;
	struct mlq_err err;
	struct mlq_buf text;
	enum out_format fmt = OUT_TEXT;
	enum mlq_status rc;
	const char **watch = NULL;
	size_t nwatch = 0, argwatch = 0, i;
	int64_t now, t;
	bool has_since = false, has_until = false, send = false, retryable;
	bool dry = false, scheduled = false;
	char msgid[256];
	int c, ret = 0;

	mlq_err_clear(&err);
	memset(&o, 0, sizeof(o));
	if (!cli_now(&now))
		return cli_usage_error(NULL,
		    "digest: MLQ_NOW is not unix seconds");
	o.until = now;
	if ((c = cli_check_options(&cmd_digest, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_SINCE:
		case O_UNTIL:
			if (!mlq_date_parse_arg(optarg, now, &t))
				return cli_usage_error(&cmd_digest,
				    "digest: bad date '%s' (YYYY-MM-DD, 7d, 2w, 3m)",
				    optarg);
			if (c == O_SINCE) {
				has_since = true;
				o.since = t;
			} else {
				has_until = true;
				o.until = t + 86400; /* the day is included */
			}
			break;
		case O_WATCH:
			argwatch++;
			break;
		case O_LIST:
			o.list = optarg;
			break;
		case O_SEND:
			send = true;
			break;
		case O_DRY_RUN:
			dry = true;
			break;
		case O_FORMAT:
			if (!out_format_parse(optarg,
				OUT_ALLOW(OUT_TEXT) | OUT_ALLOW(OUT_JSON),
				&fmt))
				return cli_usage_error(&cmd_digest,
				    "digest: unknown format '%s'", optarg);
			break;
		default:
			return cli_bad_option(&cmd_digest);
		}
	}
	if (optind < argc)
		return cli_usage_error(&cmd_digest, "digest: unexpected '%s'",
		    argv[optind]);
	if (dry && !send)
		return cli_usage_error(&cmd_digest,
		    "digest: --dry-run goes with --send");
	if (!has_since)
		o.since = o.until - WEEK;
	if (o.since >= o.until)
		return cli_usage_error(&cmd_digest,
		    "digest: --since is not before --until");
	if ((rc = load_conf(cli, &conf, &err)) != MLQ_OK)
		return cli_fail(&err);
	/* No dates: the period the schedule mails next (see send_due). */
	if (!has_since && !has_until && argwatch == 0 && o.list == NULL &&
	    mlq_digest_period(&conf->digest.schedule, now, &o.since, &o.until))
		scheduled = true;
	if (send && !dry && !has_since && !has_until &&
	    conf->digest.schedule.kind != MLQ_SCHED_NONE) {
		if (argwatch > 0 || o.list != NULL) {
			mlq_conf_free(conf);
			return cli_usage_error(&cmd_digest,
			    "digest: the scheduled digest takes [digest] watch "
			    "only: give --since or --until with --watch or --list");
		}
		if ((rc = open_store(cli, true, &st, &err)) == MLQ_OK)
			ret = send_due(st, conf, now);
		else
			ret = cli_fail(&err);
		mlq_store_close(st);
		mlq_conf_free(conf);
		return ret;
	}
	/* [digest] watch, then each --watch, in the order given. */
	watch = calloc(conf->digest.nwatch + argwatch + 1, sizeof(*watch));
	if (watch == NULL) {
		mlq_conf_free(conf);
		mlq_err_set(&err, MLQ_ENOMEM, "out of memory");
		return cli_fail(&err);
	}
	for (i = 0; i < conf->digest.nwatch; i++)
		watch[nwatch++] = conf->digest.watch[i];
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		if (c == O_WATCH)
			watch[nwatch++] = optarg;
	o.watch = watch;
	o.nwatch = nwatch;
	o.unreviewed_days = conf->digest.unreviewed_days;
	o.conf = conf;
	rc = open_store(cli, send && !dry, &st, &err);
	if (rc == MLQ_OK)
		rc = mlq_digest_build(st, &o, &d, &err);
	if (rc == MLQ_OK && dry) {
		rc = mlq_digest_send(NULL, conf, print_mail, d, scheduled, now,
		    msgid, sizeof(msgid), &retryable, &err);
	} else if (rc == MLQ_OK && send) {
		rc = mlq_digest_send(st, conf, cli_smtp_send, d, false, now,
		    msgid, sizeof(msgid), &retryable, &err);
		if (rc == MLQ_OK) {
			printf("sent '");
			out_safe(stdout, d->title);
			printf("' as <%s>\n", msgid);
		}
	} else if (rc == MLQ_OK && fmt == OUT_JSON) {
		print_json(d);
	} else if (rc == MLQ_OK) {
		mlq_buf_init(&text);
		mlq_digest_render(d, &text);
		if (text.oom)
			rc = mlq_err_set(&err, MLQ_ENOMEM, "out of memory");
		else
			fwrite(text.data, 1, text.len, stdout);
		mlq_buf_release(&text);
	}
	if (rc != MLQ_OK)
		ret = cli_fail(&err);
	mlq_digest_free(d);
	mlq_store_close(st);
	free(watch);
	mlq_conf_free(conf);
	return ret;
}

/*
 * mlq mark ID (--status S | --tag +T | --tag -T | --clear): a
 * maintainer's correction, recorded with who ([identity] name, else the
 * login name) and when (UTC; MLQ_NOW for tests), that wins over what mlq
 * derives until --clear.  Several --tag may go together, with a --status.
 */
#include "config.h"

#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int cmd_mark_exec(struct cli *, int, char **);

const struct cli_cmd cmd_mark = {
	.name = "mark",
	.usage = "ID (--status S | --tag +T | --tag -T | --clear)",
	.summary = "set a status or tag by hand: it wins over what mlq derives",
	.details = "--tag +T adds tag T, --tag -T takes it away.\n"
		   "statuses: pending questioned reviewed changes-requested superseded\n"
		   "  applied nacked reverted\n"
		   "tags: nack ack reviewed tested question changes-requested applied revert\n"
		   CMD_ID_DETAILS,
	.flags = CLI_DB_WRITE,
	.exec = cmd_mark_exec,
	.conf_needs = "database identity",
};

/* At most a status and each tag once. */
#define MARK_MAX (1 + MLQ_TAG_COUNT)

struct mark_args {
	struct mlq_mark m[MARK_MAX];
	size_t n;
	bool status, clear;
	unsigned given, taken; /* tag bits */
};

/* "pending, questioned, ..." for the message naming a bad status. */
static void
list_states(char *buf, size_t n)
{
	size_t len = 0;
	int s;

	buf[0] = '\0';
	for (s = MLQ_STATE_PENDING; s <= MLQ_STATE_LAST && len < n; s++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
		    s == MLQ_STATE_PENDING ? "" : ", ",
		    mlq_state_name((enum mlq_state)s));
}

static void
list_tags(char *buf, size_t n)
{
	size_t len = 0;
	unsigned bit;

	buf[0] = '\0';
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT) && len < n; bit <<= 1)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
		    bit == 1 ? "" : ", ", mlq_tag_name(bit));
}

static int
mark_status(struct mark_args *a, const char *v)
{
	enum mlq_state s = mlq_state_from_name(v);
	char names[200];

	if (s == MLQ_STATE_NONE) {
		list_states(names, sizeof(names));
		return cli_usage_error(NULL,
		    "mark: unknown status '%s' (one of %s)", v, names);
	}
	if (a->status)
		return cli_usage_error(NULL, "mark: --status given twice");
	a->status = true;
	a->m[a->n].tag = 0;
	a->m[a->n++].status = s;
	return 0;
}

static int
mark_tag(struct mark_args *a, const char *v)
{
	unsigned bit = mlq_tag_from_name(v + (*v == '+' || *v == '-'));
	bool give = *v == '+';
	char names[200];

	if (*v != '+' && *v != '-')
		return cli_usage_error(NULL,
		    "mark: --tag '%s': give a tag with +TAG, take it away "
		    "with -TAG",
		    v);
	if (bit == 0) {
		list_tags(names, sizeof(names));
		return cli_usage_error(NULL,
		    "mark: unknown tag '%s' (one of %s)", v + 1, names);
	}
	if ((give ? a->taken : a->given) & bit)
		return cli_usage_error(NULL,
		    "mark: tag '%s' both given and taken away", v + 1);
	if ((a->given | a->taken) & bit)
		return 0; /* the same twice */
	if (give)
		a->given |= bit;
	else
		a->taken |= bit;
	a->m[a->n].tag = bit;
	a->m[a->n++].removed = !give;
	return 0;
}

/* [identity] name, else the login name; NULL when there is neither. */
static const char *
mark_who(const struct cli *cli)
{
	const struct passwd *pw;
	const char *user;

	if (cli->conf->identity != NULL)
		return cli->conf->identity;
	if ((user = getenv("USER")) != NULL && *user != '\0')
		return user;
	if ((pw = getpwuid(getuid())) != NULL && *pw->pw_name != '\0')
		return pw->pw_name;
	return NULL;
}

static int
print_hit(const struct mlq_hit *h, void *arg)
{
	unsigned bit;

	(void)arg;
	out_safe(stdout, h->msgid);
	if (h->kind > 0)
		printf("  status %s", mlq_state_name(h->status));
	fputs("  tags", stdout);
	for (bit = 1; bit < (1u << MLQ_TAG_COUNT); bit <<= 1)
		if (h->tags & bit)
			printf(" %s", mlq_tag_name(bit));
	fputs(h->tags ? "\n" : " -\n", stdout);
	return 1;
}

static int
cmd_mark_exec(struct cli *cli, int argc, char **argv)
{
	enum { O_STATUS = 1, O_TAG, O_CLEAR };
	static const struct option opts[] = {
		{ "status", required_argument, NULL, O_STATUS },
		{ "tag", required_argument, NULL, O_TAG },
		{ "clear", no_argument, NULL, O_CLEAR },
		{ NULL, 0, NULL, 0 },
	};
	struct mark_args a;
	struct mlq_err err;
	enum mlq_status rc;
	struct mlq_buf id;
	const char *who;
	int64_t now;
	size_t i;
	int c, bad, ret;

	memset(&a, 0, sizeof(a));
	opterr = 0;
	if ((c = cli_check_options(&cmd_mark, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case O_STATUS:
			bad = mark_status(&a, optarg);
			break;
		case O_TAG:
			bad = mark_tag(&a, optarg);
			break;
		case O_CLEAR:
			a.clear = true;
			bad = 0;
			break;
		case ':':
			return cli_usage_error(NULL, "mark: %s needs a value",
			    argv[optind - 1]);
		default:
			return cli_usage_error(NULL,
			    "mark: unknown option '%s'", argv[optind - 1]);
		}
		if (bad)
			return bad;
	}
	if (optind + 1 != argc)
		return cli_usage_error(NULL, "mark: one ID is needed, not %d",
		    argc - optind);
	if (a.clear && a.n > 0)
		return cli_usage_error(NULL,
		    "mark: --clear drops every mark: give it alone");
	if (!a.clear && a.n == 0)
		return cli_usage_error(NULL,
		    "mark: nothing to do: give --status, --tag or --clear");
	if (!cli_now(&now))
		return cli_usage_error(NULL,
		    "mark: MLQ_NOW is not unix seconds");
	if ((who = mark_who(cli)) == NULL)
		return cli_usage_error(NULL,
		    "mark: who is marking? set [identity] name in the config");
	for (i = 0; i < a.n; i++) {
		a.m[i].who = who;
		a.m[i].at = now;
	}
	mlq_buf_init(&id);
	if ((ret = cli_msgid("mark", argv[optind], &id)) != 0) {
		mlq_buf_release(&id);
		return ret;
	}
	mlq_err_clear(&err);
	rc = a.clear ? mlq_store_mark_clear(cli->st, id.data, &err)
		     : mlq_store_mark(cli->st, id.data, a.m, a.n, &err);
	if (rc == MLQ_OK)
		rc = mlq_store_get(cli->st, id.data, print_hit, NULL, &err);
	mlq_buf_release(&id);
	if (rc == MLQ_NOTFOUND)
		return cli_not_found("mark", argv[optind]);
	return rc == MLQ_OK ? 0 : cli_fail(&err);
}

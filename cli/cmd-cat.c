/*
 * mlq cat [--raw] ID...: a stored message to read, its text decoded and
 * made safe for a terminal, or its bytes as stored.  It runs in
 * mlq-ingest, the program that can parse mail.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int cmd_cat_exec(struct cli *, int, char **);

const struct cli_cmd cmd_cat = {
	.name = "cat",
	.usage = CMD_CAT_USAGE,
	.summary = CMD_CAT_SUMMARY,
	.details = CMD_ID_DETAILS,
	.flags = CLI_DB_READ,
	.exec = cmd_cat_exec,
	.conf_needs = "database identity",
};

static int
keep_id(const struct mlq_hit *h, void *arg)
{
	*(int64_t *)arg = h->id;
	return 1;
}

static void
addr_header(const char *name, const struct mlq_msg *m, enum mlq_addr_role r)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < m->naddrs; i++) {
		const struct mlq_addr *a = &m->addrs[i];

		if (a->role != r)
			continue;
		if (*sep == '\0')
			printf("%s: ", name);
		fputs(sep, stdout);
		if (*a->name) {
			out_safe(stdout, a->name);
			fputs(" <", stdout);
		}
		out_safe(stdout, a->email);
		if (*a->name)
			fputc('>', stdout);
		sep = ", ";
	}
	if (*sep != '\0')
		fputc('\n', stdout);
}

static enum mlq_status
cat_one(struct mlq_store *st, int64_t id, bool raw, struct mlq_err *err)
{
	const struct mlq_addr *from;
	struct mlq_msg *m = NULL;
	struct mlq_buf b;
	enum mlq_status rc;

	mlq_buf_init(&b);
	if ((rc = mlq_store_raw(st, id, &b, err)) != MLQ_OK) {
		mlq_buf_release(&b);
		return rc;
	}
	if (raw) {
		/* The stored bytes, but not as escapes for a terminal. */
		if (out_is_terminal(stdout))
			out_safe_lines(stdout, b.data, b.len);
		else
			fwrite(b.data, 1, b.len, stdout);
		mlq_buf_release(&b);
		return MLQ_OK;
	}
	rc = mlq_msg_parse(b.data, b.len, &m, err);
	mlq_buf_release(&b);
	if (rc != MLQ_OK)
		return rc;
	from = &m->from; /* the header From: who posted it */
	fputs("From: ", stdout);
	if (*from->name) {
		out_safe(stdout, from->name);
		fputs(" <", stdout);
	}
	out_safe(stdout, from->email);
	fputs(*from->name ? ">\n" : "\n", stdout);
	addr_header("To", m, MLQ_ROLE_TO);
	addr_header("Cc", m, MLQ_ROLE_CC);
	fputs("Date: ", stdout);
	out_safe(stdout, m->date_raw);
	fputs("\nSubject: ", stdout);
	out_safe(stdout, m->subject);
	fputs("\nMessage-Id: <", stdout);
	out_safe(stdout, m->msgid);
	fputs(">\n\n", stdout);
	out_safe_lines(stdout, m->body, m->body_len);
	mlq_msg_free(m);
	return MLQ_OK;
}

static int
cmd_cat_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_err err;
	struct mlq_buf id;
	enum mlq_status rc = MLQ_OK;
	bool raw = false;
	int64_t row;
	int c, i, ret = 0;

	if ((c = cli_check_options(&cmd_cat, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'r')
			return cli_bad_option(&cmd_cat);
		raw = true;
	}
	if (optind == argc)
		return cli_usage_error(&cmd_cat, "cat: an ID is needed");
	mlq_buf_init(&id);
	for (i = optind; i < argc && ret == 0; i++) {
		if ((ret = cli_msgid("cat", argv[i], &id)) != 0)
			break;
		mlq_err_clear(&err);
		row = 0;
		rc = mlq_store_get(cli->st, id.data, keep_id, &row, &err);
		if (rc == MLQ_NOTFOUND) {
			ret = cli_not_found("cat", argv[i]);
			break;
		}
		if (rc == MLQ_OK) {
			/* Several messages read as an mbox would. */
			if (i > optind && !raw)
				fputc('\n', stdout);
			rc = cat_one(cli->st, row, raw, &err);
		}
		if (rc != MLQ_OK)
			ret = cli_fail(&err);
	}
	mlq_buf_release(&id);
	return ret;
}

/* mlq lists: the lists the database holds, with counts. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static int cmd_lists_exec(struct cli *, int, char **);

const struct cli_cmd cmd_lists = {
	.name = "lists",
	.usage = "",
	.summary = "each list with its message count and newest date",
	.flags = CLI_DB_READ,
	.exec = cmd_lists_exec,
	.conf_needs = "database identity",
};

static int
print_list(const char *name, int64_t count, bool dated, int64_t newest,
    void *arg)
{
	char date[32] = "-";

	(void)arg;
	if (dated) {
		mlq_date_format_rfc3339(newest, date, sizeof(date));
		date[10] = '\0';
	}
	out_safe(stdout, name);
	printf("  %lld  %s\n", (long long)count, date);
	return 0;
}

static int
cmd_lists_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	struct mlq_err err;
	int c;

	if ((c = cli_check_options(&cmd_lists, argc, argv, opts)) != 0)
		return c;
	if (argc > 1)
		return cli_usage_error(&cmd_lists, "lists: takes no arguments");
	mlq_err_clear(&err);
	if (mlq_store_lists(cli->st, print_list, NULL, &err) != MLQ_OK)
		return cli_fail(&err);
	return 0;
}

/* mlq config check: every error of the config file, as mlqd -n gives. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int cmd_config_exec(struct cli *, int, char **);

const struct cli_cmd cmd_config = {
	.name = "config",
	.usage = "check",
	.summary = "check the config file: every error, with file, line and key",
	.flags = CLI_DB_NONE,
	.exec = cmd_config_exec,
	.own_conf = true,
};

static void
report(const char *msg, void *arg)
{
	(void)arg;
	fputs("mlq: ", stderr);
	out_safe(stderr, msg); /* a key or value may hold anything */
	fputc('\n', stderr);
}

/* The trees of [repo] through git: errors counted, UINT_MAX on failure. */
static unsigned
check_repos(const char *path)
{
	struct mlq_conf *c = NULL;
	struct mlq_err err;
	unsigned n;

	mlq_err_clear(&err);
	if (mlq_conf_load(path, &c, &err) != MLQ_OK) {
		cli_fail(&err);
		return UINT_MAX;
	}
	n = mlq_git_check_repos(c, report, NULL);
	mlq_conf_free(c);
	return n;
}

static int
cmd_config_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	struct mlq_err err;
	unsigned nerr = 0;
	int c;

	if ((c = cli_check_options(&cmd_config, argc, argv, opts)) != 0)
		return c;
	if (argc != 2 || strcmp(argv[1], "check") != 0)
		return cli_usage_error(&cmd_config,
		    "config: the one subcommand is 'check'");
	mlq_err_clear(&err);
	if (mlq_conf_check(cli->config_path, report, NULL, &nerr, &err) !=
	    MLQ_OK)
		return cli_fail(&err);
	if (nerr == 0 && (nerr = check_repos(cli->config_path)) == UINT_MAX)
		return 3;
	if (nerr > 0)
		return 2;
	printf("configuration OK\n");
	return 0;
}

/* mlq reindex: re-derive every stored message from its raw bytes. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"

static int cmd_reindex_exec(struct cli *, int, char **);

const struct cli_cmd cmd_reindex = {
	.name = "reindex",
	.usage = CMD_REINDEX_USAGE,
	.summary = CMD_REINDEX_SUMMARY,
	.flags = CLI_DB_NONE, /* mlq_reindex opens and replaces the file */
	.exec = cmd_reindex_exec,
	.conf_needs = "database identity",
};

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmd_reindex_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_reindex_stats rs;
	struct mlq_mailmap *mailmap = NULL;
	struct mlq_err err;
	enum mlq_status rc;
	double t0, secs;
	long jobs = 0;
	char *end;
	int c;

	if ((c = cli_check_options(&cmd_reindex, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		if (c != 'j')
			return cli_bad_option(&cmd_reindex);
		jobs = strtol(optarg, &end, 10);
		if (*optarg == '\0' || *end != '\0' || jobs < 0 || jobs > 256)
			return cli_usage_error(&cmd_reindex,
			    "reindex: bad job count '%s'", optarg);
	}
	if (optind != argc)
		return cli_usage_error(&cmd_reindex, "reindex: no arguments");
	mlq_err_clear(&err);
	if (cli->conf->mailmap != NULL &&
	    mlq_mailmap_load(cli->conf->mailmap, &mailmap, &err) != MLQ_OK)
		return cli_fail(&err);
	t0 = now_seconds();
	rc = mlq_reindex(cli->db_path, (int)jobs, mailmap, &rs, &err);
	mlq_mailmap_free(mailmap);
	if (rc != MLQ_OK)
		return cli_fail(&err);
	secs = now_seconds() - t0;
	if (rs.torn)
		fprintf(stderr, "mlq: reindex: the system went down during an "
		    "import: rebuilt from the mail file%s\n", rs.meta_lost ?
		    "; its sources and digests sent could not be read" : "");
	printf("reindexed %llu messages in %.2f s (%.0f msgs/s)\n",
	    (unsigned long long)rs.stored, secs,
	    secs > 0 ? (double)rs.stored / secs : 0.0);
	return 0;
}

/* mlq status: database size, counts, daemon state. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int cmd_status_exec(struct cli *, int, char **);

const struct cli_cmd cmd_status = {
	.name = "status",
	.usage = "[--format text|json]",
	.summary = "database size, message, patch and thread counts, daemon state",
	.flags = CLI_DB_READ,
	.exec = cmd_status_exec,
	.conf_needs = "database identity daemon",
};

/*
 * mlqd's pid file: [daemon] pidfile, else next to the database.  A pid
 * that is alive means the daemon is running.
 */
static long
daemon_pid(const struct cli *cli)
{
	char path[4096];
	FILE *f;
	long pid = 0;

	if (cli->conf != NULL && cli->conf->pidfile != NULL)
		snprintf(path, sizeof(path), "%s", cli->conf->pidfile);
	else if ((size_t)snprintf(path, sizeof(path), "%s.pid", cli->db_path) >=
	    sizeof(path))
		return 0;
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1 || pid <= 0 ||
	    (kill((pid_t)pid, 0) != 0 && errno != EPERM))
		pid = 0;
	fclose(f);
	return pid;
}

static int
cmd_status_exec(struct cli *cli, int argc, char **argv)
{
	struct mlq_store_counts c;
	struct mlq_err err;
	struct out_json j;
	enum out_format fmt = OUT_TEXT;
	long pid;

	if (argc == 3 && strcmp(argv[1], "--format") == 0) {
		if (!out_format_parse(argv[2], OUT_ALLOW(OUT_TEXT) |
		    OUT_ALLOW(OUT_JSON), &fmt))
			return cli_usage_error(&cmd_status, "status: bad format");
	} else if (argc != 1) {
		return cli_usage_error(&cmd_status, "status: bad arguments");
	}
	mlq_err_clear(&err);
	if (mlq_store_counts(cli->st, &c, &err) != MLQ_OK)
		return cli_fail(&err);
	pid = daemon_pid(cli);
	if (fmt == OUT_JSON) {
		json_init(&j, stdout);
		json_obj_begin(&j);
		json_key(&j, "database");
		json_str(&j, cli->db_path);
		json_key(&j, "bytes");
		json_int(&j, c.db_bytes);
		json_key(&j, "messages");
		json_int(&j, c.messages);
		json_key(&j, "submissions");
		json_int(&j, c.submissions);
		json_key(&j, "threads");
		json_int(&j, c.threads);
		json_key(&j, "missing");
		json_int(&j, c.ghosts);
		json_key(&j, "lists");
		json_int(&j, c.lists);
		json_key(&j, "sources");
		json_int(&j, c.sources);
		json_key(&j, "commits");
		json_int(&j, c.commits);
		json_key(&j, "merged");
		json_int(&j, c.merged);
		json_key(&j, "daemon_pid");
		if (pid)
			json_int(&j, pid);
		else
			json_null(&j);
		json_obj_end(&j);
		json_end_line(&j);
		return 0;
	}
	fputs("database:    ", stdout);
	out_safe(stdout, cli->db_path);
	printf(" (%.1f MB)\n", (double)c.db_bytes / 1e6);
	printf("messages:    %lld\n", (long long)c.messages);
	printf("submissions: %lld\n", (long long)c.submissions);
	printf("threads:     %lld\n", (long long)c.threads);
	printf("missing:     %lld (named by replies, not in the archive)\n",
	    (long long)c.ghosts);
	printf("lists:       %lld\n", (long long)c.lists);
	printf("sources:     %lld\n", (long long)c.sources);
	if (c.commits > 0)
		printf("commits:     %lld (%lld postings merged)\n",
		    (long long)c.commits, (long long)c.merged);
	if (pid)
		printf("daemon:      running (pid %ld)\n", pid);
	else
		printf("daemon:      not running\n");
	return 0;
}

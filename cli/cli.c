/*
 * What mlq and its mlq-ingest helper share: global options, opening the
 * database a command asks for, error lines and exit codes.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

bool
cli_now(int64_t *now)
{
	const char *v = getenv("MLQ_NOW");
	char *end;
	long long t;

	if (v == NULL || *v == '\0') {
		*now = (int64_t)time(NULL);
		return true;
	}
	errno = 0;
	t = strtoll(v, &end, 10);
	if (errno != 0 || *end != '\0' || t < 0)
		return false;
	*now = t;
	return true;
}

int
cli_fail(const struct mlq_err *err)
{
	fputs("mlq: ", stderr);
	out_safe(stderr, err->msg[0] ? err->msg : "unknown error");
	fputc('\n', stderr);
	return mlq_status_exit(err->status);
}

int
cli_not_found(const char *cmd, const char *msgid)
{
	fprintf(stderr, "mlq: %s: no message '", cmd);
	out_safe(stderr, msgid);
	fputs("'\n", stderr);
	return 1;
}

int
cli_msgid(const char *cmd, const char *arg, struct mlq_buf *b)
{
	if (mlq_msgid_arg(arg, b))
		return 0;
	if (b->oom) {
		fprintf(stderr, "mlq: %s: out of memory\n", cmd);
		return 3;
	}
	fprintf(stderr, "mlq: %s: no Message-Id in '", cmd);
	out_safe(stderr, arg);
	fputs("' (give ID, <ID>, id:ID or a public-inbox URL)\n", stderr);
	return 2;
}

int
cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("mlq: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd != NULL)
		fprintf(stderr, "usage: mlq %s %s\n", cmd->name, cmd->usage);
	return 2;
}

static void
usage(FILE *f, const struct cli_cmd *const *commands, size_t ncommands)
{
	size_t i;

	fprintf(f, "usage: mlq [--db PATH] [-c CONFIG] COMMAND [ARGS]\n\n");
	for (i = 0; i < ncommands; i++)
		fprintf(f, "  %-8s %s\n", commands[i]->name,
		    commands[i]->summary);
}

static const struct cli_cmd *
find_cmd(const char *name, const struct cli_cmd *const *commands,
    size_t ncommands)
{
	size_t i;

	for (i = 0; i < ncommands; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* A command's usage and what it does: needs no database and no config. */
static int
cmd_help(const struct cli_cmd *cmd)
{
	printf("usage: mlq %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
	return 0;
}

/* Whether a command's arguments (argv[0] its name) ask for its help. */
static bool
wants_help(int argc, char *const *argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0)
			return true;
	return false;
}

/* Creates the database's directory (and parents) for a first import. */
static void
make_parent_dirs(const char *path)
{
	char dir[4096], *p;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return;
	if ((p = strrchr(dir, '/')) == NULL || p == dir)
		return;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0700);
		*p = '/';
	}
	mkdir(dir, 0700);
}

static int
open_db(struct cli *cli, int flags)
{
	static const enum mlq_store_mode modes[] = {
		[CLI_DB_READ] = MLQ_STORE_READ,
		[CLI_DB_BULK] = MLQ_STORE_BULK,
		[CLI_DB_WRITE] = MLQ_STORE_WRITE,
	};
	struct mlq_err err;
	struct stat sb;

	mlq_err_clear(&err);
	if (flags == CLI_DB_NONE)
		return 0;
	if ((flags == CLI_DB_READ || flags == CLI_DB_WRITE) &&
	    stat(cli->db_path, &sb) != 0) {
		mlq_err_set(&err, MLQ_EIO,
		    "database '%s': %s (import some mail first)", cli->db_path,
		    strerror(errno));
		return cli_fail(&err);
	}
	if (flags == CLI_DB_BULK)
		make_parent_dirs(cli->db_path);
	if (mlq_store_open(cli->db_path, modes[flags], &cli->st, &err) !=
	    MLQ_OK)
		return cli_fail(&err);
	return 0;
}

int
cli_main(int argc, char **argv, const struct cli_cmd *const *commands,
    size_t ncommands)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_err err;
	struct cli cli;
	char *db = NULL;
	const struct cli_cmd *cmd;
	int c, rc;

	memset(&cli, 0, sizeof(cli));
	/* '+': global options stop at the command name. */
	while ((c = getopt_long(argc, argv, "+c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			cli.db_path = optarg;
			break;
		case 'c':
			cli.config_path = optarg;
			break;
		case 'h':
			usage(stdout, commands, ncommands);
			return 0;
		case 'V':
			printf("mlq %s\n", PACKAGE_VERSION);
			return 0;
		default:
			usage(stderr, commands, ncommands);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr, commands, ncommands);
		return 2;
	}
	if (strcmp(argv[optind], "help") == 0) {
		if (optind + 1 == argc) {
			usage(stdout, commands, ncommands);
			return 0;
		}
		if ((cmd = find_cmd(argv[optind + 1], commands, ncommands)) ==
		    NULL)
			return cli_usage_error(NULL,
			    "help: unknown command '%s' (see 'mlq help')",
			    argv[optind + 1]);
		return cmd_help(cmd);
	}
	if ((cmd = find_cmd(argv[optind], commands, ncommands)) == NULL)
		return cli_usage_error(NULL,
		    "unknown command '%s' (see 'mlq help')", argv[optind]);
	if (wants_help(argc - optind, argv + optind))
		return cmd_help(cmd);
	if (cmd->helper != NULL)
		return cli_exec_helper(cmd, argv);
	mlq_err_clear(&err);
	if (mlq_conf_load(cli.config_path, &cli.conf, &err) != MLQ_OK)
		return cli_fail(&err);
	if (mlq_conf_db_path(cli.conf, cli.db_path, &db, &err) != MLQ_OK) {
		mlq_conf_free(cli.conf);
		return cli_fail(&err);
	}
	cli.db_path = db;
	argc -= optind;
	argv += optind;
	optind = 0; /* 0, not 1: glibc then forgets the "+" mode used above */
	if ((rc = open_db(&cli, cmd->flags)) == 0)
		rc = cmd->exec(&cli, argc, argv);
	mlq_store_close(cli.st);
	mlq_conf_free(cli.conf);
	free(db);
	if (fflush(stdout) != 0 && rc == 0) {
		fprintf(stderr, "mlq: write: %s\n", strerror(errno));
		rc = 3;
	}
	return rc;
}

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

int
cli_bad_option(const struct cli_cmd *cmd)
{
	char o[2] = { (char)optopt, '\0' };

	/* getopt's own message is off (opterr): one line, ours. */
	if (optopt > ' ' && optopt < 0x7f)
		return cli_usage_error(cmd, "%s: unknown option '-%s'",
		    cmd->name, o);
	return cli_usage_error(cmd, "%s: bad option", cmd->name);
}

static void
usage(FILE *f, const struct cli_cmd *const *commands, size_t ncommands)
{
	size_t i;

	fprintf(f, "usage: mlq [--db PATH] [-c|--config CONFIG] [-h|--help] "
		   "[--version] COMMAND [ARGS]\n\n");
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
	printf("usage: mlq %s%s%s\n\n%s\n", cmd->name, *cmd->usage ? " " : "",
	    cmd->usage, cmd->summary);
	if (cmd->details != NULL)
		printf("\n%s", cmd->details);
	return 0;
}

const struct option *
cli_long_option(const struct option *opts, const char *arg)
{
	size_t len;

	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	len = strcspn(arg + 2, "=");
	for (; opts->name != NULL; opts++)
		if (strlen(opts->name) == len &&
		    strncmp(opts->name, arg + 2, len) == 0)
			return opts;
	return NULL;
}

int
cli_check_options(const struct cli_cmd *cmd, int argc, char *const *argv,
    const struct option *opts)
{
	const char *names[64], *near;
	size_t n = 0, len;
	int i, k;

	for (k = 0; opts[k].name != NULL && n < 64; k++)
		names[n++] = opts[k].name;
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		if (cli_long_option(opts, argv[i]) != NULL)
			continue;
		len = strcspn(argv[i] + 2, "=");
		{
			char word[64];

			snprintf(word, sizeof(word), "%.*s",
			    (int)(len < 63 ? len : 63), argv[i] + 2);
			near = mlq_nearest(word, names, n);
			fprintf(stderr, "mlq: %s: unknown option '--", cmd->name);
			out_safe(stderr, word);
			if (near != NULL)
				fprintf(stderr, "' (did you mean '--%s'?)\n", near);
			else
				fprintf(stderr, "' (see 'mlq help %s')\n",
				    cmd->name);
		}
		return 2;
	}
	return 0;
}

/*
 * Takes the global options (--db, -c/--config) from among the command's
 * arguments, up to a "--", so that they work after the command too.
 */
static void
global_options_after(struct cli *cli, int *argc, char **argv)
{
	int i, j = 1, end = *argc;

	for (i = 1; i < end; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < end)
				argv[j++] = argv[i++];
			break;
		}
		if ((strcmp(argv[i], "--db") == 0 ||
			strcmp(argv[i], "--config") == 0 ||
			strcmp(argv[i], "-c") == 0) &&
		    i + 1 < end) {
			if (argv[i][2] == 'd')
				cli->db_path = argv[i + 1];
			else
				cli->config_path = argv[i + 1];
			i++;
			continue;
		}
		if (strncmp(argv[i], "--db=", 5) == 0) {
			cli->db_path = argv[i] + 5;
			continue;
		}
		if (strncmp(argv[i], "--config=", 9) == 0) {
			cli->config_path = argv[i] + 9;
			continue;
		}
		argv[j++] = argv[i];
	}
	argv[j] = NULL;
	*argc = j;
}

/* Whether a command's arguments (argv[0] its name) ask for its help. */
static bool
wants_help(int argc, char *const *argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
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

static int cli_run(struct cli *cli, int argc, char **argv,
    const struct cli_cmd *const *commands, size_t ncommands);

int
cli_main(int argc, char **argv, const struct cli_cmd *const *commands,
    size_t ncommands)
{
	struct cli cli;
	int rc;

	memset(&cli, 0, sizeof(cli));
	/* As given, for a helper: the options after the command move. */
	if ((cli.argv = calloc((size_t)argc + 1, sizeof(*cli.argv))) == NULL) {
		fprintf(stderr, "mlq: out of memory\n");
		return 3;
	}
	memcpy(cli.argv, argv, (size_t)argc * sizeof(*argv));
	rc = cli_run(&cli, argc, argv, commands, ncommands);
	free(cli.argv);
	return rc;
}

static int
cli_run(struct cli *clip, int argc, char **argv,
    const struct cli_cmd *const *commands, size_t ncommands)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct mlq_err err;
	struct cli cli = *clip;
	char *db = NULL;
	const struct cli_cmd *cmd;
	int c, rc;

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
	if ((cmd = find_cmd(argv[optind], commands, ncommands)) == NULL) {
		const char *names[32], *near;
		size_t i;

		for (i = 0; i < ncommands && i < 32; i++)
			names[i] = commands[i]->name;
		near = mlq_nearest(argv[optind], names, i);
		if (near != NULL)
			return cli_usage_error(NULL,
			    "unknown command '%s' (did you mean '%s'?)",
			    argv[optind], near);
		return cli_usage_error(NULL,
		    "unknown command '%s' (see 'mlq help')", argv[optind]);
	}
	if (wants_help(argc - optind, argv + optind))
		return cmd_help(cmd);
	if (cmd->helper != NULL)
		return cli_exec_helper(cmd, argv);
	{
		int n = argc - optind;

		global_options_after(&cli, &n, argv + optind);
		argc = optind + n;
	}
	mlq_err_clear(&err);
	if (cmd->own_conf) {
		argc -= optind;
		argv += optind;
		optind = 0;
		return cmd->exec(&cli, argc, argv);
	}
	if (mlq_conf_load(cli.config_path, &cli.conf, &err) != MLQ_OK) {
		struct mlq_err err2;

		mlq_err_clear(&err2);
		if (cmd->conf_needs == NULL || err.status == MLQ_EIO ||
		    err.status == MLQ_ENOMEM ||
		    mlq_conf_load_only(cli.config_path, cmd->conf_needs,
			&cli.conf, &err2) != MLQ_OK)
			return cli_fail(&err);
		fprintf(stderr, "mlq: warning: %s (%s does not need it)\n",
		    err.msg, cmd->name);
	}
	if (mlq_conf_db_path(cli.conf, cli.db_path, &db, &err) != MLQ_OK) {
		mlq_conf_free(cli.conf);
		return cli_fail(&err);
	}
	cli.db_path = db;
	argc -= optind;
	argv += optind;
	optind = 0; /* 0, not 1: glibc then forgets the "+" mode used above */
	opterr = 0; /* commands say it in one line: cli_bad_option */
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

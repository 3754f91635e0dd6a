/*
 * mlq import [--list NAME] SOURCE...: through the same pipeline as mlqd.
 * mlq import --git REPO [RANGE]: a tree's commits, linked to the postings
 * they carry.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static int cmd_import_exec(struct cli *, int, char **);

const struct cli_cmd cmd_import = {
	.name = "import",
	.usage = CMD_IMPORT_USAGE,
	.summary = CMD_IMPORT_SUMMARY,
	.flags = CLI_DB_BULK,
	.exec = cmd_import_exec,
	.conf_needs = "database identity repo",
};

struct import_run {
	struct mlq_ingest *ing;
	bool progress; /* stderr is a terminal */
	double started;
	uint64_t bytes_done, bytes_total;
	uint64_t last_draw;
	uint64_t unread;	    /* messages or files the reader gave up */
	enum mlq_status failed; /* a file was skipped: the exit says so */
};

static double
now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
on_reject(const char *origin, uint64_t pos, const char *why, void *arg)
{
	struct import_run *run = arg;

	if (run->progress)
		fputs("\r\033[K", stderr);
	fputs("mlq: import '", stderr);
	out_safe(stderr, origin);
	fprintf(stderr, "': message %llu: ", (unsigned long long)pos);
	out_safe(stderr, why);
	fputc('\n', stderr);
}

/* One status line, redrawn in place; only ever on a terminal. */
static void
draw_progress(struct import_run *run, const char *path, uint64_t done,
    uint64_t total)
{
	struct mlq_ingest_stats s;
	double el = now_sec() - run->started;

	mlq_ingest_stats(run->ing, &s);
	fputs("\r\033[K", stderr);
	out_safe_width(stderr, path, 30);
	fprintf(stderr, ": %llu messages, %.0f/s",
	    (unsigned long long)s.added, el > 0 ? (double)s.added / el : 0.0);
	if (total > 0)
		fprintf(stderr, ", %.0f%%", 100.0 * (double)done / (double)total);
}

static int
import_one(struct import_run *run, const char *path, const char *list,
    struct mlq_err *err)
{
	struct mlq_reader *r;
	const char *msg;
	size_t len;
	uint64_t pos, done, total;
	enum mlq_status rc;

	if ((rc = mlq_reader_open(path, &r, err)) != MLQ_OK)
		return rc;
	for (;;) {
		struct mlq_err rerr;

		mlq_err_clear(&rerr);
		rc = mlq_reader_next(r, &msg, &len, &pos, &rerr);
		if (rc == MLQ_NOTFOUND) {
			rc = MLQ_OK;
			break;
		}
		if (rc == MLQ_EINPUT) {
			/* One bad message: report it, keep reading. */
			on_reject(path, pos, rerr.msg, run);
			run->unread++;
			continue;
		}
		if (rc == MLQ_EIO) {
			/* A file that cannot be read (the error names it):
			 * the rest of a directory still can. */
			if (run->progress)
				fputs("\r\033[K", stderr);
			fputs("mlq: ", stderr);
			out_safe(stderr, rerr.msg);
			fputs(" (skipped)\n", stderr);
			run->unread++;
			run->failed = MLQ_EIO;
			continue;
		}
		if (rc != MLQ_OK) {
			*err = rerr;
			break;
		}
		if ((rc = mlq_ingest_add(run->ing, msg, len, path, pos, list,
			 err)) != MLQ_OK)
			break;
		if (run->progress && (pos & 255) == 0) {
			mlq_reader_progress(r, &done, &total);
			draw_progress(run, path, done, total);
		}
	}
	mlq_reader_close(r);
	return rc;
}

struct git_run {
	struct mlq_store *st;
	const char *repo, *ref;
	uint64_t seen, added;
	struct mlq_err *err;
};

/* Commits go in by the thousand, each thousand one transaction. */
#define GIT_BATCH 1000

static enum mlq_status
on_commit(const struct mlq_commit *c, void *arg)
{
	struct git_run *g = arg;
	enum mlq_status rc;
	bool is_new;

	if (g->seen > 0 && g->seen % GIT_BATCH == 0 &&
	    ((rc = mlq_store_commit(g->st, g->err)) != MLQ_OK ||
		(rc = mlq_store_begin(g->st, g->err)) != MLQ_OK))
		return rc;
	if ((rc = mlq_store_commit_put(g->st, g->repo, g->ref, c, &is_new,
		 g->err)) != MLQ_OK)
		return rc;
	g->seen++;
	g->added += is_new;
	return MLQ_OK;
}

static int
import_git(struct cli *cli, const char *repo, const char *range)
{
	struct git_run g;
	struct mlq_err err;
	uint64_t linked = 0;
	enum mlq_status rc;
	char *abs;
	size_t i;

	mlq_err_clear(&err);
	memset(&g, 0, sizeof(g));
	g.st = cli->st;
	/* Where the tree is, wherever mlq ran from. */
	if ((abs = realpath(repo, NULL)) == NULL) {
		fputs("mlq: import --git '", stderr);
		out_safe(stderr, repo);
		fprintf(stderr, "': %s\n", strerror(errno));
		return 3;
	}
	/* Named as the config names it, so mlqd goes on from here. */
	g.repo = abs;
	for (i = 0; i < cli->conf->nrepos; i++) {
		char *r = realpath(cli->conf->repos[i].path, NULL);

		if (r != NULL && strcmp(r, abs) == 0)
			g.repo = cli->conf->repos[i].name;
		free(r);
	}
	/* A ref named alone is recorded as holding what it reaches. */
	g.ref = strstr(range, "..") == NULL && strchr(range, '^') == NULL &&
		strchr(range, '~') == NULL ? range : NULL;
	g.err = &err;
	if ((rc = mlq_store_begin(cli->st, &err)) == MLQ_OK &&
	    (rc = mlq_git_log(repo, range, 0, on_commit, &g, &err)) == MLQ_OK &&
	    (rc = mlq_store_link_commits(cli->st, &linked, &err)) == MLQ_OK)
		rc = mlq_store_commit(cli->st, &err);
	free(abs);
	if (rc != MLQ_OK) {
		mlq_store_rollback(cli->st);
		return cli_fail(&err);
	}
	if ((rc = mlq_store_sync(cli->st, &err)) != MLQ_OK)
		return cli_fail(&err);
	printf("imported %llu commits (%llu new); %llu postings linked\n",
	    (unsigned long long)g.seen, (unsigned long long)g.added,
	    (unsigned long long)linked);
	return 0;
}

static int
cmd_import_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", required_argument, NULL, 'l' },
		{ "git", no_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	bool git = false;
	struct mlq_ingest_opts io;
	struct mlq_mailmap *mailmap = NULL;
	struct mlq_ingest_stats s;
	struct import_run run;
	struct mlq_err err, first;
	const char *list = NULL, *env;
	enum mlq_status rc, worst = MLQ_OK;
	uint64_t linked;
	int c, i;

	if ((c = cli_check_options(&cmd_import, argc, argv, opts)) != 0)
		return c;
	while ((c = getopt_long(argc, argv, "l:", opts, NULL)) != -1) {
		if (c == 'g')
			git = true;
		else if (c == 'l')
			list = optarg;
		else
			return cli_bad_option(&cmd_import);
	}
	if (git) {
		if (list != NULL || optind >= argc || argc - optind > 2)
			return cli_usage_error(&cmd_import,
			    "import: --git takes REPO and one RANGE");
		return import_git(cli, argv[optind],
		    optind + 1 < argc ? argv[optind + 1] : "HEAD");
	}
	if (optind >= argc)
		return cli_usage_error(&cmd_import, "import: no SOURCE given");
	memset(&run, 0, sizeof(run));
	memset(&io, 0, sizeof(io));
	io.on_reject = on_reject;
	/* Messages per transaction: a tuning knob, and how the tests make
	 * kill -9 land between many commits. */
	if ((env = getenv("MLQ_IMPORT_BATCH")) != NULL)
		io.batch = (int)strtol(env, NULL, 10);
	io.arg = &run;
	run.progress = isatty(STDERR_FILENO);
	run.started = now_sec();
	mlq_err_clear(&err);
	mlq_err_clear(&first);
	if (cli->conf->mailmap != NULL &&
	    mlq_mailmap_load(cli->conf->mailmap, &mailmap, &err) != MLQ_OK)
		return cli_fail(&err);
	io.mailmap = mailmap;
	if ((rc = mlq_ingest_new(cli->st, &io, &run.ing, &err)) != MLQ_OK) {
		mlq_mailmap_free(mailmap);
		return cli_fail(&err);
	}
	for (i = optind; i < argc; i++) {
		mlq_err_clear(&err);
		rc = import_one(&run, argv[i], list, &err);
		if (rc != MLQ_OK) {
			/* A source that cannot be read stops only itself. */
			if (run.progress)
				fputs("\r\033[K", stderr);
			cli_fail(&err);
			if (worst == MLQ_OK || mlq_status_exit(rc) > mlq_status_exit(worst))
				worst = rc;
			if (rc == MLQ_EDB || rc == MLQ_ENOMEM)
				break;
		}
	}
	mlq_err_clear(&err);
	rc = mlq_ingest_sync(run.ing, NULL, NULL, &err);
	mlq_ingest_stats(run.ing, &s);
	mlq_ingest_free(run.ing);
	mlq_mailmap_free(mailmap);
	/* Postings of commits already read are merged from now on. */
	if (rc == MLQ_OK && (rc = mlq_store_begin(cli->st, &err)) == MLQ_OK) {
		if ((rc = mlq_store_link_commits(cli->st, &linked, &err)) ==
		    MLQ_OK)
			rc = mlq_store_commit(cli->st, &err);
		else
			mlq_store_rollback(cli->st);
	}
	if (rc == MLQ_OK)
		rc = mlq_store_sync(cli->st, &err);
	if (run.progress)
		fputs("\r\033[K", stderr);
	if (rc != MLQ_OK) {
		cli_fail(&err);
		return mlq_status_exit(rc);
	}
	printf("imported %llu new, %llu duplicate, %llu rejected\n",
	    (unsigned long long)s.stored, (unsigned long long)s.dup,
	    (unsigned long long)(s.rejected + run.unread));
	if (worst == MLQ_OK)
		worst = run.failed;
	return mlq_status_exit(worst);
}

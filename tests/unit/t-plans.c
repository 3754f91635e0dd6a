/*
 * The writer's lookups use the indexes meant for them.  SQLite has no
 * statistics on an mlq database, so a new index can quietly become the
 * planner's choice for an old query (it happened: schema 005's first
 * draft turned an author's-title lookup into a scan of all their patches)
 * and nothing but the speed at scale shows it.  This imports our own
 * fixtures, then reads the plan of every statement the writer prepared.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlq-int.h"
#include "mbox-util.h"
#include "tap.h"
#include "tmp-dir.h"

/* A statement, recognised by a piece of its SQL, and its plan. */
struct want {
	const char *sql;
	const char *plan;
	bool seen;
};

static struct want wants[] = {
	{ "FROM msg WHERE msgid = ?", "INDEX sqlite_autoindex_msg_1 (msgid=?)",
	    false },
	{ "kind = 2 AND date BETWEEN",
	    "USING COVERING INDEX msg_series (kind=? "
	    "AND from_email=? AND version=? AND total=? AND date>? AND date<?)",
	    false },
	{ "kind = 1 AND idx > 0 AND date BETWEEN",
	    "USING COVERING INDEX "
	    "msg_series (kind=? AND from_email=? AND version=? AND total=? AND "
	    "date>? AND date<?)",
	    false },
	{ "WHERE norm = ? AND from_email = ? AND kind > 0",
	    "USING COVERING INDEX msg_author_norm (norm=? AND "
	    "from_email=?)",
	    false },
	{ "WHERE norm = ? AND kind > 0",
	    "USING COVERING INDEX msg_author_norm (norm=?)",
	    false },
	{ "FROM ref WHERE norm = ?", "USING COVERING INDEX ref_norm (norm=?)",
	    false },
	{ "FROM ref WHERE ckey = ?", "USING COVERING INDEX ref_ckey (ckey=?)",
	    false },
	/* Marks by the thread's messages, not the thread by every mark. */
	{ "CROSS JOIN mark k", "SEARCH k USING PRIMARY KEY (msgid=?)", false },
	{ "thread = ? AND kind = 2 AND",
	    "USING COVERING INDEX msg_series (kind=? AND from_email=? AND "
	    "version=? AND total=?)",
	    false },
};

static unsigned nplans;

static void
check_plan(const char *sql, const char *plan, void *arg)
{
	size_t i;

	(void)arg;
	nplans++;
	/* A whole-table scan of anything that grows with the archive. */
	ok(strstr(plan, "SCAN ") == NULL ||
		strstr(plan, "SCAN CONSTANT") != NULL,
	    "no table scan: %s -> %s", sql, plan);
	for (i = 0; i < MLQ__ARRAY_SIZE(wants); i++) {
		if (strstr(sql, wants[i].sql) == NULL)
			continue;
		wants[i].seen = true;
		if (!ok(strstr(plan, wants[i].plan) != NULL, "%s: %s",
			wants[i].sql, wants[i].plan))
			diag("plan: %s", plan);
	}
}

static void
import(struct mlq_ingest *ing, const char *path)
{
	struct mlq_reader *r;
	struct mlq_err err;
	const char *msg;
	size_t len;
	uint64_t pos;
	int n = 0;

	mlq_err_clear(&err);
	if (mlq_reader_open(path, &r, &err) != MLQ_OK) {
		ok(0, "open %s: %s", path, err.msg);
		return;
	}
	while (mlq_reader_next(r, &msg, &len, &pos, &err) == MLQ_OK) {
		if (mlq_ingest_add(ing, msg, len, path, pos, NULL, &err) !=
		    MLQ_OK)
			break;
		n++;
	}
	mlq_reader_close(r);
	ok(n > 0, "%s: %d messages", path, n);
}

int
main(void)
{
	static const char *const files[] = {
		"contrib/sample/northfield.mbox",
		"tests/fixtures/digest/linux-nfs.mbox",
		"tests/fixtures/review/cover.mbox",
		"tests/fixtures/review/fixes.mbox",
		"tests/fixtures/review/nested.mbox",
		"tests/fixtures/review/revert-commit.mbox",
		/* git show output: a message with its own commit id */
		"tests/fixtures/review/revert-commit-orig.txt",
		"tests/fixtures/review/superseded.mbox",
		"tests/fixtures/review/unthreaded.mbox",
	};
	const char *src = getenv("top_srcdir");
	struct mlq_ingest_opts opts;
	struct mlq_ingest *ing = NULL;
	struct mlq_store *st = NULL;
	struct mlq_err err;
	char dir[] = "/tmp/t-plans.XXXXXX", path[4200];
	size_t i;

	mlq_err_clear(&err);
	if ((st = tmp_store_open(dir)) == NULL)
		goto out;
	memset(&opts, 0, sizeof(opts));
	opts.workers = 1;
	if (!ok(mlq_ingest_new(st, &opts, &ing, &err) == MLQ_OK, "ingest"))
		goto out;
	for (i = 0; i < MLQ__ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", src ? src : ".",
		    files[i]);
		import(ing, path);
	}
	ok(mlq_ingest_sync(ing, NULL, NULL, &err) == MLQ_OK, "stored: %s",
	    err.msg);
	mlq_ingest_free(ing);
	ok(mlq__store_plans(st, check_plan, NULL, &err) == MLQ_OK, "plans: %s",
	    err.msg);
	/* Nearly all of them: the fixtures reach almost every writer path. */
	ok(nplans >= 38, "the writer prepared %u statements", nplans);
	for (i = 0; i < MLQ__ARRAY_SIZE(wants); i++)
		ok(wants[i].seen, "exercised: %s", wants[i].sql);
out:
	mlq_store_close(st);
	tmp_dir_remove(dir);
	return done_testing();
}

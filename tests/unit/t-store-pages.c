/*
 * The index file's page size and the WAL's limit (lib/store/store.c): a new
 * database gets 4 KiB pages, an existing one keeps its own, and either
 * way the WAL may grow to 128 MiB, counted in that database's pages.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "mlq-int.h"
#include "sql-util.h"
#include "tap.h"
#include "tmp-dir.h"

/* The page size of the database at path, as SQLite reads it; -1 on error. */
static long long
page_size(const char *path)
{
	sqlite3 *db = NULL;
	long long n = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
		n = sql_int(db, "PRAGMA page_size");
	sqlite3_close(db);
	return n;
}

/* Opens path for writing, checks its page size and the writer's WAL
 * limit, and closes it. */
static void
check_open(const char *path, long long want_page, const char *what)
{
	struct mlq_store *st = NULL;
	struct mlq_err err;

	mlq_err_clear(&err);
	if (!ok(mlq_store_open(path, MLQ_STORE_WRITE, &st, &err) == MLQ_OK,
		"%s: opens for writing: %s", what, err.msg))
		return;
	is_int(mlq__store_wal_pages(st), (128 << 20) / want_page,
	    "%s: the WAL may grow to 128 MiB of its pages", what);
	mlq_store_close(st);
	is_int(page_size(path), want_page, "%s: %lld-byte pages", what,
	    want_page);
}

int
main(void)
{
	char dir[] = "/tmp/t-store-pages.XXXXXX", path[64];
	sqlite3 *db = NULL;
	bool made;

	if (!tmp_dir_make(dir))
		return done_testing();
	snprintf(path, sizeof(path), "%s/new.db", dir);
	check_open(path, 4096, "a new database");
	/* Reopened, it keeps what it was made with. */
	check_open(path, 4096, "the same, reopened");

	/* A database made before 4 KiB pages: SQLite fixes the size at
	 * creation, so it keeps 16 KiB until mlq reindex rebuilds it. */
	snprintf(path, sizeof(path), "%s/old.db", dir);
	made = sqlite3_open(path, &db) == SQLITE_OK &&
	    sqlite3_exec(db,
		"PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; "
		/* The size is fixed once a table was made; none is left,
		 * as another program's tables would have it refused. */
		"CREATE TABLE made_before (x); DROP TABLE made_before;",
		NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(db);
	if (ok(made, "a database with 16 KiB pages"))
		check_open(path, 16384, "a 16 KiB database");

	tmp_dir_remove(dir);
	return done_testing();
}

/* Numbered migrations from schema/, each in its own transaction. */
#include "config.h"

#include <stdio.h>

#include "schema-sql.h"
#include "store-int.h"

/* The migration that drops table raw once its mail is in PATH-mail. */
#define MAIL_FILE_VERSION 13

static enum mlq_status
read_version(struct mlq_store *st, int *version, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int step;

	*version = 0;
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) !=
	    SQLITE_OK)
		return mlq__store_fail(st, err, "read schema version");
	if ((step = sqlite3_step(s)) == SQLITE_ROW)
		*version = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (step != SQLITE_ROW)
		return mlq__store_fail(st, err, "read schema version");
	return MLQ_OK;
}

enum mlq_status
mlq__schema_migrate(struct mlq_store *st, struct mlq_err *err)
{
	sqlite3_stmt *s;
	int version = 0;
	enum mlq_status rc;
	size_t i;
	bool moved = false;
	char pragma[64];

	if ((rc = read_version(st, &version, err)) != MLQ_OK)
		return rc;
	/* Tables without a version: somebody else's SQLite database. */
	if (version == 0 && sqlite3_prepare_v2(st->db,
		"SELECT 1 FROM sqlite_master LIMIT 1", -1, &s, NULL) == SQLITE_OK) {
		int step = sqlite3_step(s);

		sqlite3_finalize(s);
		if (step == SQLITE_ROW)
			return mlq_err_set(err, MLQ_EDB,
			    "'%s' is not an mlq database (it is another "
			    "program's SQLite file)",
			    sqlite3_db_filename(st->db, "main"));
	}
	if (version < 0 || (size_t)version > mlq__schema_count)
		return mlq_err_set(err, MLQ_EDB,
		    "'%s' was written by a newer mlq (schema %d; this mlq "
		    "reads up to %zu): upgrade mlq to use it",
		    sqlite3_db_filename(st->db, "main"), version,
		    mlq__schema_count);
	if ((size_t)version < mlq__schema_count && !st->writable)
		return mlq_err_set(err, MLQ_EDB,
		    "database schema version %d is older than this mlq (%zu): "
		    "run 'mlq import' or mlqd once to upgrade it",
		    version, mlq__schema_count);
	for (i = (size_t)version; i < mlq__schema_count; i++) {
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %zu",
		    i + 1);
		/* Two files: SQL alone cannot move the mail (013). */
		if (i + 1 == MAIL_FILE_VERSION &&
		    (rc = mlq__mail_migrate(st, &moved, err)) != MLQ_OK)
			return rc;
		if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
		    SQLITE_OK)
			return mlq__store_fail(st, err, "upgrade the database");
		/* Another mlq opening the same new file may have got here
		 * first: the version read under the write lock decides. */
		if ((rc = read_version(st, &version, err)) != MLQ_OK) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return rc;
		}
		if ((size_t)version > i) {
			sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
			i = (size_t)version - 1;
			continue;
		}
		if (sqlite3_exec(st->db, mlq__schema_migrations[i], NULL, NULL,
			NULL) != SQLITE_OK ||
		    sqlite3_exec(st->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
			mlq_err_set(err, MLQ_EDB, "migration %zu: %s", i + 1,
			    sqlite3_errmsg(st->db));
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return MLQ_EDB;
		}
		if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			return mlq__store_fail(st, err, "commit migration");
	}
	/*
	 * Once: the index without the mail is a fraction of the file.  The
	 * copy VACUUM makes goes to a temporary file, not memory (the 10x
	 * bench index is 800 MB); the store sets its temp_store after this.
	 */
	if (moved && sqlite3_exec(st->db, "VACUUM", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return mlq__store_fail(st, err, "compact the database");
	return MLQ_OK;
}

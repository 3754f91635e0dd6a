#include "config.h"

#include "sql-util.h"
#include "tap.h"

long long
sql_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	long long n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		diag("%s: %s", sql, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	else
		diag("%s: no row: %s", sql, sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return n;
}

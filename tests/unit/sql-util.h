/* Reading a database back in the unit tests, apart from lib/store/store.c. */
#ifndef MLQ_SQL_UTIL_H
#define MLQ_SQL_UTIL_H

#include <sqlite3.h>

/* The first column of the first row sql answers, as an integer; -1 on
 * error or no row, with a diag() saying which. */
long long sql_int(sqlite3 *db, const char *sql);

#endif

/* The schema migrations, compiled in from schema/NNN-*.sql. */
#ifndef MLQ_SCHEMA_SQL_H
#define MLQ_SCHEMA_SQL_H

#include <stddef.h>

extern const char *const mlq__schema_migrations[];
extern const size_t mlq__schema_count;

#endif

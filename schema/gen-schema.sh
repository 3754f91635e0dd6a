#!/bin/sh
# Turns schema/NNN-*.sql into lib/store/schema-sql.c: migration N is the file
# numbered N, applied in order; PRAGMA user_version records the last one.
set -eu
echo '/* Generated from schema/NNN-name.sql by schema/gen-schema.sh; do not edit. */'
echo '#include <stddef.h>'
echo '#include "store/schema-sql.h"'
echo 'const char *const mlq__schema_migrations[] = {'
for f in "$@"; do
	printf '\t/* %s */\n' "$(basename "$f")"
	sed -e 's/--.*$//' -e 's/[[:space:]]*$//' -e '/^$/d' \
	    -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$f"
	printf '\t,\n'
done
echo '};'
echo 'const size_t mlq__schema_count = sizeof(mlq__schema_migrations) / sizeof(mlq__schema_migrations[0]);'

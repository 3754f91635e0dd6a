#!/bin/sh
# mlq runs import and reindex through the mlq-ingest helper, so that no
# query loads libetpan (and the libraries it brings): same arguments,
# same stdin, same exit codes; a missing helper is named.
. "$top_srcdir/tests/lib/test-lib.sh"
SAMPLE="$top_srcdir/contrib/sample/northfield.mbox"

if command -v ldd >/dev/null; then
	is "$(ldd "$MLQ" | grep -c -e libetpan -e libgnutls -e libcurl)" 0 \
	    "mlq loads neither libetpan, GnuTLS nor libcurl"
	is "$(ldd "$top_builddir/cli/mlq-ingest" | grep -c libetpan)" 1 \
	    "mlq-ingest is the one that loads libetpan"
fi

# Without the helper nothing is touched and the error says where it looked.
MLQ_EXEC_PATH=$TMP/nowhere "$MLQ" import "$SAMPLE" >"$TMP/out" 2>"$TMP/err"
is $? 3 "no helper: a runtime failure"
case $(cat "$TMP/err") in
"mlq: import: cannot find mlq-ingest (not in \$MLQ_EXEC_PATH, beside mlq or in /"*"/mlq)")
	ok 0 "and says where it looked" ;;
*) ok 1 "and says where it looked: $(cat "$TMP/err")" ;;
esac
[ ! -e "$MLQ_DB" ]
ok $? "no database was created"

# Global options before the command, and stdin, reach the helper.
"$MLQ" --db "$TMP/other.db" import --list northfield - <"$SAMPLE" >"$TMP/out" 2>"$TMP/err"
is $? 0 "import from stdin through the helper"
is "$(tail -n 1 "$TMP/out")" "imported 7 new, 0 duplicate, 0 rejected" "all seven stored"
is "$("$MLQ" --db "$TMP/other.db" search --list northfield | wc -l)" 7 "in the database --db named, under --list"
[ ! -e "$MLQ_DB" ]
ok $? "and not in the default one"

# Its exit codes and error lines are mlq's.
"$MLQ" import >"$TMP/out" 2>"$TMP/err"
is $? 2 "no source: a usage error"
is "$(cat "$TMP/err")" "mlq: import: no SOURCE given
usage: mlq import [--list NAME] SOURCE... | --git REPO [RANGE]" "said as mlq says it"
"$MLQ" import "$TMP/missing.mbox" >"$TMP/out" 2>"$TMP/err"
is $? 3 "a missing file: a runtime failure"
is "$(cat "$TMP/err")" "mlq: '$TMP/missing.mbox': No such file or directory" "named"
"$MLQ" --db "$TMP/other.db" reindex >"$TMP/out" 2>"$TMP/err"
is $? 0 "reindex through the helper"
is "$("$MLQ" --db "$TMP/other.db" search --list northfield | wc -l)" 7 "the same seven after it"

# Both commands are listed by mlq help, as before.
is "$("$MLQ" help | awk '{ print $1 }' | grep -c -x -e import -e reindex)" 2 \
    "help lists import and reindex"

MLQ_EXEC_PATH=$top_builddir/cli "$MLQ" import "$SAMPLE" >"$TMP/out" 2>&1
is "$(tail -n 1 "$TMP/out")" "imported 7 new, 0 duplicate, 0 rejected" "\$MLQ_EXEC_PATH is where it looks first"

test_done

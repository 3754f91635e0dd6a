#!/bin/sh
# kill -9 of mlq reindex at 20 moments: the database it replaces stays
# whole (integrity_check, every message, the same statuses), nothing is
# left beside it, and a reindex run to its end gives the same history.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
need sqlite3
f="$SHARED/corpus/lists/lak-2019-11-wk1.mbox"

run_ok "import a week of linux-arm-kernel" "$MLQ" import "$f"
history() {
	sqlite3 "$MLQ_DB" "SELECT msgid, kind, status, tags, version FROM msg
	    ORDER BY msgid" | cksum
}
n=$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')
before=$(history)
ls "$TMP" >"$TMP/files"

kill_delays 20 1.0
for delay in $(cat "$TMP/kill-delays"); do
	"$MLQ" reindex >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	ok "$([ "$(sqlite3 "$MLQ_DB" 'PRAGMA integrity_check')" = ok ] &&
	    [ "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')" -eq "$n" ] &&
	    [ "$(history)" = "$before" ]; echo $?)" \
	    "killed after ${delay}s: whole, $n messages, the same history"
done
run_ok "a reindex run to its end" "$MLQ" reindex
is "$(history)" "$before" "gives the same history"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*), count(DISTINCT msgid) FROM msg')" \
    "$n|$n" "every message once"
ls "$TMP" | grep -v -e kill-delays -e after -e files2 >"$TMP/after"
grep -v -e files2 "$TMP/files" >"$TMP/files2"
is "$(cat "$TMP/after")" "$(cat "$TMP/files2")" "nothing left beside the database"
test_done

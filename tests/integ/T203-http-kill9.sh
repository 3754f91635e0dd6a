#!/bin/sh
# kill -9 of mlqd during an HTTP backfill, at several moments, then a
# clean run: exactly the inbox's Message-Ids, none twice.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

NFS="$SHARED/corpus/lists/nfs-2021-04.mbox"
pi_init mlq
pi_add_list mlq "$NFS"
ok $? "inbox from nfs-2021-04.mbox"
pi_msgids "$NFS" >"$TMP/want"
pi_start httpd
ok $? "public-inbox-httpd on 127.0.0.1:$HTTP_PORT"
# From April 1st the backfill's windows start at a day and grow: the
# month arrives in several transactions, each with its cursor.
cat >"$MLQ_CONFIG" <<EOC
[source "nfs"]
url = http://127.0.0.1:$HTTP_PORT/mlq/
since = 2021-04-01
EOC

kill_delays 20 0.8
mlqd_kill9 643 $(cat "$TMP/kill-delays")
run_ok "a clean run" "$MLQD" --once
stored_ids >"$TMP/got"
is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "exactly the inbox's Message-Ids"
is "$("$MLQ" search --format jsonl | wc -l)" 643 "643 messages, once each"

# SIGTERM during a backfill: what arrived is committed, exit 0, and a
# later run completes the set.
export MLQ_DB="$TMP/term.db"
mlqd_start
wait_for 20 sh -c "grep -q 'window of' '$TMP/mlqd.log'"
sleep 0.3
kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM in the middle of a backfill exits 0"
n=$(stored_ids | wc -l)
ok "$([ "$n" -le 643 ]; echo $?)" "$n stored when it stopped"
run_ok "a later run" "$MLQD" --once
is "$(stored_ids)" "$(cat "$TMP/want")" "completes the exact set"

test_done

#!/bin/sh
# mlqd running over HTTP: new mail within one interval, SIGHUP reloads
# (a broken config keeps the old one), SIGTERM exits 0.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"

pi_init mlq
pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml
ok $? "inbox with two messages"
pi_init other
pi_add other "$FIX"/a3.eml
pi_start httpd
ok $? "public-inbox-httpd on 127.0.0.1:$HTTP_PORT"

# mlqd's own config: `mlq` (which refuses a broken one) keeps $MLQ_CONFIG.
CONF="$TMP/mlqd.conf"
cat >"$CONF" <<EOC
[source "mlq"]
url = http://127.0.0.1:$HTTP_PORT/mlq/
interval = 2s
EOC
mlqd_start -c "$CONF"
wait_for 20 has_id question/rds+1@example.net
ok $? "first poll stores the inbox"
is "$("$MLQ" -c /dev/null status | sed -n 's/^daemon: *//p')" "running (pid $MLQD_PID)" \
    "mlq status sees the daemon through its pid file"
"$MLQD" -c "$CONF" --once >"$TMP/second.out" 2>&1
is "$?" 3 "a second mlqd on the same database is refused (exit 3)"
grep -q "another mlqd holds it" "$TMP/second.out"; ok $? "and says why"

# public-inbox-httpd reopens its Xapian index at most every 30 s (as
# measured with 1.9), so new mail becomes searchable that much later:
# mlqd must pick it up within one interval of that.  Two polls go by
# first; then HUP has httpd reopen it at once rather than half a minute
# on, as it would in its own time.
p0=$(grep -c "source 'mlq': poll done" "$TMP/mlqd.log")
live_msg live-1 "$TMP/live1.eml"
pi_add mlq "$TMP/live1.eml"
wait_for 20 sh -c "[ \"\$(grep -c \"source 'mlq': poll done\" '$TMP/mlqd.log')\" -ge $((p0 + 2)) ]"
ok $? "mlqd polls on while the server cannot search the new mail"
kill -HUP "$(cat "$PI/httpd.pid")"
wait_for 10 has_id live-1@example.com
ok $? "mail added while mlqd runs is stored once the server can search it"
is "$(stored_ids | wc -l)" 3 "and nothing twice"

# A broken config on SIGHUP: reported, the old one keeps running.
cp "$CONF" "$TMP/good"
printf '[source "mlq"]\nurl = http://127.0.0.1:%s/mlq/\nintervl = 2s\n' \
    "$HTTP_PORT" >"$CONF"
kill -HUP "$MLQD_PID"
wait_for 10 mlqd_log_has "unknown key 'intervl'; keeping the old configuration"
ok $? "a broken config is reported and refused"
live_msg live-2 "$TMP/live2.eml"
pi_add mlq "$TMP/live2.eml"
# HUP makes httpd reopen its index now: then one interval is the bound.
kill -HUP "$(cat "$PI/httpd.pid")"
wait_for 6 has_id live-2@example.com
ok $? "the old config keeps polling: new mail within one interval"

# A good config on SIGHUP: the new source starts without a restart.
cat "$TMP/good" >"$CONF"
cat >>"$CONF" <<EOC
[source "other"]
url = http://127.0.0.1:$HTTP_PORT/other/
interval = 2s
EOC
kill -HUP "$MLQD_PID"
wait_for 10 has_id daemon-a3@example.de
ok $? "SIGHUP adds a source"
kill -0 "$MLQD_PID"
ok $? "same process"

kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM exits 0"
ok "$(grep -c 'exiting with status 0' "$TMP/mlqd.log" | grep -qx 1; echo $?)" \
    "and says so once"
is "$(stored_ids | wc -l)" 5 "everything stored, once"
is "$(source_field other messages)" 1 "the new source's count"
[ "$(source_field mlq last_poll)" != null ]
ok $? "state recorded for mlq sources"

test_done

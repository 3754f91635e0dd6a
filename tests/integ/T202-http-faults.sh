#!/bin/sh
# The server goes away: mlqd backs off, says so in its log and in
# `mlq sources`; the server comes back: mlqd recovers, nothing lost.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"

pi_init mlq
pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml
pi_start httpd
ok $? "public-inbox-httpd on 127.0.0.1:$HTTP_PORT"
cat >"$MLQ_CONFIG" <<EOC
[source "mlq"]
url = http://127.0.0.1:$HTTP_PORT/mlq/
interval = 1s
EOC
mlqd_start
wait_for 20 has_id question/rds+1@example.net
ok $? "first poll stores the inbox"

pi_stop httpd
wait_for 20 mlqd_log_has "failure 2, backing off 4s"
ok $? "the server stopped: exponential backoff is logged"
err=$(source_field mlq last_error)
case $err in
*"127.0.0.1:$HTTP_PORT/mlq/"*onnect*) ok 0 "mlq sources shows the error: $err" ;;
*) ok 1 "mlq sources shows the error: $err" ;;
esac
[ "$(source_field mlq next_poll)" != null ]
ok $? "and when the next attempt is"

live_msg while-down "$TMP/down.eml"
pi_add mlq "$TMP/down.eml"
pi_start httpd "$HTTP_PORT"
ok $? "the server is back on the same port"
wait_for 40 has_id while-down@example.com
ok $? "mlqd recovers and fetches what arrived meanwhile"
wait_for 10 sh -c "[ \"\$(\"$MLQ\" sources --format json)\" != \"\" ] &&
    \"$MLQ\" sources --format json | grep -q '\"last_error\":null'"
ok $? "the error is cleared after a good poll"
is "$(stored_ids | wc -l)" 3 "nothing lost, nothing twice"
kill -0 "$MLQD_PID"
ok $? "mlqd kept running throughout"

test_done

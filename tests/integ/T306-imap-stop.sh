#!/bin/sh
# A stop ends mlqd even while an IMAP server holds a poll: this one never
# answers the login and sends an untagged line every half second, which
# restarts libetpan's read timeout for ever.  After a grace of 5 s the
# poll's socket is cut, and SIGTERM ends mlqd with status 0.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"
need python3

P=$(free_port)
python3 "$top_srcdir/tests/lib/imap-chatter.py" "$P" "$TMP/chatter.pid" \
    >"$TMP/chatter.log" 2>&1 &
test_on_exit 'test_cleanup_pid "$(cat "$TMP/chatter.pid" 2>/dev/null)"'
wait_for 10 test -s "$TMP/chatter.pid"
ok $? "a server that never answers the login"

printf '[source "chatter"]\nurl = imap://127.0.0.1:%s/inbox.x\ninterval = 1s\n' \
    "$P" >"$MLQ_CONFIG"
mlqd_start
wait_for 20 grep -q "^holding LOGIN" "$TMP/chatter.log"
ok $? "mlqd is connected and waiting on its login"
sleep 1
t0=$(date +%s)
kill -TERM "$MLQD_PID"
wait_for 20 sh -c "! kill -0 $MLQD_PID 2>/dev/null"
ok $? "SIGTERM ends mlqd"
wait "$MLQD_PID"
is "$?" 0 "with status 0"
t=$(($(date +%s) - t0))
ok "$([ "$t" -le 10 ]; echo $?)" "within 10 s (took ${t}s)"
mlqd_log_has "source 'chatter': still busy 5s after the stop; its connection is cut"
ok $? "the log says why it took that long"
test_done

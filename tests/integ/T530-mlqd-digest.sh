#!/bin/sh
# mlqd mails the digest on its schedule, once per period: a restart
# sends nothing twice.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/smtp-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

run_ok "import" "$MLQ" import --list linux-nfs \
    "$top_srcdir/tests/fixtures/digest/linux-nfs.mbox"
smtp_start store
cat >"$MLQ_CONFIG" <<EOC
[digest]
schedule = daily 00:00
to = maint@example.org
from = mlq@example.org
watch = umn.edu
smtp = smtp://127.0.0.1:$SMTP_PORT
smtp-starttls = no
EOC

mlqd_start
wait_for 20 mlqd_log_has "digest: sent 1"
ok $? "mlqd mails the last period's digest at once"
wait_for 10 mlqd_log_has "digest: next look in"
ok $? "and plans the next look"
is "$(smtp_count)" 1 "one mail arrived"
kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM exits 0"

: >"$TMP/mlqd.log"
mlqd_start
wait_for 20 mlqd_log_has "digest: next look in"
ok $? "restarted, mlqd looks again"
is "$(smtp_count)" 1 "and sends nothing twice"
mlqd_log_has "digest: sent"
ok "$((! $?))" "nothing logged as sent"
kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM exits 0"

test_done

#!/bin/sh
# A personal mailbox on dovecot with a password user: the password comes
# from the secrets file (refused unless the user's own and 0600) and
# never reaches the log, an error, mlq sources or the database.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/dovecot.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
dove_start
ok $? "dovecot on 127.0.0.1:$DOVE_PORT"
dove_deliver "$FIX"/a1.eml "$FIX"/a2.eml
pi_msgids "$FIX"/a1.eml "$FIX"/a2.eml >"$TMP/want"

# dovecot.sh's password for maint: distinctive, to grep for.
PW=Pw-s3cr3t.maint
printf 'source.mine.password = %s\n' "$PW" >"$TMP/secrets"
chmod 644 "$TMP/secrets"
cat >"$MLQ_CONFIG" <<EOC
[source "mine"]
url = imap://127.0.0.1:$DOVE_PORT/INBOX
user = maint
interval = 1s
[digest]
secrets = $TMP/secrets
EOC
"$MLQD" -n >"$TMP/out" 2>&1
is "$?" 2 "a 0644 secrets file is refused"
grep -q "mode 0644 lets group or others in" "$TMP/out"
ok $? "saying why"
chmod 600 "$TMP/secrets"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534 "$TMP/secrets"
	"$MLQD" -n >"$TMP/out" 2>&1
	is "$?" 2 "a secrets file owned by another user is refused"
	grep -q "owned by uid 65534, not by this user" "$TMP/out"
	ok $? "saying why"
	chown 0 "$TMP/secrets"
fi

run_ok "mlqd --once as user maint" "$MLQD" --once -vv
cp "$TMP/.err" "$TMP/once.log"
is "$(stored_ids)" "$(cat "$TMP/want")" "the mailbox's messages are stored"
grep -q secret "$TMP/once.log"
ok "$((! $?))" "the password is not in the -vv log"

# A long interval: dovecot offers IDLE, so new mail comes at once.
sed -i 's/^interval = 1s$/interval = 10m/' "$MLQ_CONFIG"
mlqd_start
wait_for 10 mlqd_log_has "source 'mine': up to date"
ok $? "mlqd polled and waits in IDLE"
is "$(source_field mine last_error)" null "mlq sources shows the success"
dove_deliver "$FIX"/a3.eml
wait_for 10 has_id daemon-a3@example.de
ok $? "a new delivery is fetched without waiting for the interval"
is "$(stored_ids | wc -l)" 3 "nothing twice"
kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM exits 0"

printf 'source.mine.password = Pw-wr0ng.maint\n' >"$TMP/secrets"
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "a wrong password fails the poll: exit 3"
grep -q "login as 'maint' refused" "$TMP/out"
ok $? "and says so"
case $(source_field mine last_error) in
*"login as 'maint' refused"*) ok 0 "visible in mlq sources" ;;
*) ok 1 "visible in mlq sources" ;;
esac
grep -qF Pw-wr0ng.maint "$TMP/out"
ok "$((! $?))" "without the password"

# Nowhere a password could leak to: what mlq and mlqd print, the log of
# the daemon run, and the database files.
"$MLQ" sources >"$TMP/leak" 2>&1
"$MLQ" sources --format json >>"$TMP/leak" 2>&1
"$MLQ" config check >>"$TMP/leak" 2>&1
"$MLQD" -n -v >>"$TMP/leak" 2>&1
cat "$TMP/mlqd.log" "$TMP/once.log" "$TMP/out" >>"$TMP/leak"
grep -c . "$TMP/leak" | sed 's/^/# lines checked: /'
for pw in "$PW" Pw-wr0ng.maint; do
	grep -qaF -- "$pw" "$TMP/leak"
	ok "$((! $?))" "'$pw' is in no output or log"
	cat "$MLQ_DB"* | grep -qaF -- "$pw"
	ok "$((! $?))" "'$pw' is not in the database files"
done

test_done

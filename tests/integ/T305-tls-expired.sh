#!/bin/sh
# An expired certificate, trusted otherwise (its CA is the tls-ca): over
# https and over imaps the poll fails with one line that says so, in the
# log and in mlq sources, and nothing is fetched.  With tls-verify = no
# the mail comes, and every connect says the certificate went unchecked.
. "$top_srcdir/tests/lib/test-lib.sh"
need openssl
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
pi_init mlq
pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml

# A certificate for 127.0.0.1 that expired in 2020, from a CA we trust.
E="$TMP/old-cert"
pi_expired_cert "$E" &&
    openssl verify -CAfile "$E/ca.pem" "$E/cert.pem" 2>&1 | grep -q expired
ok $? "an expired certificate made"

HP=$(free_port)
public-inbox-httpd -W0 -D -P "$PI/h.pid" -1 "$PI/h.out" -2 "$PI/h.err" \
    -l "https://127.0.0.1:$HP?cert=$E/cert.pem,key=$E/key.pem"
test_on_exit 'test_cleanup_pid "$(cat "$PI/h.pid")"'
IP=$(free_port)
public-inbox-imapd -W0 -D -P "$PI/i.pid" -1 "$PI/i.out" -2 "$PI/i.err" \
    -l "imaps://127.0.0.1:$IP?cert=$E/cert.pem,key=$E/key.pem"
test_on_exit 'test_cleanup_pid "$(cat "$PI/i.pid")"'
wait_for 20 _pi_wait_port "$HP" && wait_for 20 _pi_wait_port "$IP"
ok $? "public-inbox-httpd (https) and -imapd (imaps) with it"

cat >"$MLQ_CONFIG" <<EOC
[source "web"]
url = https://127.0.0.1:$HP/mlq/
tls-ca = $E/ca.pem
since = 2000-01-01
[source "imap"]
url = imaps://127.0.0.1:$IP/inbox.mlq.test
tls-ca = $E/ca.pem
EOC
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "mlqd --once fails"
is "$(stored_ids | wc -l)" 0 "nothing fetched"
for s in web imap; do
	err=$(source_field "$s" last_error)
	case $err in
	*xpired*) ok 0 "$s: the error says the certificate expired" ;;
	*) ok 1 "$s: the error says the certificate expired"; echo "# $err" ;;
	esac
	is "$(grep -c "source '$s': .*xpired" "$TMP/out")" 1 "$s: one log line"
done
grep -v "^mlqd: " "$TMP/out" | sed 's/^/# stray: /'
is "$(grep -vc "^mlqd: " "$TMP/out")" 0 "nothing outside the log"

# tls-verify = no: fetched, and the log says so at each connect.
sed -i 's/^tls-ca = .*/tls-verify = no/' "$MLQ_CONFIG"
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 0 "tls-verify = no: mlqd --once succeeds"
is "$(stored_ids | wc -l)" 2 "and the mail is fetched"
grep -q "^mlqd: source 'web': tls-verify = no: the server's certificate is not checked" "$TMP/out"
ok $? "https: a warning"
grep -q "^mlqd: 127.0.0.1: tls-verify = no: the server's certificate is not checked" "$TMP/out"
ok $? "imaps: a warning"
"$MLQ" config check >/dev/null
ok $? "tls-verify is a key of [source]"
test_done

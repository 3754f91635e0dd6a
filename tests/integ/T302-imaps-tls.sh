#!/bin/sh
# imaps:// verifies the server's certificate (Debian's libetpan does not,
# so mlqd does): a self-signed one is refused without tls-ca, accepted
# with it, and refused when it names another host.
. "$top_srcdir/tests/lib/test-lib.sh"
need openssl
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
pi_init mlq
pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml
pi_start imapd-tls
ok $? "public-inbox-imapd with TLS on 127.0.0.1:$IMAPS_PORT"

cat >"$MLQ_CONFIG" <<EOC
[source "tls"]
url = imaps://127.0.0.1:$IMAPS_PORT/inbox.mlq.test
EOC
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "without tls-ca the self-signed certificate is refused"
grep -q "TLS certificate not trusted" "$TMP/out"
ok $? "saying why"
is "$(stored_ids | wc -l)" 0 "nothing fetched"

echo "tls-ca = $PI/cert.pem" >>"$MLQ_CONFIG"
run_ok "with tls-ca it is accepted" "$MLQD" --once
is "$(stored_ids | wc -l)" 2 "and the mail fetched"

# A certificate we trust, but for another address.
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.2 \
    -addext subjectAltName=IP:127.0.0.2 -keyout "$PI/k2.pem" \
    -out "$PI/c2.pem" -days 2 >/dev/null 2>&1
P2=$(free_port)
public-inbox-imapd -W0 -D -P "$PI/imapd2.pid" -1 "$PI/imapd2.out" \
    -2 "$PI/imapd2.err" \
    -l "imaps://127.0.0.1:$P2?cert=$PI/c2.pem,key=$PI/k2.pem"
test_on_exit 'test_cleanup_pid "$(cat "$PI/imapd2.pid")"'
wait_for 20 _pi_wait_port "$P2"
cat >"$MLQ_CONFIG" <<EOC
[source "tls"]
url = imaps://127.0.0.1:$P2/inbox.mlq.test
tls-ca = $PI/c2.pem
EOC
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "a trusted certificate for another host is refused"
grep -q "TLS certificate is not for this host name" "$TMP/out"
ok $? "saying why"

# imap:// to a server offering STARTTLS: mlqd upgrades and verifies too.
P3=$(free_port)
public-inbox-imapd -W0 -D -P "$PI/imapd3.pid" -1 "$PI/imapd3.out" \
    -2 "$PI/imapd3.err" \
    -l "imap://127.0.0.1:$P3?cert=$PI/cert.pem,key=$PI/key.pem"
test_on_exit 'test_cleanup_pid "$(cat "$PI/imapd3.pid")"'
wait_for 20 _pi_wait_port "$P3"
export MLQ_DB="$TMP/starttls.db"
printf '[source "st"]\nurl = imap://127.0.0.1:%s/inbox.mlq.test\n' "$P3" \
    >"$MLQ_CONFIG"
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "STARTTLS with an untrusted certificate is refused"
grep -q "TLS certificate not trusted" "$TMP/out"
ok $? "saying why"
echo "tls-ca = $PI/cert.pem" >>"$MLQ_CONFIG"
run_ok "STARTTLS with tls-ca is accepted" "$MLQD" --once
is "$(stored_ids | wc -l)" 2 "and the mail fetched"

# imaps:// to a port that speaks plain IMAP: the handshake fails, and
# the log says so in one line of its own (nothing raw on stderr).
printf '[source "p"]\nurl = imaps://127.0.0.1:%s/inbox.mlq.test\n' "$P3" \
    >"$MLQ_CONFIG"
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "imaps:// to a plain IMAP port fails"
grep -v "^mlqd: " "$TMP/out" | sed 's/^/# stray: /'
is "$(grep -vc "^mlqd: " "$TMP/out")" 0 "every line is mlqd's own"
grep -q "source 'p': 127.0.0.1: TLS handshake failed: .*(does the server speak TLS on this port?)" "$TMP/out"
ok $? "one line naming the cause"

test_done

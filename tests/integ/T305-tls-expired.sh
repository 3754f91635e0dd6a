#!/bin/sh
# An expired certificate, trusted otherwise (it is its own tls-ca): over
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

# A certificate for 127.0.0.1 valid for one day of 2020, by openssl ca
# (req -x509 cannot date one in the past).
E="$TMP/old-cert"
mkdir -p "$E/certs"
: >"$E/index.txt"
echo 1000 >"$E/serial"
cat >"$E/ca.cnf" <<EOC
[ca]
default_ca = d
[d]
dir = $E
database = $E/index.txt
new_certs_dir = $E/certs
serial = $E/serial
default_md = sha256
policy = p
copy_extensions = copy
[p]
commonName = supplied
EOC
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$E/key.pem" \
    -out "$E/req.pem" >/dev/null 2>&1 &&
openssl ca -config "$E/ca.cnf" -selfsign -keyfile "$E/key.pem" \
    -in "$E/req.pem" -startdate 20200101000000Z -enddate 20200102000000Z \
    -batch -out "$E/cert.pem" >/dev/null 2>&1
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
tls-ca = $E/cert.pem
since = 2000-01-01
[source "imap"]
url = imaps://127.0.0.1:$IP/inbox.mlq.test
tls-ca = $E/cert.pem
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

#!/bin/sh
# SMTP failures and TLS: a 5xx is an error naming the server's answer and
# the period stays unsent; a 4xx says it will retry; a bad recipient in
# the config is refused before anything is sent; STARTTLS is required
# unless turned off; certificates are verified; no password is printed.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/smtp-lib.sh"
need openssl sqlite3

export TZ=UTC
MLQ_NOW=$(utc "2021-04-26 09:00")
export MLQ_NOW

# conf URL TO [more lines]
conf() {
	{
		echo "[digest]"
		echo "schedule = weekly mon 08:00"
		echo "to = $2"
		echo "from = mlq@example.org"
		echo "smtp = $1"
		shift 2
		for _l in "$@"; do echo "$_l"; done
	} >"$MLQ_CONFIG"
}
PLAIN="smtp://127.0.0.1:$SMTP_PORT"

run_ok "import" "$MLQ" import --list linux-nfs \
    "$top_srcdir/tests/fixtures/digest/linux-nfs.mbox"

# A bad address in the config: refused at config check, nothing sent.
conf "$PLAIN" "maint@example.org, not-an-address" "smtp-starttls = no"
"$MLQ" digest --send >"$TMP/out" 2>"$TMP/err"
is $? 2 "a bad recipient is bad input"
is "$(cat "$TMP/err")" \
    "mlq: $MLQ_CONFIG:3: [digest]: to: 'not-an-address' is not an email address" \
    "the error names file, line and key"
printf '[digest]\nto = maint@example.org\n' >"$MLQ_CONFIG"
"$MLQ" digest --since 2021-04-19 --send >"$TMP/out" 2>"$TMP/err"
is $? 2 "no smtp configured"
is "$(cat "$TMP/err")" \
    "mlq: $MLQ_CONFIG: [digest]: 'smtp' is not set: needed to mail the digest" \
    "says what is missing"

# 5xx for one recipient: an error with the server's answer, not recorded.
smtp_start reject-bad
conf "$PLAIN" "maint@example.org, bad@example.org" "smtp-starttls = no"
"$MLQ" digest --send >"$TMP/out" 2>"$TMP/err"
is $? 3 "550: runtime failure"
is "$(grep -c "server said '550 5.1.1 <bad@example.org>: Recipient address rejected: no such user'" "$TMP/err")" 1 \
    "the server's answer is named: $(tail -n 1 "$TMP/err")"
is "$(grep -c 'will retry' "$TMP/err")" 0 "a 5xx is not called temporary"
is "$(smtp_count)" 0 "nothing delivered"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM digest_sent")" 0 "nothing recorded"
conf "$PLAIN" "maint@example.org" "smtp-starttls = no"
"$MLQ" digest --send >"$TMP/out" 2>"$TMP/err"
is "$(sed "s/; the next is due .*//" "$TMP/out")" "sent 1 digest, the last for week 2021-W16" \
    "the refused period was not marked sent"
is "$(smtp_count)" 1 "delivered once fixed"
smtp_stop

# 4xx: temporary, said so.
smtp_start tempfail
MLQ_NOW=$(utc "2021-05-03 08:00") "$MLQ" digest --send >"$TMP/out" 2>"$TMP/err"
is $? 3 "451: runtime failure"
is "$(grep -c "server said '451 4.3.0 Mail server temporarily rejected message' (will retry)" "$TMP/err")" 1 \
    "a 4xx is reported as temporary"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM digest_sent")" 1 \
    "only the week that went through is recorded"
smtp_stop

# STARTTLS is required on smtp:// unless turned off.
smtp_start store
conf "$PLAIN" "maint@example.org"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
is $? 3 "no STARTTLS offered: refused"
is "$(grep -c 'offers no STARTTLS' "$TMP/err")" 1 "says why"
is "$(smtp_count)" 1 "nothing sent in clear"
smtp_stop

# TLS with a certificate of our own, trusted only through tls-ca.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" \
    -out "$TMP/cert.pem" -days 2 -subj /CN=127.0.0.1 \
    -addext "subjectAltName=IP:127.0.0.1" >/dev/null 2>&1
ok $? "make a certificate"

smtp_start store --smtpscert "$TMP/cert.pem" --smtpskey "$TMP/key.pem"
conf "smtps://127.0.0.1:$SMTP_PORT" "maint@example.org"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
is $? 3 "smtps: an unknown certificate is refused"
is "$(smtp_count)" 1 "nothing sent: $(tail -n 1 "$TMP/err")"
grep -q "^mlq: smtp 'smtps://127.0.0.1:$SMTP_PORT': TLS certificate not trusted: .*issuer is unknown" "$TMP/err"
ok $? "the error names the cause, in one line"
conf "smtps://127.0.0.1:$SMTP_PORT" "maint@example.org" "tls-ca = $TMP/cert.pem"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
ok $? "smtps with tls-ca: sent"
is "$(smtp_count)" 2 "delivered over smtps"
smtp_stop

smtp_start store --tlscert "$TMP/cert.pem" --tlskey "$TMP/key.pem"
conf "$PLAIN" "maint@example.org" "tls-ca = $TMP/cert.pem"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
ok $? "STARTTLS with tls-ca: sent"
is "$(smtp_count)" 3 "delivered after STARTTLS"

smtp_stop

# AUTH after STARTTLS with the password from the secrets file; a refused
# login is an error that never shows the password.
smtp_start auth:maint:s3cret-PW --tlscert "$TMP/cert.pem" --tlskey "$TMP/key.pem"
mkdir -p "$TMP/sec"
printf '# mlq secrets\nsmtp-password = wrong-PW\n' >"$TMP/sec/secrets"
chmod 600 "$TMP/sec/secrets"
conf "$PLAIN" "maint@example.org" "tls-ca = $TMP/cert.pem" \
    "smtp-user = maint" "secrets = $TMP/sec/secrets"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
is $? 3 "login refused: runtime failure"
is "$(grep -c 535 "$TMP/err")" 1 "the server's 535 is named: $(tail -n 1 "$TMP/err")"
B64=$(printf '\000maint\000wrong-PW' | base64)
is "$(cat "$TMP/out" "$TMP/err" | grep -c -e wrong-PW -e "$B64" -e "$(printf wrong-PW | base64)")" 0 \
    "the password appears nowhere"
is "$(smtp_count)" 3 "nothing sent without a login"
printf '# mlq secrets\nsmtp-password = s3cret-PW\n' >"$TMP/sec/secrets"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
ok $? "the right password logs in: sent"
is "$(smtp_count)" 4 "delivered after AUTH"
is "$(cat "$TMP/out" "$TMP/err" | grep -c s3cret)" 0 "and the password is not printed"
conf "smtp://mail.example.org" "maint@example.org" "smtp-starttls = no" \
    "smtp-user = maint" "secrets = $TMP/sec/secrets"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
is $? 2 "a password in clear to another host is refused"
is "$(cat "$TMP/err")" "mlq: digest: smtp-user with smtp-starttls = no would send the password in clear: use smtps:// or STARTTLS" \
    "says why, before connecting"
chmod 644 "$TMP/sec/secrets"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
is $? 2 "a readable secrets file is refused"
is "$(smtp_count)" 4 "nothing sent"

# mlq mails through the mlq-smtp helper: it never loads libcurl itself
# (the libraries cost every command 4 ms), and a missing helper is named.
if command -v ldd >/dev/null; then
	is "$(ldd "$MLQ" | grep -c libcurl)" 0 "mlq does not link libcurl"
fi
conf "$PLAIN" "maint@example.org" "smtp-starttls = no"
MLQ_EXEC_PATH=$TMP/nowhere "$MLQ" digest --since 2021-04-19 --until 2021-04-25 \
    --send >"$TMP/out" 2>"$TMP/err"
is $? 3 "no helper: a runtime failure"
case $(cat "$TMP/err") in
"mlq: digest: cannot find mlq-smtp (not in \$MLQ_EXEC_PATH, beside mlq or in /"*"/mlq)")
	ok 0 "and says where it looked" ;;
*) ok 1 "and says where it looked: $(cat "$TMP/err")" ;;
esac
is "$(smtp_count)" 4 "nothing sent"

# tls-verify = no: an unknown certificate goes, with a warning each time.
smtp_stop
smtp_start store --smtpscert "$TMP/cert.pem" --smtpskey "$TMP/key.pem"
conf "smtps://127.0.0.1:$SMTP_PORT" "maint@example.org" "tls-verify = no"
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
ok $? "smtps with tls-verify = no: sent"
is "$(cat "$TMP/err")" "mlq: warning: [digest] tls-verify = no: the mail server's certificate is not checked" \
    "with a warning"
is "$(smtp_count)" 5 "delivered"
smtp_stop

test_done

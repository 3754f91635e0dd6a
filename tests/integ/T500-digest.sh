#!/bin/sh
# mlq digest: a fixture week, printed, as JSON, and mailed to a real SMTP
# server on 127.0.0.1; the received mail is parsed and checked exactly.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/smtp-lib.sh"

FIX="$top_srcdir/tests/fixtures/digest"
export TZ=UTC
MLQ_NOW=$(utc "2021-04-26 09:00")
export MLQ_NOW
PY=/usr/bin/python3

cat >"$MLQ_CONFIG" <<EOC
[source "linux-nfs"]
url = https://lore.kernel.org/linux-nfs/
[digest]
to = maint@example.org, other@example.org
from = mlq@example.org
watch = umn.edu
smtp = smtp://127.0.0.1:$SMTP_PORT
smtp-starttls = no
EOC

run_ok "import linux-nfs" "$MLQ" import --list linux-nfs "$FIX/linux-nfs.mbox"
run_ok "import netdev" "$MLQ" import --list netdev "$FIX/netdev.mbox"

# The expected text with each {status:MSGID} replaced by the status the
# store gives that submission now (statuses are another module's work).
expected() {
	"$PY" - "$MLQ" "$1" <<'EOP'
import json, re, subprocess, sys
mlq, path = sys.argv[1], sys.argv[2]
def status(m):
    out = subprocess.run([mlq, "show", "--format", "json", m.group(1)],
        check=True, capture_output=True).stdout
    return json.loads(out)["status"]
sys.stdout.write(re.sub(r"\{status:([^}]+)\}", status, open(path).read()))
EOP
}
expected "$FIX/week16.expect" >"$TMP/want.txt"

"$MLQ" digest --since 2021-04-19 --until 2021-04-25 >"$TMP/text.txt" 2>"$TMP/err"
ok $? "digest prints the week"
is "$(cat "$TMP/text.txt")" "$(cat "$TMP/want.txt")" "printed digest, every section exact"
is "$(awk 'length($0) > 72 && NF > 1' "$TMP/text.txt" | wc -l | tr -d ' ')" 0 \
    "printed lines fit 72 columns (a lone link may not)"
is "$(grep -c "$(printf '\033')" "$TMP/text.txt")" 0 "no escape byte reaches the output"

smtp_start store
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --send >"$TMP/out" 2>"$TMP/err"
ok $? "digest --send exits 0"
sed 's/^/# /' "$TMP/err"
is "$(sed 's/<[^>]*>/<ID>/' "$TMP/out")" "sent 'mlq digest: linux-nfs, netdev, week 2021-W16' as <ID>" \
    "--send says what it sent"
is "$(smtp_count)" 1 "one mail reached the server"
MAIL=$(find "$MAILDIR/new" -type f | head -n 1)
"$PY" "$top_srcdir/tests/lib/mailparse.py" "$MAIL" >"$TMP/parsed"
sed '/^--$/q' "$TMP/parsed" >"$TMP/headers"
sed '1,/^--$/d' "$TMP/parsed" >"$TMP/body.txt"
field() { sed -n "s/^$1=//p" "$TMP/headers"; }
is "$(field from)" "mlq@example.org" "From header"
is "$(field to)" "maint@example.org, other@example.org" "To header names both recipients"
is "$(field rcpt)" "maint@example.org, other@example.org" "the envelope reached both"
is "$(field subject)" "mlq digest: linux-nfs, netdev, week 2021-W16" "Subject header"
is "$(field date_ok)" 1 "Date header parses"
is "$(field msgid_ok)" 1 "Message-Id is <mlq-digest.HEX@domain>"
is "$(field mime)" "1.0" "MIME-Version"
is "$(field type)" "text/plain; charset=utf-8" "Content-Type text/plain UTF-8"
is "$(field cte)" "quoted-printable" "Content-Transfer-Encoding"
is "$(field raw_8bit)" 0 "the mail as sent is 7-bit"
ok "$([ "$(field raw_max)" -le 78 ]; echo $?)" "raw lines are short ($(field raw_max) bytes)"
is "$(field over72)" 0 "decoded lines fit 72 columns (a lone link may not)"
is "$(cat "$TMP/body.txt")" "$(cat "$TMP/want.txt")" "mailed digest, every section exact"

# JSON: one list, with Message-Id links (no http source for netdev).
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --list netdev \
    --format json >"$TMP/json" 2>"$TMP/err"
ok $? "digest --format json"
is "$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["title"])
print(d["since"], d["until"])
print(d["lists"])
print([(i["message_id"], i["link"], i["from"]["email"]) for i in d["watched"]])
print([(i["message_id"], [n["from"]["email"] for n in i["nacks"]]) for i in d["nacked"]])
print([d[k] for k in ("reverts", "questions", "unreviewed", "superseded")])
print([(r["email"], r["replies"]) for r in d["reviewers"]])
' "$TMP/json")" "mlq digest: netdev, week 2021-W16
2021-04-19T00:00:00Z 2021-04-26T00:00:00Z
[{'list': 'netdev', 'submissions': 1, 'replies': 1, 'nacks': 1, 'reverts': 0, 'applied': 0}]
[('20210422-tcp@umn.edu', '<20210422-tcp@umn.edu>', 'zed@umn.edu')]
[('20210422-tcp@umn.edu', ['davem@davemloft.net'])]
[[], [], [], []]
[('davem@davemloft.net', 1)]" "JSON of one list"

# --watch adds to the config's watch list.
"$MLQ" digest --since 2021-04-19 --until 2021-04-25 --list linux-nfs \
    --watch bob@example.com --format json >"$TMP/json" 2>"$TMP/err"
is "$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["watch"])
print([i["message_id"] for i in d["watched"]])
' "$TMP/json")" "['umn.edu', 'bob@example.com']
['20210419-answered@example.com', '20210420100000.12345-1-jane.doe.with.a.long.name@cs.umn.edu', '20210421-trace@example.com', '20210423-cleanup-v2@cs.umn.edu', '20210424-series-0@umn.edu']" \
    "--watch adds an address"

# An empty period says so.
is "$("$MLQ" digest --since 2020-01-01 --until 2020-01-02 | tail -n 1)" \
    "No mail in this period." "an empty period"
"$MLQ" digest --format mbox >/dev/null 2>&1
is $? 2 "a bad format is a usage error"

# Every posting of a version links to the older ones (a RESEND too), but
# a superseded submission names each newer version once, by its first
# posting: v1 of resent.mbox by v2 and v3, not by their RESENDs.
MLQ_DB="$TMP/resent.db" # from here on
run_ok "import resent.mbox" \
    "$MLQ" import "$top_srcdir/tests/fixtures/review/resent.mbox"
"$MLQ" digest --since 2021-03-01 --until 2021-04-30 --format json \
    >"$TMP/resent.json"
is "$("$PY" -c '
import json, sys
for i in json.load(open(sys.argv[1]))["superseded"]:
    print(i["message_id"], [s["message_id"] for s in i["superseded_by"]])
' "$TMP/resent.json")" "rs-v1@example.net ['rs-v2@example.net', 'rs-v3@example.net']
rs-v2@example.net ['rs-v3@example.net']
rs-resend@example.net ['rs-v3@example.net']" "newer versions once each, RESENDs aside"

test_done

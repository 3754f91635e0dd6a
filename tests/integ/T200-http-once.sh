#!/bin/sh
# mlqd --once over HTTP stores exactly the inbox's Message-Ids, once.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
NFS="$SHARED/corpus/lists/nfs-2021-04.mbox"

pi_init mlq
pi_add_list mlq "$NFS" &&
    pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml
ok $? "inbox filled from nfs-2021-04.mbox and our fixtures"
pi_msgids "$NFS" "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml >"$TMP/want"
is "$(wc -l <"$TMP/want")" 646 "646 Message-Ids put in"
pi_start httpd
ok $? "public-inbox-httpd on 127.0.0.1:$HTTP_PORT"

cat >"$MLQ_CONFIG" <<EOC
[source "mlq"]
url = http://127.0.0.1:$HTTP_PORT/mlq   ; no trailing slash on purpose
interval = 1m
EOC
run_ok "mlqd -n accepts the config" "$MLQD" -n
is "$(cat "$TMP/.out")" "configuration OK" "and says so"

run_ok "mlqd --once" "$MLQD" --once
stored_ids >"$TMP/got"
is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "exactly the inbox's Message-Ids"
is "$(source_field mlq cursor | cut -c1-3)" "rt:" "cursor is a received time"
is "$(source_field mlq last_error)" null "no error recorded"
is "$(source_field mlq next_poll)" null "--once plans no next poll"
is "$(source_field mlq messages)" 646 "all counted for the source"
is "$("$MLQ" search --list mlq --format jsonl | wc -l)" 646 \
    "stored under the source's list name"

run_ok "a second --once" "$MLQD" --once
is "$(stored_ids | wc -l)" 646 "adds nothing"

# since: only what the inbox received from that day on.
cat >"$MLQ_CONFIG" <<EOC
[source "late"]
url = http://127.0.0.1:$HTTP_PORT/mlq/
since = 2021-04-20
EOC
export MLQ_DB="$TMP/since.db"
run_ok "--once with since" "$MLQD" --once
since=$(perl -e 'use Time::Local; print timegm(0,0,0,20,3,2021)')
curl -s -X POST "http://127.0.0.1:$HTTP_PORT/mlq/?q=rt:$since..&x=m" |
    gzip -dc | pi_msgids - >"$TMP/want-since"
stored_ids >"$TMP/got-since"
ok "$([ -s "$TMP/want-since" ] && [ "$(wc -l <"$TMP/want-since")" -lt 646 ]; echo $?)" \
    "the server has a smaller set since 2021-04-20"
is "$(cat "$TMP/got-since")" "$(cat "$TMP/want-since")" \
    "since: exactly the server's set"
export MLQ_DB="$TMP/mlq.db"

# A url naming no inbox is an error, not an empty search.
printf '[source "wrong"]\nurl = http://127.0.0.1:%s/nosuchinbox/\n' \
    "$HTTP_PORT" >"$TMP/wrong"
MLQ_DB="$TMP/wrong.db" "$MLQD" -c "$TMP/wrong" --once >"$TMP/out" 2>&1
is "$?" 3 "a url naming no inbox fails the poll: exit 3"
grep -q "nosuchinbox/: HTTP 404" "$TMP/out"
ok $? "with the HTTP status"

# A broken config is refused with its line and key, exit 2.
printf '[source "x"]\nurl = http://127.0.0.1:1/x/\nintervl = 5m\n' >"$TMP/bad"
"$MLQD" -n -c "$TMP/bad" >"$TMP/out" 2>"$TMP/err"
is "$?" 2 "mlqd -n on a broken config exits 2"
is "$(cat "$TMP/err")" "mlqd: $TMP/bad:3: [source \"x\"]: unknown key 'intervl'" \
    "naming file, line and key"
"$MLQD" -c "$TMP/nonexistent" --once >/dev/null 2>&1
is "$?" 2 "a missing -c file is an error"
"$MLQD" --bogus >/dev/null 2>"$TMP/err"
is "$?" 2 "a bad option exits 2"
grep -q '^usage: mlqd \[-c CONFIG\] \[--db PATH\] \[-f|--foreground\] \[--once\] \[-n\] \[-v...\]$' "$TMP/err"
ok $? "with the usage line"

test_done

#!/bin/sh
# An inbox without search (HTTP 501): new.atom and MSGID/raw instead,
# with one warning that gaps are possible.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
pi_init basic basic
pi_add basic "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml
ok $? "an inbox without Xapian"
pi_start httpd
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST \
    "http://127.0.0.1:$HTTP_PORT/basic/?q=rt:..&x=m")
is "$code" 501 "it answers search with 501"
cat >"$MLQ_CONFIG" <<EOC
[source "basic"]
url = http://127.0.0.1:$HTTP_PORT/basic/
EOC
"$MLQD" --once >"$TMP/mlqd.log" 2>&1
is "$?" 0 "mlqd --once succeeds"
pi_msgids "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml >"$TMP/want"
is "$(stored_ids)" "$(cat "$TMP/want")" "every message of new.atom is stored"
is "$(grep -c 'no search (HTTP 501)' "$TMP/mlqd.log")" 1 "one warning"
is "$(source_field basic cursor | cut -c1-5)" "atom:" "the cursor is the feed's time"
"$MLQD" --once >"$TMP/mlqd2.log" 2>&1
is "$?" 0 "a second run succeeds"
is "$(stored_ids | wc -l)" 3 "and adds nothing"

test_done

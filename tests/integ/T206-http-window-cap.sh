#!/bin/sh
# A backfill from the beginning of time: windows double through the empty
# years, and the one that reaches the archive is counted on the search
# page and cut down before it is fetched, so that no request brings more
# than the cap (MLQ_HTTP_WINDOW_CAP, 4000 by default; 100 here).
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

NFS="$SHARED/corpus/lists/nfs-2021-04.mbox"
pi_init mlq
pi_add_list mlq "$NFS"
ok $? "inbox from nfs-2021-04.mbox"
pi_msgids "$NFS" >"$TMP/want"
pi_start httpd
ok $? "public-inbox-httpd on 127.0.0.1:$HTTP_PORT"
cat >"$MLQ_CONFIG" <<EOC
[source "nfs"]
url = http://127.0.0.1:$HTTP_PORT/mlq/
since = all
EOC

MLQ_HTTP_WINDOW_CAP=100 "$MLQD" --once -vv >"$TMP/log" 2>&1
is "$?" 0 "mlqd --once from the beginning of time"
stored_ids >"$TMP/got"
is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "exactly the inbox's Message-Ids"
# Each window's fetch says how many it brought.
sed -n 's/.*: window of [0-9]*s: \([0-9]*\) messages$/\1/p' "$TMP/log" \
    >"$TMP/sizes"
echo "# windows fetched: $(wc -l <"$TMP/sizes"), largest: $(sort -n "$TMP/sizes" | tail -1)"
ok "$([ "$(sort -n "$TMP/sizes" | tail -1)" -le 100 ]; echo $?)" \
    "no request brought more than the cap"
ok "$([ "$(wc -l <"$TMP/sizes")" -le 60 ]; echo $?)" \
    "in a bounded number of requests"
grep -q "messages in the window; asking for" "$TMP/log"
ok $? "the window that reached the archive was counted and cut down"
# The cursor is the inbox's received time, and mlq sources says so.
case $("$MLQ" sources) in
*"received to:  20"*) ok 0 "mlq sources shows the received time reached" ;;
*) ok 1 "mlq sources shows the received time reached" ;;
esac
is "$(source_field nfs received_until | cut -c1-2)" 20 "and in json"
test_done

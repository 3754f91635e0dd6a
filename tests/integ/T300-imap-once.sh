#!/bin/sh
# mlqd --once over IMAP (public-inbox-imapd) stores exactly the inbox's
# Message-Ids; new mail is fetched by UID; a UIDVALIDITY change resyncs
# without duplicates.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
NFS="$SHARED/corpus/lists/nfs-2021-04.mbox"

pi_init mlq
pi_add_list mlq "$NFS" &&
    pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml
ok $? "inbox filled"
pi_msgids "$NFS" "$FIX"/a1.eml "$FIX"/a2.eml "$FIX"/a3.eml >"$TMP/want"
pi_imap_source mlq mlq
run_ok "mlqd --once" "$MLQD" --once
stored_ids >"$TMP/got"
is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "exactly the inbox's Message-Ids"
cursor=$(source_field mlq cursor)
case $cursor in
"uidvalidity="[0-9]*" uid=646") ok 0 "cursor: $cursor" ;;
*) ok 1 "cursor: $cursor" ;;
esac
is "$(source_field mlq kind)" imap "kind imap"
is "$(source_field mlq messages)" 646 "all counted"

live_msg imap-new "$TMP/new.eml"
pi_add mlq "$TMP/new.eml"
run_ok "--once again" "$MLQD" --once
is "$(stored_ids | wc -l)" 647 "only the new message is added"
has_id imap-new@example.com
ok $? "by its UID"
is "$(source_field mlq cursor | sed 's/.* //')" uid=647 "cursor moved on"

# A mailbox named in full works too, on another database.
export MLQ_DB="$TMP/full.db"
sed -i 's,inbox.mlq.test$,INBOX.mlq.test.0,' "$MLQ_CONFIG"
run_ok "a slice named in full" "$MLQD" --once
is "$(stored_ids | wc -l)" 647 "the same set"
export MLQ_DB="$TMP/mlq.db"
sed -i 's,INBOX.mlq.test.0$,inbox.mlq.test,' "$MLQ_CONFIG"

# Running with a long interval: public-inbox-imapd's IDLE brings new
# mail at once.
mlqd_start
wait_for 20 mlqd_log_has "source 'mlq': up to date"
ok $? "mlqd caught up and waits in IDLE"
live_msg imap-idle "$TMP/idle.eml"
pi_add mlq "$TMP/idle.eml"
wait_for 20 has_id imap-idle@example.com
ok $? "new mail arrives through IDLE, long before the interval"
kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM ends the IDLE wait and exits 0"

# since: the first backfill starts at the first UID received that day.
export MLQ_DB="$TMP/since.db"
cat >"$TMP/since.conf" <<EOC
[source "late"]
url = imap://127.0.0.1:$IMAP_PORT/inbox.mlq.test
since = 2021-04-20
EOC
run_ok "--once with since" "$MLQD" -c "$TMP/since.conf" --once
n=$(stored_ids | wc -l)
ok "$([ "$n" -gt 0 ] && [ "$n" -lt 647 ]; echo $?)" "only part of the inbox: $n"
has_id imap-new@example.com
ok $? "including the newest"
export MLQ_DB="$TMP/mlq.db"

# Re-creating the inbox changes UIDVALIDITY: resync by Message-Id.
pi_stop imapd
rm -rf "$PI/inboxes/mlq"
git config -f "$PI_CONFIG" --remove-section publicinbox.mlq
sleep 1 # UIDVALIDITY is the creation time in seconds
pi_init mlq
live_msg after-resync "$TMP/resync.eml"
pi_add mlq "$FIX"/a1.eml "$FIX"/a2.eml "$TMP/resync.eml"
pi_start imapd "$IMAP_PORT"
"$MLQD" --once >"$TMP/log" 2>&1
is "$?" 0 "--once after the inbox was re-created"
grep -q "UIDVALIDITY changed" "$TMP/log"
ok $? "the UIDVALIDITY change is logged"
is "$(stored_ids | wc -l)" 649 "resynced: one new message, no duplicates"
is "$(source_field mlq cursor | sed 's/.* //')" uid=3 "cursor restarts"

test_done

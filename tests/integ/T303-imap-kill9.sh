#!/bin/sh
# kill -9 of mlqd during an IMAP backfill, at several moments, then a
# clean run: exactly the inbox's Message-Ids, none twice.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

NFS="$SHARED/corpus/lists/nfs-2021-04.mbox"
pi_init mlq
pi_add_list mlq "$NFS"
ok $? "inbox from nfs-2021-04.mbox"
pi_msgids "$NFS" >"$TMP/want"
pi_imap_source nfs mlq

kill_delays 20 1.2
mlqd_kill9 643 $(cat "$TMP/kill-delays")
run_ok "a clean run" "$MLQD" --once
stored_ids >"$TMP/got"
is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "exactly the inbox's Message-Ids"
is "$("$MLQ" search --format jsonl | wc -l)" 643 "643 messages, once each"
is "$(source_field nfs cursor | sed 's/.* //')" uid=643 "the cursor is the last UID"

test_done

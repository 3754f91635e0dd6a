#!/bin/sh
# public-inbox-imapd serves an inbox in slices of 50,000 UIDs (.0, .1,
# ...): mlqd follows the mail across the boundary and then waits for new
# mail in the last slice.  The inbox starts numbering at 49,991
# (public-inbox-init --skip-artnum), so a small month spans two slices.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

L="$SHARED/corpus/lists"
pi_init sl full 49990
pi_add sl "$L/iwl-2021-04.mbox"
ok $? "inbox filled"
n=$(pi_msgids "$L/iwl-2021-04.mbox" | wc -l)
pi_msgids "$L/iwl-2021-04.mbox" >"$TMP/want"
pi_imap_source sl sl
run_ok "mlqd --once" "$MLQD" --once
is "$(stored_ids)" "$(cat "$TMP/want")" "all $n messages, from both slices"
last=$((49990 + n))
is "$(source_field sl cursor | sed 's/.* //')" "uid=$last" \
    "the cursor is past the boundary: uid=$last"

# New mail lands in slice .1, where mlqd now starts.
live_msg slice-new "$TMP/new.eml"
pi_add sl "$TMP/new.eml"
run_ok "--once again" "$MLQD" --once
is "$(stored_ids | wc -l)" $((n + 1)) "only the new message is added"
has_id slice-new@example.com
ok $? "found in slice .1"
is "$(source_field sl cursor | sed 's/.* //')" "uid=$((last + 1))" \
    "cursor moved on"

# From scratch, a mailbox named by its second slice gives just that part.
export MLQ_DB="$TMP/one.db"
sed -i 's,inbox.sl.test$,inbox.sl.test.1,' "$MLQ_CONFIG"
run_ok "a slice named in full" "$MLQD" --once
is "$(stored_ids | wc -l)" $((last + 1 - 50000)) \
    "the UIDs above 50,000 only"

test_done

#!/bin/sh
# A mail file that refuses a message's mail fails the import in one line,
# after the batches before it and with nothing of that batch committed:
# the mail is written beside the index, and its failure must stop the
# index's commit too.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3
M="$top_srcdir/tests/fixtures/mail"

run_ok "import one message" "$MLQ" import "$M/autumn.eml"
# The third message (id 3) is refused, as a full disk would refuse it.
sqlite3 "$MLQ_DB-mail" "CREATE TRIGGER refuse BEFORE INSERT ON mail
    WHEN NEW.id = 3 BEGIN SELECT RAISE(ABORT, 'no room for mail'); END"
MLQ_IMPORT_BATCH=1 "$MLQ" import "$M/subdomain.eml" "$M/latin1-qp.eml" \
    "$M/escape.eml" >/dev/null 2>"$TMP/err"
is $? 3 "the refused mail fails the import: exit 3"
is "$(cat "$TMP/err")" "mlq: store mail: mail database: no room for mail" \
    "in one line"
is "$(sqlite3 "$MLQ_DB" 'SELECT group_concat(id) FROM msg')" 1,2 \
    "the batch before it committed, the refused one did not"
is "$(sqlite3 "$MLQ_DB-mail" 'SELECT group_concat(id) FROM mail')" 1,2 \
    "and the mail file holds the mail of exactly those"

sqlite3 "$MLQ_DB-mail" "DROP TRIGGER refuse"
run_ok "the same import again" "$MLQ" import "$M/subdomain.eml" \
    "$M/latin1-qp.eml" "$M/escape.eml"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')" 4 "completes the set"
for f in autumn subdomain latin1-qp escape; do
	reads_back "$M/$f.eml" "$f: its mail reads back byte for byte"
done

test_done

#!/bin/sh
# The mail lives in PATH-mail beside the index: it commits first, a row
# left by an index that never committed is overwritten by the message
# that gets its id, and a missing mail file is a one-line error that
# leaves every query not needing the mail working.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3 jq
M="$top_srcdir/tests/fixtures/mail"

run_ok "import one message" "$MLQ" import "$M/autumn.eml"
is "$(sqlite3 "$MLQ_DB-mail" 'SELECT count(*) FROM mail')" 1 "its mail is in mlq.db-mail"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM sqlite_master WHERE name = 'raw'")" 0 \
    "and not in the index"
reads_back "$M/autumn.eml" "the mail reads back byte for byte"

# What a crash between the two commits leaves: mail under the ids the
# next messages get, with no message naming them.
next=$(sqlite3 "$MLQ_DB" 'SELECT max(id) + 1 FROM msg')
sqlite3 "$MLQ_DB-mail" "INSERT INTO mail(id, data, len) VALUES ($next, x'00', 1), ($((next + 1)), x'00', 1)"
run_ok "import after a crash's leftovers" "$MLQ" import "$M/subdomain.eml" "$M/latin1-qp.eml"
for f in subdomain latin1-qp; do
	reads_back "$M/$f.eml" "$f: its own mail, not the leftover"
done

size=$(( $(stat -c %s "$MLQ_DB") + $(stat -c %s "$MLQ_DB-mail") ))
for w in "$MLQ_DB-wal" "$MLQ_DB-mail-wal"; do
	[ -f "$w" ] && size=$((size + $(stat -c %s "$w")))
done
is "$("$MLQ" status --format json | jq .bytes)" "$size" \
    "status counts the index and the mail"

mv "$MLQ_DB-mail" "$TMP/aside"
rm -f "$MLQ_DB-mail-wal" "$MLQ_DB-mail-shm"
"$MLQ" thread --format mbox '<autumn-1@autumn.edu>' >/dev/null 2>"$TMP/err"
is $? 3 "without the mail file, mbox output fails: exit 3"
case $(cat "$TMP/err") in
"mlq: cannot open '$MLQ_DB-mail': No such file or directory") ok 0 "in one line naming the file" ;;
*) ok 1 "in one line naming the file: $(cat "$TMP/err")" ;; esac
is "$("$MLQ" search --format json | jq length)" 3 "search needs no mail"
[ ! -e "$MLQ_DB-mail" ]
ok $? "and a reader never creates the file"

test_done

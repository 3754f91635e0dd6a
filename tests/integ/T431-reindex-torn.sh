#!/bin/sh
# mlq import writes the index without syncs, behind a marker naming the
# boot it runs in, and removes the marker once its writes are on disk.  A
# marker of another boot means the system went down under an import:
# every command refuses the index, and mlq reindex rebuilds it from the
# mail file alone, which keeps each message's lists and time.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq sqlite3
[ -r /proc/sys/kernel/random/boot_id ] || skip_all "no boot id on this system"
BOOT=$(cat /proc/sys/kernel/random/boot_id)
OTHER=00000000-0000-4000-8000-000000000000

FIX="$top_srcdir/tests/fixtures/review"
run_ok "import the review fixtures" "$MLQ" import --list widget "$FIX"/*.mbox
run_ok "one of them again, under a second list" \
    "$MLQ" import --list gadget "$FIX/applied.mbox"
sqlite3 "$MLQ_DB" "INSERT INTO source(name, url, kind, cursor, ingested)
    VALUES ('widget', 'https://lists.example.org/widget/', 'http', 'c-42', 41)"
markers() { ls "$TMP" | grep -c -- '-unsynced-'; }
is "$(markers)" 0 "an import that ended leaves no marker"

messages() { # what a rebuild must bring back, by Message-Id
	sqlite3 "$MLQ_DB" "
	SELECT 'm', msgid, kind, status, tags, version, added FROM msg
	    ORDER BY msgid;
	SELECT 'L', m.msgid, l.name FROM msg_list ml JOIN msg m ON m.id = ml.msg
	    JOIN list l ON l.id = ml.list ORDER BY 2, 3;"
}
sources() { sqlite3 "$MLQ_DB" "SELECT name, cursor, ingested FROM source"; }
messages >"$TMP/before"
stored=$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')
status=$("$MLQ" show --format json applied-p@example.org | jq -r .status)
is "$(grep -c '^L|applied-p@example.org|' "$TMP/before")" 2 \
    "a message recorded under two lists"

# A running import's marker names this boot.
mkfifo "$TMP/feed"
"$MLQ" import - <"$TMP/feed" >/dev/null 2>&1 &
importer=$!
test_on_exit "test_cleanup_pid $importer"
exec 8>"$TMP/feed"
wait_for 10 test -f "$MLQ_DB-unsynced-$importer"
ok $? "a running import leaves a marker"
is "$(cat "$MLQ_DB-unsynced-$importer")" "$BOOT" "naming this boot"
cat "$FIX/applied.mbox" >&8
exec 8>&-
wait "$importer"
is $? 0 "the import ends"
is "$(markers)" 0 "and removes its marker"

# A process killed mid-import leaves a marker of this boot: its writes
# are with the kernel, so nothing is refused, and the next import that
# ends removes it.
sh -c 'echo $$ >"$0"' "$TMP/dead.pid"
dead=$(cat "$TMP/dead.pid")
echo "$BOOT" >"$MLQ_DB-unsynced-$dead"
run_ok "a marker of this boot: search goes on" "$MLQ" search --from example.org
run_ok "so does an import" "$MLQ" import "$FIX/applied.mbox"
is "$(markers)" 0 "which removes the dead process's marker"

# The system went down under an import.
echo "$OTHER" >"$MLQ_DB-unsynced-4242"
want="mlq: database '$MLQ_DB': the system went down while an import was writing it ($TMP/mlq.db-unsynced-4242): run 'mlq reindex' to rebuild it from its mail"
"$MLQ" search --from example.org >"$TMP/out" 2>"$TMP/err"
is $? 3 "a marker of another boot: search refuses (exit 3)"
is "$(cat "$TMP/err")" "$want" "in one line saying what to do"
is "$(wc -c <"$TMP/out" | tr -d ' ')" 0 "and prints nothing else"
"$MLQ" import "$FIX/applied.mbox" >/dev/null 2>"$TMP/err"
is $? 3 "an import refuses too (exit 3)"
# As would a rebuild the system went down under: its file is not kept.
echo "$OTHER" >"$MLQ_DB.reindex-unsynced-4250"
run_ok "reindex" "$MLQ" reindex
is "$(cat "$TMP/.err")" \
    "mlq: reindex: the system went down during an import: rebuilt from the mail file" \
    "reindex says what it did"
is "$(sed -n 's/^reindexed \([0-9]*\) messages in .*/\1/p' "$TMP/.out")" "$stored" \
    "every message ($stored)"
messages >"$TMP/after"
is "$(diff "$TMP/before" "$TMP/after" | head -10)" "" \
    "statuses, tags, times and both lists as before"
is "$(sources)" "widget|c-42|41" "the sources read from the old index"
is "$(markers)" 0 "the markers are gone"
is "$(ls "$TMP" | grep -c -e '-wal$' -e '-shm$' -e 'reindex')" 0 \
    "and no WAL or temporary file is left"
is "$("$MLQ" show --format json applied-p@example.org | jq -r .status)" \
    "$status" "and show reads it ($status)"

# A torn index is not read at all: garbage over it loses only what lives
# in it alone.
echo "$OTHER" >"$MLQ_DB-unsynced-4243"
head -c 65536 /dev/urandom >"$MLQ_DB"
run_ok "reindex over a garbled index" "$MLQ" reindex
is "$(cat "$TMP/.err")" \
    "mlq: reindex: the system went down during an import: rebuilt from the mail file; its sources and digests sent could not be read" \
    "says what was lost"
messages >"$TMP/after"
is "$(diff "$TMP/before" "$TMP/after" | head -10)" "" \
    "messages, times and lists from the mail file alone"
is "$(sources)" "" "the sources are gone (mlqd fetches again)"

# A mail file from before lists and times: the first writer copies them
# from the index.
sqlite3 "$MLQ_DB-mail" "DROP TABLE mail_list; ALTER TABLE mail DROP COLUMN added;
    PRAGMA user_version = 0"
run_ok "an import upgrades the mail file" "$MLQ" import "$top_srcdir/tests/fixtures/mail/autumn.eml"
is "$(sqlite3 "$MLQ_DB-mail" 'PRAGMA user_version')" 1 "to version 1"
is "$(sqlite3 "$MLQ_DB-mail" 'SELECT count(*) FROM mail WHERE added IS NULL')" 0 \
    "every message's time"
is "$(sqlite3 "$MLQ_DB-mail" "SELECT count(*) FROM mail_list WHERE list = 'gadget'")" \
    "$(grep -c '^L|.*|gadget$' "$TMP/before")" "and lists"
echo "$OTHER" >"$MLQ_DB-unsynced-4244"
run_ok "reindex" "$MLQ" reindex
messages | grep -v autumn >"$TMP/after"
is "$(diff "$TMP/before" "$TMP/after" | head -10)" "" \
    "rebuilt from the upgraded mail file as before"

# One still too old to rebuild from alone is named, and nothing changes.
sqlite3 "$MLQ_DB-mail" "PRAGMA user_version = 0"
echo "$OTHER" >"$MLQ_DB-unsynced-4245"
sum=$(sha1sum <"$MLQ_DB")
"$MLQ" reindex >/dev/null 2>"$TMP/err"
is $? 3 "reindex from a mail file without lists fails (exit 3)"
is "$(cat "$TMP/err")" \
    "mlq: mail database '$MLQ_DB-mail': version 0, not 1: the index cannot be rebuilt from it alone" \
    "naming it"
is "$(sha1sum <"$MLQ_DB")" "$sum" "the index is left as it was"

test_done

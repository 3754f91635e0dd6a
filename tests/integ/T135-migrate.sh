#!/bin/sh
# A database written before schema 006 (raw mail inside msg) is migrated
# when opened for writing: every message keeps its exact bytes, and a
# read-only command on it asks for the upgrade instead of misreading it.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3
fix=$top_srcdir/tests/fixtures/digest/linux-nfs.mbox

run_ok "import" "$MLQ" import --list linux-nfs "$fix"
ids=$(sqlite3 "$MLQ_DB" "SELECT msgid FROM msg ORDER BY id")
for id in $ids; do
	"$MLQ" thread --format mbox "$id"
done >"$TMP/want"

# The same rows in a database built by migrations 001-005 alone, raw
# mail back in msg where those versions kept it.
old=$TMP/old.db
cat "$top_srcdir"/schema/00[1-5]-*.sql | sqlite3 "$old" || ok 1 "old schema"
cols=$(sqlite3 "$MLQ_DB" "SELECT group_concat(name, ', ') FROM pragma_table_info('msg')")
sqlite3 "$old" "PRAGMA user_version = 5;
ATTACH '$MLQ_DB' AS cur;
INSERT INTO msg($cols, raw, raw_len)
	SELECT m.*, r.data, r.len FROM cur.msg m JOIN cur.raw r ON r.id = m.id;
INSERT INTO ghost SELECT * FROM cur.ghost;
INSERT INTO list SELECT * FROM cur.list;
INSERT INTO msg_list SELECT * FROM cur.msg_list;" || ok 1 "old rows"
is "$(sqlite3 "$old" 'SELECT count(*) FROM msg')" "$(echo "$ids" | wc -l)" \
    "the old database holds every message"

MLQ_DB=$old "$MLQ" search >/dev/null 2>"$TMP/err"
is $? 3 "a read-only command does not migrate"
case $(cat "$TMP/err") in
"mlq: database schema version 5 is older than this mlq ("[0-9]*")"*) ok 0 "and says so" ;;
*) ok 1 "and says so: $(cat "$TMP/err")" ;; esac

out=$(MLQ_DB=$old "$MLQ" import "$fix")
is "$out" "imported 0 new, $(echo "$ids" | wc -l) duplicate, 0 rejected" \
    "import migrates, then finds every message already stored"
is "$(sqlite3 "$old" 'PRAGMA user_version')" \
    "$(sqlite3 "$MLQ_DB" 'PRAGMA user_version')" "to the current version"
is "$(sqlite3 "$old" "SELECT count(*) FROM pragma_table_info('msg') WHERE name IN ('raw', 'raw_len')")" 0 \
    "msg no longer holds the mail"
is "$(sqlite3 "$old" 'PRAGMA integrity_check')" ok "and the file is consistent"
# Schema 009: merges wait for 16 segments a level, old database and new.
for db in "$old" "$MLQ_DB"; do
	is "$(sqlite3 "$db" "SELECT v FROM fts_config WHERE k = 'automerge'")" 16 \
	    "FTS5 automerge 16 in $(basename "$db")"
done
for id in $ids; do
	MLQ_DB=$old "$MLQ" thread --format mbox "$id"
done >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"
ok $? "every thread reads back byte for byte ($(wc -c <"$TMP/got") bytes)"

test_done

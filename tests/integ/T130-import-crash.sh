#!/bin/sh
# kill -9 during an import never leaves a half-written batch, and the same
# import run again completes the set with no duplicates.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
need sqlite3
f="$SHARED/corpus/lists/lak-2019-11-wk1.mbox"
n=$(sed -n 's/^ *"messages": \([0-9]*\).*/\1/p' "${f%.mbox}.stats.json")

# A kill before the last migration (each commits on its own) leaves no
# messages: count that as 0.  Table addr comes last (schema 010).
count() {
	if [ -n "$(sqlite3 "$MLQ_DB" "SELECT 1 FROM sqlite_master WHERE name = 'addr'")" ]; then
		sqlite3 "$MLQ_DB" "$1"
	else
		echo 0
	fi
}

# Small batches, so that kills land between and inside many commits; 20
# moments over the import's first second and a half.
kill_delays 20 1.5
for delay in $(cat "$TMP/kill-delays"); do
	MLQ_IMPORT_BATCH=50 "$MLQ" import "$f" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	is "$(sqlite3 "$MLQ_DB" 'PRAGMA integrity_check')" ok "consistent after kill -9 at ${delay}s"
	got=$(count 'SELECT count(*) FROM msg')
	[ "$got" -le "$n" ]; ok $? "at most $n messages after the kill ($got)"
	[ $((got % 50)) -eq 0 ] || [ "$got" -eq "$n" ]
	ok $? "only whole batches of 50 were committed ($got)"
	# The mail file commits first: no message without its mail.  A kill
	# between creating that file and its table leaves it empty.
	if [ -f "$MLQ_DB-mail" ] && [ -n "$(sqlite3 "$MLQ_DB-mail" \
	    "SELECT 1 FROM sqlite_master WHERE name = 'mail'")" ]; then
		missing=$(count "ATTACH '$MLQ_DB-mail' AS f;
		    SELECT count(*) FROM msg WHERE id NOT IN (SELECT id FROM f.mail)")
	else
		missing=$(count 'SELECT count(*) FROM msg')
	fi
	is "$missing" 0 "every message's mail is stored"
	is "$(count "CREATE VIRTUAL TABLE temp.av USING fts5vocab(main, addr, instance);
	    SELECT count(*) FROM msg m WHERE m.from_email != '' AND NOT EXISTS
	    (SELECT 1 FROM av WHERE av.doc = m.id AND av.term GLOB 'f*')")" 0 \
	    "no message without its sender in the address index"
done
out=$("$MLQ" import "$f")
case $out in "imported "*" new, "*" duplicate, 0 rejected") ok 0 "the rerun completes: $out" ;;
*) ok 1 "the rerun completes: $out" ;; esac
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*), count(DISTINCT msgid) FROM msg')" "$n|$n" "exactly $n messages, no duplicates"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM fts')" "$n" "the text index holds each message once"
is "$(sqlite3 "$MLQ_DB" "ATTACH '$MLQ_DB-mail' AS f;
    SELECT count(*) FROM msg WHERE id NOT IN (SELECT id FROM f.mail)")" 0 \
    "and every message's mail"

# A database from a newer mlq is refused, never misread.
sqlite3 "$MLQ_DB" 'PRAGMA user_version = 99'
"$MLQ" search >/dev/null 2>"$TMP/err"
is "$?" 3 "newer schema: exit 3"
case $(cat "$TMP/err") in
"mlq: '$MLQ_DB' was written by a newer mlq (schema 99; this mlq reads up to "[0-9]*"): upgrade mlq to use it")
	ok 0 "and says why" ;;
*) ok 1 "and says why"; sed 's/^/# /' "$TMP/err" ;; esac

test_done

#!/bin/sh
# A database written before schema 006 (raw mail inside msg) is migrated
# when opened for writing: every message keeps its exact bytes, and a
# read-only command on it asks for the upgrade instead of misreading it.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3
need jq
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
# Columns added after schema 005 that the copy has no place for: sketch
# (016), author_name and author_email (018).
cols=$(sqlite3 "$MLQ_DB" "SELECT group_concat(name, ', ') FROM pragma_table_info('msg') WHERE name NOT IN ('sketch', 'author_name', 'author_email')")
mcols=$(sqlite3 "$MLQ_DB" "SELECT group_concat('m.' || name, ', ') FROM pragma_table_info('msg') WHERE name NOT IN ('sketch', 'author_name', 'author_email')")
sqlite3 "$old" "PRAGMA user_version = 5;
ATTACH '$MLQ_DB' AS cur;
ATTACH '$MLQ_DB-mail' AS curmail;
INSERT INTO msg($cols, raw, raw_len)
	SELECT $mcols, r.data, r.len FROM cur.msg m JOIN curmail.mail r ON r.id = m.id;
INSERT INTO ghost SELECT * FROM cur.ghost;
INSERT INTO list SELECT * FROM cur.list;
INSERT INTO msg_list SELECT * FROM cur.msg_list;" || ok 1 "old rows"

# Addresses as schemas 001-009 filed them (msg_email by reversed domain):
# each sender (role 1) and trailer address (role 4) of the current
# database, and three that only a careful split gets right (Cc, role 3).
rdomain() { # the domain of an address (after its last '@') as mlq reverses it
	printf '%s\n' "$1" | awk '{ n = split($0, p, "@"); d = n > 1 ? tolower(p[n]) : "";
	    sub(/\.+$/, "", d); k = split(d, l, "."); r = "";
	    for (i = k; i >= 1; i--) r = r l[i] "."; print r }'
}
first=$(sqlite3 "$old" "SELECT min(id) FROM msg")
{
	sqlite3 "$MLQ_DB" "SELECT from_email FROM msg WHERE from_email <> ''
	    UNION SELECT email FROM trailer WHERE email <> ''"
	printf '%s\n' 'pakki001@cs.umn.edu' '"a@b"@example.org' 'root'
} | sort -u | while IFS= read -r e; do
	q=$(printf '%s' "$e" | sed "s/'/''/g")
	echo "INSERT INTO email(email, rdomain) VALUES ('$q', '$(rdomain "$e")');"
done >"$TMP/emails.sql"
sqlite3 "$old" "$(cat "$TMP/emails.sql")
ATTACH '$MLQ_DB' AS cur;
INSERT INTO msg_email(email, msg, role)
	SELECT e.id, m.id, 1 FROM msg m JOIN email e ON e.email = m.from_email;
INSERT OR IGNORE INTO msg_email(email, msg, role)
	SELECT e.id, t.msg, 4 FROM cur.trailer t JOIN email e ON e.email = t.email;
INSERT INTO msg_email(email, msg, role)
	SELECT id, $first, 3 FROM email
	WHERE email IN ('pakki001@cs.umn.edu', '\"a@b\"@example.org', 'root');" ||
    ok 1 "old address rows"
# What each search found then, by SQL over those rows.
queries="from:umn.edu addr:umn.edu addr:cs.umn.edu addr:edu from:oracle.com
addr:oracle.com addr:@example.com addr:pakki001@cs.umn.edu
addr:\"a@b\"@example.org addr:Chuck@Oracle.COM addr:trond@hammerspace.com from:bob@example.com
from:$(sqlite3 "$old" "SELECT from_email FROM msg ORDER BY id LIMIT 1")"
for q in $queries; do
	x=${q#*:}
	role=; [ "${q%%:*}" = from ] && role="AND me.role = 1"
	if [ "${x#@}" = "$x" ] && [ "${x%@*}" != "$x" ]; then
		where="e.email = lower('$(printf '%s' "$x" | sed "s/'/''/g")')"
	else
		rd=$(rdomain "@${x#@}")
		where="e.rdomain >= '$rd' AND e.rdomain < '${rd%.}/'"
	fi
	sqlite3 "$old" "SELECT DISTINCT m.msgid FROM msg m
	    JOIN msg_email me ON me.msg = m.id JOIN email e ON e.id = me.email
	    WHERE $where $role ORDER BY 1" >"$TMP/want.$(echo "$q" | tr -c 'a-zA-Z0-9.\n' _)"
done
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
# Schema 013: the mail is in its own file, the index file compacted.
is "$(sqlite3 "$old" "SELECT count(*) FROM sqlite_master WHERE name = 'raw'")" 0 \
    "table raw is gone"
is "$(sqlite3 "$old-mail" 'SELECT count(*) FROM mail')" "$(echo "$ids" | wc -l)" \
    "every message's mail is in old.db-mail"
is "$(sqlite3 "$old" 'PRAGMA freelist_count')" 0 "no free pages left in the index file"
# Schema 010: every search by address finds what the old rows held.
for q in $queries; do
	f=$TMP/want.$(echo "$q" | tr -c 'a-zA-Z0-9.\n' _)
	MLQ_DB=$old "$MLQ" search "--${q%%:*}" "${q#*:}" --format json |
	    jq -r '.[].message_id' | LC_ALL=C sort >"$TMP/got.q"
	is "$(cat "$TMP/got.q")" "$(cat "$f")" "$q: $(wc -l <"$f") messages as before"
done
is "$(sqlite3 "$old" "SELECT count(*) FROM sqlite_master WHERE name IN ('email', 'msg_email')")" 0 \
    "the old address tables are gone"
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

# Schema 011: series links a patch got beside its own thread's cover
# letter (an author's two series of one size within a day) are dropped.
export MLQ_DB=$TMP/twin.db
run_ok "import twin series" "$MLQ" import "$top_srcdir/tests/fixtures/review/twin-series.mbox"
"$MLQ" search --patches --format json | jq -r '.[] | "\(.message_id) \(.status)"' | sort >"$TMP/twin.want"
sqlite3 "$MLQ_DB" "INSERT INTO link(src, dst, kind)
	SELECT p.id, c.id, 4 FROM msg p JOIN msg c ON c.kind = 2 AND c.thread <> p.thread
	WHERE p.kind = 1;
	$(msg_as_015) $(ref_as_014) $(file_as_020)
	PRAGMA user_version = 10"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM link WHERE kind = 4')" 4 "four stray series links"
run_ok "import migrates" "$MLQ" import "$top_srcdir/tests/fixtures/review/twin-series.mbox"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM link WHERE kind = 4')" 0 "gone after migration 011"
"$MLQ" search --patches --format json | jq -r '.[] | "\(.message_id) \(.status)"' | sort >"$TMP/twin.got"
is "$(cat "$TMP/twin.got")" "$(cat "$TMP/twin.want")" "statuses as before"
# Schema 021: each file row gets its posting's poster, date and title.
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM file f JOIN msg m ON m.id = f.msg
	WHERE f.poster IS m.from_email AND f.date IS m.date AND f.norm IS m.norm"):$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM file')" \
    "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM file'):$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM file')" \
    "migration 021 gives every file row its poster, date and title"
ok $(($(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM file') == 0)) "(of $(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM file') rows)"

test_done

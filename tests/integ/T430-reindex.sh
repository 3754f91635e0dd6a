#!/bin/sh
# mlq reindex: everything derived comes back from the raw mail alone,
# what cannot be derived is kept, and a database in use is left alone.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq sqlite3

FIX="$top_srcdir/tests/fixtures/review"
run_ok "import the review fixtures" "$MLQ" import --list widget "$FIX"/*.mbox
run_ok "import a commit" "$MLQ" import "$FIX"/revert-commit-orig.txt

# Everything derived, keyed by Message-Id (row ids and thread ids may change).
snapshot() {
	sqlite3 "$MLQ_DB" "
	SELECT 'm', msgid, kind, status, tags, own_tags, version, idx, total,
	    coalesce(commit_id, ''), added, coalesce(first_review, -1),
	    (SELECT count(*) FROM msg t WHERE t.thread = m.thread)
	    FROM msg m ORDER BY msgid;
	SELECT 'l', s.msgid, d.msgid, k.kind FROM link k JOIN msg s ON s.id = k.src
	    JOIN msg d ON d.id = k.dst ORDER BY 2, 3, 4;
	SELECT 't', m.msgid, g.tag FROM msg_tag g JOIN msg m ON m.id = g.msg
	    ORDER BY 2, 3;
	SELECT 'g', msgid, coalesce(parent, '') FROM ghost ORDER BY msgid;
	SELECT 'e', m.msgid, e.tag, e.rule FROM evidence e JOIN msg m ON m.id = e.msg
	    ORDER BY 2, 3;
	CREATE VIRTUAL TABLE temp.av USING fts5vocab(main, addr, instance);
	SELECT 'a', m.msgid, a.term FROM av a JOIN msg m ON m.id = a.doc
	    ORDER BY 2, 3;
	SELECT 'L', m.msgid, l.name FROM msg_list ml JOIN msg m ON m.id = ml.msg
	    JOIN list l ON l.id = ml.list ORDER BY 2, 3;
	SELECT 's', name, url, coalesce(cursor, ''), ingested FROM source;"
}
sqlite3 "$MLQ_DB" "INSERT INTO source(name, url, kind, cursor, ingested)
    VALUES ('widget', 'https://lists.example.org/widget/', 'http', 'c-42', 41)"
# When each message was stored cannot be derived: old, distinct times,
# kept with the mail (and in the index, for the snapshot).
sqlite3 "$MLQ_DB" "UPDATE msg SET added = 1500000000 + 7 * id"
sqlite3 "$MLQ_DB-mail" "UPDATE mail SET added = 1500000000 + 7 * id"
is "$(ls "$TMP" | grep -c -- '-unsynced-')" 0 "an import that ended leaves no marker"
snapshot >"$TMP/before"
stored=$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')
mails() { # every message's mail as mlq gives it back: "SHA1 Message-Id"
	"$MLQ" search --format mbox | perl -MDigest::SHA=sha1_hex -ne '
		sub out { print sha1_hex($m), " $id\n" if length $m; $m = $id = "" }
		if (/^From / && $blank) { out(); $hdr = 1 }
		$hdr = 0 if /^$/;
		$id = $1 if $hdr && $id eq "" && /^Message-Id:\s*<([^>]+)>/i;
		$m .= $_; $blank = /^$/;
		BEGIN { ($m, $id, $blank) = ("", "", 1) } END { out() }' |
	    sort -k2
}
mails >"$TMP/mails-before"
mailsum=$(sha1sum <"$MLQ_DB-mail")
"$MLQ" search 'widget' --format json | jq -r 'map(.message_id) | sort | .[]' >"$TMP/fts-before"

# Derived state thrown away: reindex must bring all of it back.
sqlite3 "$MLQ_DB" "UPDATE msg SET status = 1, tags = 0, own_tags = 0;
    DELETE FROM link; DELETE FROM msg_tag; DELETE FROM ref;
    UPDATE ghost SET parent = NULL; UPDATE msg SET first_review = NULL"
# So are the index's copies of the times and lists: the mail file's count.
sqlite3 "$MLQ_DB" "UPDATE msg SET added = 1; DELETE FROM msg_list"
run_ok "reindex" "$MLQ" reindex
is "$(sed -n 's/^reindexed \([0-9]*\) messages in .*/\1/p' "$TMP/.out")" "$stored" \
    "reindex: every message ($stored)"
snapshot >"$TMP/after"
is "$(diff "$TMP/before" "$TMP/after" | head -20)" "" \
    "reindex: tags, statuses, links, threads, lists, sources as before"
is "$(wc -l <"$TMP/before" | tr -d ' ')" "$(wc -l <"$TMP/after" | tr -d ' ')" \
    "reindex: as many rows"
# The stored mail is carried over, not deflated again: same bytes back.
mails >"$TMP/mails-after"
is "$(diff "$TMP/mails-before" "$TMP/mails-after" | head -5)" "" \
    "reindex: every message's mail as before ($(wc -l <"$TMP/mails-after") messages)"
"$MLQ" search 'widget' --format json | jq -r 'map(.message_id) | sort | .[]' >"$TMP/fts-after"
is "$(diff "$TMP/fts-before" "$TMP/fts-after")" "" "reindex: the text index"
is "$(ls "$TMP" | grep -c 'reindex')" 0 "reindex: no file left beside it"
is "$(sha1sum <"$MLQ_DB-mail")" "$mailsum" "reindex: the mail file is left as it was"
is "$("$MLQ" show --format json rt-o@example.org | jq -r .status)" reverted \
    "reindex: statuses readable"
run_ok "reindex twice" "$MLQ" reindex

# A database someone else has open is left alone.
mkfifo "$TMP/fifo"
sqlite3 "$MLQ_DB" <"$TMP/fifo" >/dev/null &
holder=$!
test_on_exit "test_cleanup_pid $holder"
exec 9>"$TMP/fifo"
echo "SELECT count(*) FROM msg;" >&9
wait_for 5 test -f "$MLQ_DB-wal"
"$MLQ" reindex >/dev/null 2>"$TMP/err"
is $? 3 "reindex of a database in use: exit 3"
is "$(grep -c 'open elsewhere' "$TMP/err")" 1 "reindex of a database in use: why"
exec 9>&-
wait "$holder" 2>/dev/null
snapshot >"$TMP/after2"
is "$(diff "$TMP/before" "$TMP/after2" | head -5)" "" "the database in use is unchanged"

# A stored length damaged past any mail: that message is refused before
# anything is inflated for it, and the database is left as it was.
sqlite3 "$MLQ_DB-mail" "UPDATE mail SET len = 4000000000 WHERE id = (SELECT min(id) FROM mail)"
"$MLQ" reindex >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" -ne 0 ]
ok $? "reindex with a damaged length fails (exit $rc)"
is "$(grep -c 'no longer parse.*over the .* byte limit' "$TMP/err")" 1 \
    "naming the message: $(cat "$TMP/err")"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')" "$stored" "nothing lost"

# A message whose mail is gone from the mail file: reindex refuses to
# drop it silently, and the database is left as it was.
sqlite3 "$MLQ_DB-mail" "DELETE FROM mail WHERE id = (SELECT max(id) FROM mail)"
"$MLQ" reindex >/dev/null 2>"$TMP/err"
is $? 3 "reindex with a message's mail missing: exit 3"
is "$(grep -c '^mlq: message [0-9]*: its mail is not stored' "$TMP/err")" 1 \
    "naming the message: $(cat "$TMP/err")"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')" "$stored" "nothing lost"

# Speed on one week of linux-arm-kernel (reported, not asserted).
if [ -d "$SHARED/corpus/lists" ]; then
	export MLQ_DB="$TMP/lak.db"
	"$MLQ" import "$SHARED/corpus/lists/lak-2019-11-wk1.mbox" >/dev/null
	run_ok "reindex lak-2019-11-wk1" "$MLQ" reindex
	echo "# $(cat "$TMP/.out")"
fi

test_done

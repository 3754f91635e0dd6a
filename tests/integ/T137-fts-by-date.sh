#!/bin/sh
# Schema 014: the text index's rowids run by day (day * 2^32 + id).  A
# database indexed by id is rebuilt from the index's own terms on
# migration, to the very rowids a fresh import gives.  Schema 020 splits
# the text in lore's columns, which only the mail can tell: the migrated
# index answers from the old terms, and `mlq reindex` gives exactly what
# a fresh import gives.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3
need jq

# Dates either side of 1970 and of a day's end, none at all, and text
# that the tokenizer folds (case, diacritics, non-Latin script).
n=0
for d in "Wed, 31 Dec 1969 23:59:59 +0000" "Thu, 01 Jan 1970 00:00:00 +0000" \
    "Sat, 01 Jan 1966 12:00:00 +0000" "" "Mon, 01 Mar 2021 23:59:59 +0000" \
    "Tue, 02 Mar 2021 00:00:00 +0000" "Wed, 31 Dec 1969 00:00:00 +0000"; do
	n=$((n + 1))
	printf 'From x Thu Jan  1 00:00:00 1970\nFrom: A <a@example.org>\n'
	[ -n "$d" ] && printf 'Date: %s\n' "$d"
	printf 'Message-Id: <odd-%s@example.org>\nSubject: =?UTF-8?Q?J=C3=B6rg_=C3=89COLE_%s?=\n' "$n" "$n"
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n'
	printf 'Grüße, Ελληνικά, kerberos %s\n\n' "$n"
done >"$TMP/odd.mbox"
run_ok "import" "$MLQ" import --list linux-nfs "$top_srcdir/tests/fixtures/digest/linux-nfs.mbox" "$TMP/odd.mbox"

# Words of every frequency, from the index itself, and folded ones.
words=$(sqlite3 "$MLQ_DB" "CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, fts, row);
	SELECT term FROM (SELECT term, row_number() OVER (ORDER BY doc DESC, term) AS r FROM temp.v)
	WHERE r <= 5 OR r % 7 = 0 ORDER BY r")
words="$words jörg JORG ecole grusse ελληνικα s:jorg b:kerberos"
[ "$(echo "$words" | wc -w)" -ge 20 ]
ok $? "$(echo "$words" | wc -w) words to ask"

ask() { # the rowids and the answers, limited and not, for every word
	for w in $words; do
		printf '%s\n' "$w"
		MLQ_DB=$1 "$MLQ" search --format json "$w" | jq -c '[.[].message_id]'
		MLQ_DB=$1 "$MLQ" search --limit 3 --format json "$w" | jq -c '[.[].message_id]'
	done
}
rowids() { # the whole index: each term's rowids and columns
	sqlite3 "$1" "CREATE VIRTUAL TABLE temp.i USING fts5vocab(main, fts, instance);
	    SELECT term, doc, col FROM temp.i ORDER BY term, doc, col"
}
ask "$MLQ_DB" >"$TMP/want"
rowids "$MLQ_DB" >"$TMP/want.rowids"
# Days count from 2^30, rounded down before 1970 too; no date is day 0.
is "$(sqlite3 "$MLQ_DB" "SELECT m.msgid, f.rowid >> 32 FROM fts f JOIN msg m ON m.id = f.rowid & 4294967295
	WHERE f.fts MATCH 'kerberos' AND m.msgid LIKE 'odd-%' ORDER BY m.msgid" | paste -sd' ' -)" \
    "odd-1@example.org|1073741823 odd-2@example.org|1073741824 odd-3@example.org|1073740363 \
odd-4@example.org|0 odd-5@example.org|1073760511 odd-6@example.org|1073760512 \
odd-7@example.org|1073741823" "each message's day"

# The same database as schema 013 indexed it: rowid = id.
old=$TMP/old.db
cp "$MLQ_DB" "$old" && cp "$MLQ_DB-mail" "$old-mail" || ok 1 "copy"
sqlite3 "$old" "ALTER TABLE fts RENAME TO fts_dated;
CREATE VIRTUAL TABLE fts USING fts5(subject, body, content='',
	detail = column, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO fts(fts, rank) VALUES ('automerge', 16);
CREATE VIRTUAL TABLE temp.t USING fts5vocab(main, fts_dated, instance);
INSERT INTO fts(rowid, subject, body)
SELECT t.doc & 4294967295,
	group_concat(CASE WHEN t.col = 'subject' THEN t.term END, ' '),
	group_concat(CASE WHEN t.col != 'subject' THEN t.term END, ' ')
FROM temp.t t GROUP BY t.doc ORDER BY 1;
DROP TABLE temp.t;
DROP TABLE fts_dated;
$(msg_as_015) $(ref_as_014) $(file_as_020)
PRAGMA user_version = 13;" || ok 1 "old text index"
# (the terms copied from today's index are stems: kerberos is kerbero)
is "$(sqlite3 "$old" "SELECT rowid FROM fts WHERE fts MATCH 'kerbero'" | paste -sd' ' -)" \
    "$(sqlite3 "$old" "SELECT id FROM msg WHERE msgid LIKE 'odd-%' ORDER BY id" | paste -sd' ' -)" \
    "the old index is by id"

MLQ_DB=$old "$MLQ" search kerberos >/dev/null 2>&1
is $? 3 "a read-only command does not migrate"
run_ok "import migrates" env MLQ_DB="$old" "$MLQ" import "$TMP/odd.mbox"
is "$(sqlite3 "$old" 'PRAGMA user_version')" "$(sqlite3 "$MLQ_DB" 'PRAGMA user_version')" \
    "to the current version"
docs() { # each message's rowid
	sqlite3 "$1" "CREATE VIRTUAL TABLE temp.i USING fts5vocab(main, fts, instance);
	    SELECT DISTINCT doc FROM temp.i ORDER BY doc"
}
is "$(docs "$old" | paste -sd' ' -)" "$(docs "$MLQ_DB" | paste -sd' ' -)" \
    "the rowids a fresh import gives"
is "$(sqlite3 "$old" "SELECT count(*) FROM fts")" "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM fts")" \
    "every message is indexed"
is "$(sqlite3 "$old" "SELECT count(*) FROM sqlite_master WHERE name LIKE 'fts_by_id%'")" 0 \
    "the old index is gone"
is "$(sqlite3 "$old" "SELECT v FROM fts_config WHERE k = 'automerge'")" 16 "automerge 16 kept"
is "$(sqlite3 "$old" 'PRAGMA integrity_check')" ok "the file is consistent"
is "$(MLQ_DB=$old "$MLQ" search --format ids kerberos | sort | paste -sd' ' -)" \
    "$("$MLQ" search --format ids kerberos | sort | paste -sd' ' -)" \
    "the old terms still answer"
run_ok "reindex" env MLQ_DB="$old" "$MLQ" reindex
rowids "$old" >"$TMP/got.rowids"
cmp -s "$TMP/want.rowids" "$TMP/got.rowids"
ok $? "then the terms and rowids a fresh import gives ($(wc -l <"$TMP/got.rowids") entries)"
ask "$old" >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"
ok $? "and every word finds what it found ($(grep -c . "$TMP/got") lines)"
diff "$TMP/want" "$TMP/got" | head -5 >&2

test_done

#!/bin/sh
# Real list archives: one stored message per Message-Id, replies linked.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
need sqlite3 perl
L="$SHARED/corpus/lists"

q() { sqlite3 "$MLQ_DB" "$1"; }
for f in "$L"/*.mbox; do
	name=$(basename "$f" .mbox)
	n=$(sed -n 's/^ *"messages": \([0-9]*\).*/\1/p' "$L/$name.stats.json")
	rm -f "$MLQ_DB" "$MLQ_DB-wal" "$MLQ_DB-shm" "$MLQ_DB-mail" "$MLQ_DB-mail-wal" "$MLQ_DB-mail-shm"
	is "$("$MLQ" import "$f")" "imported $n new, 0 duplicate, 0 rejected" "$name: every message stored once"
	is "$("$MLQ" import "$f")" "imported 0 new, $n duplicate, 0 rejected" "$name: a second import adds nothing"
	# Every In-Reply-To naming a message of the file is linked.
	irt=$(sed -n 's/^ *"in_reply_to_resolvable": \([0-9]*\).*/\1/p' "$L/$name.stats.json")
	linked=$(q "SELECT count(*) FROM msg c WHERE c.parent IN (SELECT msgid FROM msg)")
	[ "$linked" -ge "$irt" ]; ok $? "$name: $linked replies linked to a parent (In-Reply-To resolvable: $irt)"
	is "$(q "SELECT count(*) FROM msg c JOIN msg p ON p.msgid = c.parent WHERE c.thread != p.thread")" 0 \
	    "$name: each reply shares its parent's thread"
done

# Encoded headers: decoded, in UTF-8, no mojibake, nothing replaced.
MLQ_DB="$TMP/enc.db" "$MLQ" import "$L/encoding-edge.mbox" >/dev/null
eq() { sqlite3 "$TMP/enc.db" "$1"; }
is "$(eq "SELECT count(*) FROM msg WHERE subject LIKE '%=?%?=%' OR from_name LIKE '%=?%?=%'")" 0 \
    "encoding-edge: no encoded word left undecoded"
is "$(eq "SELECT count(*) FROM msg WHERE subject GLOB '*[ÃÂ][€-¿]*' OR from_name GLOB '*[ÃÂ][€-¿]*' OR subject LIKE '%Ã%' OR from_name LIKE '%Ã%'")" 0 \
    "encoding-edge: no UTF-8 decoded twice (mojibake)"
is "$(eq "SELECT count(*) FROM msg WHERE instr(subject, char(65533)) OR instr(from_name, char(65533))")" 0 \
    "encoding-edge: no replacement characters in headers"
# Two UTF-8 Q words, one with lower-case hex, one ISO-8859-1 word beside
# plain text: 4 From lines in the file.
is "$(eq "SELECT count(*) FROM msg WHERE from_name IN ('Andreas Grünbacher', 'Mickaël Salaün', 'Michal Suchánek')")" \
    4 "encoding-edge: names in any encoding decode to the same UTF-8"

# Threads do not depend on arrival order: import the month backwards.
perl -e 'local $/; $_ = <>; my @m = split /^(?=From mboxrd\@z )/m; print reverse @m' \
    "$L/nfs-2021-04.mbox" >"$TMP/rev.mbox"
MLQ_DB="$TMP/fwd.db" "$MLQ" import "$L/nfs-2021-04.mbox" >/dev/null
MLQ_DB="$TMP/rev.db" "$MLQ" import "$TMP/rev.mbox" >/dev/null
part() {
	sqlite3 "$1" "SELECT m.msgid, (SELECT min(o.msgid) FROM msg o WHERE o.thread = m.thread) FROM msg m ORDER BY 1"
}
is "$(part "$TMP/rev.db" | md5sum)" "$(part "$TMP/fwd.db" | md5sum)" "reversed arrival gives the same threads"

# patchwork's mails, corrupt ones included: stored or rejected, never a crash.
"$MLQ" import "$SHARED"/corpus/patchwork-mail/*/* >"$TMP/out" 2>"$TMP/err"
is "$?" 0 "patchwork corpus imports"
is "$(cat "$TMP/out")" "imported 84 new, 71 duplicate, 0 rejected" "patchwork: 155 mails, 84 Message-Ids"

# A limited free-text search walks the newest messages first when the
# word is frequent and reads every match when it is rare: either way the
# answer is the head of the unlimited one.
all=$TMP/all.db
MLQ_DB=$all "$MLQ" import "$L"/*.mbox >/dev/null
for w in the patch nfs kerberos revert zzyzx "s:fix" "b:mount"; do
	for n in 1 7 50; do
		is "$(MLQ_DB=$all "$MLQ" search --limit $n --format json "$w" | jq -c .)" \
		    "$(MLQ_DB=$all "$MLQ" search --format json "$w" | jq -c ".[0:$n]")" \
		    "search --limit $n '$w' is the head of the whole answer"
	done
done

test_done

#!/bin/sh
# Review history on real list mail, read in place from ../shared.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq sqlite3
need_shared

LISTS="$SHARED/corpus/lists"
B4="$SHARED/corpus/b4-samples"

# ---- the 2021 SUNRPC thread: question, NACK, nacked, found by domain ----
export MLQ_DB="$TMP/umn.db"
run_ok "import umn-2019-2021" "$MLQ" import "$LISTS/umn-2019-2021.mbox"
id=$("$MLQ" search --patches --subject "SUNRPC: Add a check for gss_release_msg" \
    --format json | jq -r '[.[] | select(.subject | startswith("[PATCH]"))][0].message_id')
"$MLQ" show --format json "$id" >"$TMP/umn.json"
is "$(jq -r .status "$TMP/umn.json")" nacked "SUNRPC patch: status nacked"
is "$(jq -r '[.replies[] | select(.from.name == "J. Bruce Fields")][0].tags | join(",")' "$TMP/umn.json")" \
    question "SUNRPC patch: J. Bruce Fields's first reply is a question"
is "$(jq -r '[.replies[] | select(.from.name == "Trond Myklebust")][0].tags | join(",")' "$TMP/umn.json")" \
    nack "SUNRPC patch: Trond Myklebust's first reply is a nack"
is "$(jq -r '[.replies[] | select(.from.name == "Trond Myklebust")][0].evidence[0].text' "$TMP/umn.json")" \
    "NACK. There's no double free there." "SUNRPC patch: the line that earned the nack"
is "$("$MLQ" search --from umn.edu --status nacked --format json | jq -r --arg id "$id" \
    '[.[] | select(.message_id == $id)] | length')" 1 \
    "search --from umn.edu --status nacked finds it"
is "$("$MLQ" search --tag nack --patches --format json | jq -r --arg id "$id" \
    '[.[] | select(.message_id == $id)] | length')" 1 "search --tag nack finds it"
"$MLQ" show "$id" >"$TMP/umn.txt"
is "$(sed -n 2p "$TMP/umn.txt")" "status:   nacked" "show: the status on top"
is "$(grep -v '^ *<[^ ]*>$' "$TMP/umn.txt" | awk 'length > 80' | wc -l | tr -d ' ')" 0 \
    "show: fits 80 columns, but for a Message-Id too long to (never cut)"
is "$(jq -r '.missing | length' "$TMP/umn.json")" \
    "$(grep -c '\[missing: not in the archive' "$TMP/umn.txt")" \
    "show: a placeholder for every lost message"

# ---- tags-and-reverts: revert links, Nacked-by ----
export MLQ_DB="$TMP/tr.db"
run_ok "import tags-and-reverts" "$MLQ" import "$LISTS/tags-and-reverts.mbox"
# Reverts whose original is in the file, found independently of the
# engine: a submission whose subject, brackets aside, is the quoted title.
sqlite3 "$MLQ_DB" "
	SELECT r.msgid, o.msgid, EXISTS (SELECT 1 FROM link k WHERE k.src = r.id
	    AND k.dst = o.id AND k.kind = 1)
	FROM msg r JOIN msg o ON o.kind > 0 AND o.id <> r.id AND
	    (lower(o.subject) = lower(r.revert_of) OR
	     lower(o.subject) LIKE '%] ' || lower(r.revert_of))
	WHERE r.kind > 0 AND r.revert_of IS NOT NULL" >"$TMP/reverts"
total=$(wc -l <"$TMP/reverts" | tr -d ' ')
linked=$(grep -c '|1$' "$TMP/reverts")
echo "# reverts with their original in the file: $linked of $total linked"
grep '|0$' "$TMP/reverts" | sed 's/^/# miss: /'
is "$linked/$total" "1/1" "every revert whose original is in the file is linked"
is "$(sqlite3 "$MLQ_DB" "SELECT d.status FROM link k JOIN msg d ON d.id = k.dst
    WHERE k.kind = 1")" 8 "the nested revert's original is reverted"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg WHERE kind > 0 AND
    (tags & 128) = 0 AND (revert_of IS NOT NULL OR subject LIKE '%Revert \"%')")" 0 \
    "every revert submission is tagged revert"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg m WHERE m.kind = 0 AND
    EXISTS (SELECT 1 FROM trailer t WHERE t.msg = m.id AND t.key = 'Nacked-by')
    AND NOT EXISTS (SELECT 1 FROM msg_tag g WHERE g.msg = m.id AND g.tag = 1)")" 0 \
    "every Nacked-by: in a reply's own text yields nack"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg m WHERE m.kind > 0 AND
    (m.status = 7) <> EXISTS (SELECT 1 FROM msg_tag g WHERE g.msg = m.id
    AND g.tag = 1) AND m.status <> 8")" 0 "nacked exactly when tagged nack (or reverted)"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg m WHERE m.tags <>
    (SELECT coalesce(sum(tag), 0) FROM msg_tag g WHERE g.msg = m.id)")" 0 \
    "msg_tag rows match every message's tags"

# ---- the seeds: eight reverts without their originals, one commit ----
export MLQ_DB="$TMP/seeds.db"
"$MLQ" import "$SHARED"/seeds/0*-*.patch "$SHARED"/seeds/0*-*.txt >/dev/null
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg WHERE kind > 0 AND tags & 128")" 8 \
    "seeds: eight reverts tagged revert"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM link WHERE kind IN (1, 2, 3)")" 0 \
    "seeds: their originals are not there, so no links"
is "$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg WHERE kind > 0 AND status <> 1")" 0 \
    "seeds: every submission pending"
cover=$(sqlite3 "$MLQ_DB" "SELECT msgid FROM msg WHERE subject LIKE '[PATCH 000/190]%'")
for id in $(sqlite3 "$MLQ_DB" "SELECT msgid FROM msg WHERE tags & 128 ORDER BY id"); do
	"$MLQ" show --format json "$id" | jq -r .series.cover
done >"$TMP/covers"
is "$(sort -u "$TMP/covers")" "$cover" \
    "seeds: the unthreaded reverts belong to the 000/190 cover letter"
is "$(sqlite3 "$MLQ_DB" "SELECT commit_id FROM msg WHERE subject LIKE 'hwmon: (lm80)%'")" \
    c9c63915519b1def7043b184680f33c24cd49d7b "seeds: the lm80 commit id"

# ---- b4's samples: trailers go to the patch they answer ----
reviewers() { # MBOX MSGID: every *-by of the patch and the replies to it
	export MLQ_DB="$TMP/b4-$(basename "$1" .mbox).db"
	[ -f "$MLQ_DB" ] || "$MLQ" import "$1" >/dev/null
	"$MLQ" show --format json "$2" | jq -r '[.trailers[], .replies[].trailers[]] |
	    map(select(.key != "Signed-off-by" and (.key | endswith("-by")))) |
	    map(.key + ": " + .value) | sort | join("; ")'
}
f="$B4/trailers-followup-with-cover.mbox"
is "$(reviewers "$f" patch-1-message@example.com)" \
    "Reviewed-by: Coverletter Reviewer1 <followup-reviewer1@example.com>; Reviewed-by: Original Reviewer <original-reviewer@example.com>" \
    "b4 with-cover: patch 1 gets the cover letter's trailer"
is "$(reviewers "$f" patch-2-message@example.com)" \
    "Reviewed-by: Coverletter Reviewer1 <followup-reviewer1@example.com>; Reviewed-by: Followup Reviewer1 <followup-reviewer1@example.com>; Reviewed-by: Original Reviewer <original-reviewer@example.com>" \
    "b4 with-cover: patch 2 gets its own follow-up and the cover's"
f="$B4/trailers-thread-with-cover-followup.mbox"
export MLQ_DB="$TMP/b4-trailers-thread-with-cover-followup.db"
"$MLQ" import "$f" >/dev/null
for p in 1 2 3 4; do
	export MLQ_DB="$TMP/b4-trailers-thread-with-cover-followup.db"
	mid=$("$MLQ" search --patches --format json |
	    jq -r --arg p "$p/4]" '.[] | select(.subject | contains($p)) | .message_id')
	want="Reviewed-by: Cover Upper <cover.upper@example.org>"
	[ $p = 4 ] && want="$want; Tested-by: Follow Upper <follow.upper@example.org>"
	is "$(reviewers "$f" "$mid")" "$want" "b4 thread-with-cover-followup: patch $p/4"
done
f="$B4/trailers-followup-partial-reroll.mbox"
export MLQ_DB="$TMP/b4-trailers-followup-partial-reroll.db"
"$MLQ" import "$f" >/dev/null
is "$("$MLQ" search --patches --format json | jq -r 'map(select(.subject | contains("2/2"))) |
    sort_by(.subject) | map(.status) | join(",")')" "superseded,pending" \
    "b4 partial reroll: v2 2/2 superseded by v3 2/2"

test_done

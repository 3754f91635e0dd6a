#!/bin/sh
# The seed documents of the 2021 case: 11 mails and patches, 1 article.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
need jq
S="$SHARED/seeds"

"$MLQ" import "$S"/0* >"$TMP/out" 2>"$TMP/err"
is "$(tail -n 1 "$TMP/out")" "imported 11 new, 0 duplicate, 1 rejected" "seeds: first import"
is "$(cat "$TMP/err")" "mlq: import '$S/000-article.md': message 1: no mail header at the start" \
    "the article is rejected with its position and reason"
"$MLQ" import "$S"/0* >"$TMP/out" 2>/dev/null
is "$(tail -n 1 "$TMP/out")" "imported 0 new, 11 duplicate, 1 rejected" "seeds: second import adds nothing"

is "$("$MLQ" search --from umn.edu --format jsonl | jq -r .subject)" \
    "[PATCH] SUNRPC: Add a check for gss_release_msg" "search --from umn.edu finds exactly the SUNRPC patch"

"$MLQ" search --addr umn.edu --format jsonl | jq -r .subject | sort >"$TMP/addr"
for f in "$S"/00[2-9]-* "$S"/010-*; do
	sed -n 's/^Subject: //p' "$f" | head -n 1
done | sort >"$TMP/want"
is "$(cat "$TMP/addr")" "$(cat "$TMP/want")" "search --addr umn.edu: the patch and the 8 reverts with umn.edu Cc: trailers"

# show of each revert: files and +/- counts exactly as its diffstat says.
for f in "$S"/00[2-9]-*; do
	subj=$(sed -n 's/^Subject: //p' "$f" | head -n 1)
	id=$("$MLQ" search --addr umn.edu --format jsonl | jq -r --arg s "$subj" 'select(.subject == $s) | .message_id')
	"$MLQ" show --format json "$id" >"$TMP/show"
	got=$(jq -r '"\(.files | join(",")) +\(.insertions) -\(.deletions)"' "$TMP/show")
	files=$(sed -n 's/^ \([^ ]*\) *| .*/\1/p' "$f" | paste -sd, -)
	ins=$(sed -n 's/.* \([0-9]*\) insertions\{0,1\}(+).*/\1/p' "$f")
	del=$(sed -n 's/.* \([0-9]*\) deletions\{0,1\}(-).*/\1/p' "$f")
	is "$got" "$files +${ins:-0} -${del:-0}" "show $(basename "$f" | cut -c1-3): files and counts match the diffstat"
done

id=$("$MLQ" search --subject lm80 --format jsonl | jq -r .message_id)
is "$("$MLQ" show --format json "$id" | jq -r '"\(.from.name)|\(.date)|\(.files[0])|\(.insertions)|\(.deletions)"')" \
    "Kangjie Lu|2018-12-21T00:00:00Z|drivers/hwmon/lm80.c|10|5" "git show output is read as a mail"
case $id in *@mlq.synthetic) ok 0 "a seed without Message-Id gets a synthetic one" ;;
*) ok 1 "a seed without Message-Id gets a synthetic one" ;; esac

test_done

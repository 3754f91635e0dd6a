#!/bin/sh
# The query language (lore's) and the search flags, end to end: what each
# operator and prefix finds, what is refused, and what the lines show.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq sqlite3

"$MLQ" import "$top_srcdir/tests/fixtures/query/q.mbox" >/dev/null
ok $? "import"

ids() { "$MLQ" search --format ids "$@" | sort | paste -sd' ' -; }
is "$(ids s:sunrpc)" "p1@umn.edu r1@kroah.example" "s: the subject"
is "$(ids s:sunrpc OR s:revert)" \
    "p1@umn.edu p2@cs.umn.edu r1@kroah.example" "OR"
is "$(ids 's:sunrpc OR s:revert')" \
    "p1@umn.edu p2@cs.umn.edu r1@kroah.example" "OR in one argument"
is "$(ids s:sunrpc NOT nack)" "p1@umn.edu" "NOT"
is "$(ids s:sunrpc -nack)" "p1@umn.edu" "a leading -"
is "$(ids -- -nack)" "p1@umn.edu p2@cs.umn.edu p3@oracle.example" \
    "a NOT alone"
is "$(ids '(s:revert OR s:locks) f:oracle.example')" "p3@oracle.example" \
    "parentheses"
is "$(ids 'free AND use')" "p1@umn.edu p3@oracle.example" "AND"
is "$(ids '"use after free"')" "p1@umn.edu" \
    "a phrase: its words in order (p3 has them apart)"
is "$(ids '"free after use"')" "" "a phrase: not in another order"
is "$(ids 'use-after-free')" "p1@umn.edu" \
    "a word with marks inside is a phrase of its parts"
is "$(ids 'lock*')" "p3@oracle.example r1@kroah.example" "word*"
is "$(ids b:nack)" "r1@kroah.example" "b: the body"
is "$(ids f:umn.edu)" "p1@umn.edu p2@cs.umn.edu" "f: a domain and its subdomains"
is "$(ids f:Pakki)" "p2@cs.umn.edu" "f: a word of the author's name"
is "$(ids f:Lu s:sunrpc)" "p1@umn.edu" "f: a short name word is a whole word"
is "$(ids t:netdev@vger.kernel.org)" "p3@oracle.example" "t: an address"
is "$(ids a:kjlu@umn.edu)" "p1@umn.edu r1@kroah.example" "a: any address"
is "$(ids l:netdev)" "p3@oracle.example" "l: the list"
is "$(ids m:p2@cs.umn.edu)" "p2@cs.umn.edu" "m: the Message-Id"
is "$(ids 'm:<p2@cs.umn.edu>')" "p2@cs.umn.edu" "m: with brackets"
is "$(ids dfn:net/sunrpc)" "p1@umn.edu" "dfn: a directory of the diff"
is "$(ids d:20210402..20210403)" "p2@cs.umn.edu r1@kroah.example" \
    "d: both ends included"
is "$(ids d:2021-04-10..)" "p3@oracle.example" "d: open end"
is "$(ids status:nacked)" "p1@umn.edu" "status:"
is "$(ids tag:nack)" "p1@umn.edu r1@kroah.example" "tag: a reply's, and its submission's"
is "$(ids is:patch f:umn.edu)" "p1@umn.edu p2@cs.umn.edu" "is:patch"
pid=$(sqlite3 "$MLQ_DB" "SELECT patch_id FROM msg WHERE msgid = 'p1@umn.edu'")
is "$(ids "patchid:$pid")" "p1@umn.edu" "patchid:"

# Flags: a repeat ORs, different flags AND.
is "$(ids --from umn.edu --from oracle.example --patches)" \
    "p1@umn.edu p2@cs.umn.edu p3@oracle.example" "--from twice: either"
is "$(ids --from umn.edu --list netdev)" "" "different flags: both"
is "$(ids --since 20210403 --until 2021-04-03)" "p2@cs.umn.edu" \
    "--since and --until take YYYYMMDD and include the day"

# Refused: exit 2, one line naming the part, and nothing searched.
refused() {
	"$MLQ" search "$@" >"$TMP/out" 2>"$TMP/err"
	is "$?:$(wc -l <"$TMP/out"):$(cat "$TMP/err")" "2:0:$want" "refused: $*"
}
want="mlq: query: unknown prefix 'from:'" refused from:umn.edu
want="mlq: query: unbalanced parenthesis at '(s:revert OR s:locks'" \
    refused '(s:revert OR s:locks'
want="mlq: query: unbalanced quote in '\"use after'" refused '"use after'
want="mlq: query: empty term 's:'" refused s:
want="mlq: query: no term after 's:revert OR'" refused s:revert OR
want="mlq: search: empty value for --from" refused --from ''
want="mlq: search: unknown status 'bogus' (one of: pending, questioned, reviewed, changes-requested, superseded, applied, nacked, reverted, merged)" refused --status bogus

# Lines end with the whole Message-Id; mbox is in date order.
"$MLQ" search s:revert >"$TMP/line"
is "$(cat "$TMP/line")" \
    "2021-04-03  pending            Aditya Pakki <pakki001@cs.umn.edu>  [PATCH] Revert \"nfsd: fix a leak\"  <p2@cs.umn.edu>" \
    "a text line: date, status, author, subject, Message-Id"
"$MLQ" search --format mbox f:umn.edu OR f:kroah.example |
    sed -n 's/^Message-I[Dd]: //p' >"$TMP/order"
is "$(paste -sd' ' "$TMP/order")" "<p1@umn.edu> <r1@kroah.example> <p2@cs.umn.edu>" \
    "--format mbox: oldest first"
"$MLQ" search --format mbox --limit 2 f:umn.edu OR f:kroah.example |
    sed -n 's/^Message-I[Dd]: //p' >"$TMP/order"
is "$(paste -sd' ' "$TMP/order")" "<r1@kroah.example> <p2@cs.umn.edu>" \
    "--limit 2 with mbox: the newest two, oldest first"

# --links: the public-inbox URL where the list comes from one.
printf '[source "nfs"]\nurl = https://lore.kernel.org/linux-nfs/\nlist = linux-nfs\n' >"$MLQ_CONFIG"
"$MLQ" search --links s:revert >"$TMP/line"
is "$(sed 's/.*  //' "$TMP/line")" "https://lore.kernel.org/linux-nfs/p2@cs.umn.edu/" \
    "--links: the message's lore URL"
"$MLQ" search --links l:netdev >"$TMP/line"
is "$(sed 's/.*  //' "$TMP/line")" "<p3@oracle.example>" \
    "--links: the id where the list has no web source"
: >"$MLQ_CONFIG"

# A message by any name a maintainer pastes: <ID>, id:, m:, lore URLs.
for arg in '<p1@umn.edu>' id:p1@umn.edu m:p1@umn.edu \
    https://lore.kernel.org/linux-nfs/p1@umn.edu/T/#u \
    https://lore.kernel.org/r/p1@umn.edu https://msgid.link/p1@umn.edu; do
	"$MLQ" show "$arg" >"$TMP/show" 2>&1
	is "$?:$(sed -n 's/^id: *//p' "$TMP/show")" "0:<p1@umn.edu>" "show $arg"
done
"$MLQ" thread https://lore.kernel.org/all/r1@kroah.example/ >"$TMP/thread"
is "$(sed 's/.*  //' "$TMP/thread" | paste -sd' ' -)" "<p1@umn.edu> <r1@kroah.example>" \
    "thread takes a URL; each node ends with its Message-Id"
"$MLQ" show https://lore.kernel.org/ >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlq: show: no Message-Id in 'https://lore.kernel.org/' (give ID, <ID>, id:ID or a public-inbox URL)" \
    "a URL that names no message: exit 2"

# The author of a patch someone else sends on is its in-body From, as
# git am reads it; the sender is named, not the author.
"$MLQ" import "$top_srcdir/tests/fixtures/query/backport.eml" >/dev/null
is "$(ids --from umn.edu --patches)" "p1@umn.edu p2@cs.umn.edu p4@kroah.example" \
    "--from finds the patch by its in-body author"
is "$(ids f:kroah.example)" "r1@kroah.example" "not by who sent it on"
is "$(ids a:greg@kroah.example)" "p4@kroah.example r1@kroah.example" \
    "a: names the sender too"
is "$(ids t:stable@vger.kernel.org)" "p4@kroah.example" "t: the To header"
is "$(ids t:hammerspace.example)" "" "t: not Cc"
is "$(ids c:hammerspace.example)" "p1@umn.edu" "c: the Cc header"
is "$(ids tc:hammerspace.example)" "p1@umn.edu" "tc: either"
json() { "$MLQ" search --format jsonl m:p4@kroah.example |
    jq -c '[.from.email, .sender.email]'; }
is "$(json)" '["kjlu@umn.edu","greg@kroah.example"]' "JSON: author and sender"
is "$("$MLQ" search --format jsonl m:p1@umn.edu | jq -c .sender)" null \
    "no sender where the author sent it"
"$MLQ" search m:p4@kroah.example >"$TMP/line"
is "$(cut -c32-73 "$TMP/line")" "Kangjie Lu <kjlu@umn.edu>  [PATCH 5.10 01/" \
    "text shows the author"
sqlite3 "$MLQ_DB" "UPDATE msg SET author_name = NULL, author_email = NULL"
"$MLQ" reindex >/dev/null 2>&1
is "$(json)" '["kjlu@umn.edu","greg@kroah.example"]' "reindex derives them again"

test_done

#!/bin/sh
# Our own small mails: domains, escapes, charsets, MIME, order, exit codes.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq
F="$top_srcdir/tests/fixtures/mail"

"$MLQ" import "$F/latin1-qp.eml" >/dev/null
"$MLQ" import "$F/parent-late.eml" "$F/autumn.eml" "$F/subdomain.eml" \
    "$F/escape.eml" "$F/attach-b64.eml" "$F/no-msgid.eml" >"$TMP/out"
is "$(cat "$TMP/out")" "imported 6 new, 0 duplicate, 0 rejected" "fixtures import"

ids() { "$MLQ" search "$@" --format jsonl | jq -r .message_id | sort | paste -sd' ' -; }
is "$(ids --from umn.edu)" "subdomain-1@cs.umn.edu" "a domain matches its subdomains, case-insensitively"
is "$(ids --from @UMN.edu)" "subdomain-1@cs.umn.edu" "@domain works the same"
is "$(ids --from bob@cs.umn.edu)" "subdomain-1@cs.umn.edu" "a full address matches"
is "$(ids --from autumn.edu)" "autumn-1@autumn.edu" "autumn.edu is its own domain"
is "$(ids --from edu)" "autumn-1@autumn.edu subdomain-1@cs.umn.edu" "a top-level domain covers both"
is "$(ids --addr joerg@sample.test)" "latin1-qp-1@sample.test" "--addr matches a Reviewed-by trailer"

"$MLQ" search --from evil.sample.test >"$TMP/text"
ok "$(grep -c "$(printf '\033')" "$TMP/text")" "no escape byte from a Subject reaches the terminal"
is "$(cut -c32- "$TMP/text")" 'Mallory <mallory@evil.sample.test>  \e]0;owned\x07\e[31mred\e[0m  <escape-1@evil.sample.test>' "control characters are shown escaped"
is "$("$MLQ" search --from evil.sample.test --format jsonl | jq .subject)" \
    '"\u001b]0;owned\u0007\u001b[31mred\u001b[0m"' "JSON keeps the subject exact, escaped as JSON"

"$MLQ" show --format json latin1-qp-1@sample.test >"$TMP/q"
is "$(jq -r '"\(.from.name)|\(.subject)"' "$TMP/q")" "Jörg Müller|Re: [PATCH] für die Größe" \
    "RFC 2047 ISO-8859-1 words decode to UTF-8"
is "$("$MLQ" show --format json '<parent-late@sample.test>' | jq -r '[.replies[].message_id] | join(" ")')" \
    "latin1-qp-1@sample.test" "a reply stored before its parent is linked when the parent arrives"
is "$("$MLQ" thread --format json parent-late@sample.test | jq -r '.[0].children[0].message_id')" \
    "latin1-qp-1@sample.test" "thread shows the reply under its parent"

is "$("$MLQ" show --format json attach-1@sample.test | jq -c '[.files, .insertions, .deletions]')" \
    '[["tools/frob.sh"],2,0]' "a base64 text/x-patch attachment is found"

syn=$("$MLQ" search --subject 'no Message-Id' --format jsonl | jq -r .message_id)
"$MLQ" import - <"$F/no-msgid.eml" >"$TMP/out"
is "$(cat "$TMP/out")" "imported 0 new, 1 duplicate, 0 rejected" "same bytes on stdin, same synthetic id"
case $syn in *@mlq.synthetic) ok 0 "synthetic id: $syn" ;; *) ok 1 "synthetic id: $syn" ;; esac

"$MLQ" import "$F/not-mail.txt" >"$TMP/out" 2>"$TMP/err"
is "$(cat "$TMP/out")" "imported 0 new, 0 duplicate, 1 rejected" "text that is not mail is rejected"
is "$(cat "$TMP/err")" "mlq: import '$F/not-mail.txt': message 1: no mail header at the start" "with its reason"

# Free text, files, dates.
is "$(ids frob)" "attach-1@sample.test" "free text finds words in an attached patch"
is "$(ids 'tools/frob.sh')" "attach-1@sample.test" "a word the tokenizer cuts is searched as its tokens"
is "$(ids 'tool*')" "attach-1@sample.test" "a trailing * is a prefix search"
is "$(ids '"NEAR(' 'OR' 'x)')" "" "FTS5 syntax in a query is only text"
is "$(ids 'b:köln')" "latin1-qp-1@sample.test" "b: searches decoded bodies, diacritics folded"
is "$(ids s:lookalike)" "" "s: searches only subjects"
is "$(ids --file tools)" "attach-1@sample.test" "--file matches a directory"
is "$(ids dfn:Documentation/widget.rst)" "autumn-1@autumn.edu" "dfn: matches a file"
is "$(ids --since 2021-03-04 --until 2021-03-04)" "latin1-qp-1@sample.test" "--since/--until take whole days"
is "$("$MLQ" search --patches --since 2021-03-05 --format jsonl | jq -r .subject | sort | paste -sd'|' -)" \
    "[PATCH] a patch with no Message-Id|[PATCH] tools: add the frob script" "--patches selects submissions"
is "$("$MLQ" search --limit 1 --format json | jq -r '.[].message_id')" "$(ids --patches --since 2021-03-06)" \
    "--limit 1 gives the newest"
# A limit picks the hits before looking up their lists: the same rows.
is "$("$MLQ" search --limit 3 --format json | jq -c .)" \
    "$("$MLQ" search --format json | jq -c '.[0:3]')" \
    "--limit 3 is the first three of the whole answer, lists and all"
# Mail with no usable date sorts last, also when a limited search reads
# the text index newest day first: its rowids run by day, then by id,
# which within a day is not time order (a message written earlier in the
# day after a later one), and a day boundary, dates before 1970 and a
# tie on the date (then the higher id first) must come out right.
n=0
for d in "Mon, 01 Mar 2021 23:00:00 +0000" "Mon, 01 Mar 2021 01:00:00 +0000" \
    "" "Tue, 02 Mar 2021 00:00:00 +0000" "Mon, 01 Mar 2021 23:59:59 +0000" \
    "Wed, 31 Dec 1969 23:59:59 +0000" "Thu, 01 Jan 1970 00:00:00 +0000" \
    "Sat, 01 Jan 1966 12:00:00 +0000" "" "Mon, 01 Mar 2021 23:00:00 +0000"; do
	n=$((n + 1))
	printf 'From x Thu Jan  1 00:00:00 1970\nFrom: A <a@example.org>\n'
	[ -n "$d" ] && printf 'Date: %s\n' "$d"
	printf 'Message-Id: <undated-%s@example.org>\nSubject: quokka %s\n\nquokka\n\n' "$n" "$n"
done >"$TMP/undated.mbox"
MLQ_DB=$TMP/undated.db "$MLQ" import "$TMP/undated.mbox" >/dev/null
is "$(MLQ_DB=$TMP/undated.db "$MLQ" search --format json quokka | jq -r '.[].message_id' | sed 's/@example.org//' | tr '\n' ' ')" \
    "undated-4 undated-5 undated-10 undated-1 undated-2 undated-7 undated-6 undated-8 undated-9 undated-3 " \
    "newest first, a tie by id, the undated ones last"
for n in 1 2 3 4 5 6 7 8 9 10 11; do
	is "$(MLQ_DB=$TMP/undated.db "$MLQ" search --limit $n --format json quokka | jq -c .)" \
	    "$(MLQ_DB=$TMP/undated.db "$MLQ" search --format json quokka | jq -c ".[0:$n]")" \
	    "--limit $n quokka is the head of the whole answer"
done

# mbox output re-imports to the very same messages.
"$MLQ" search --format mbox >"$TMP/all.mbox"
MLQ_DB="$TMP/copy.db" "$MLQ" import "$TMP/all.mbox" >"$TMP/out"
is "$(cat "$TMP/out")" "imported 7 new, 0 duplicate, 0 rejected" "--format mbox round-trips"
is "$(MLQ_DB="$TMP/copy.db" "$MLQ" search --format jsonl | jq -r .message_id | sort)" \
    "$("$MLQ" search --format jsonl | jq -r .message_id | sort)" "with the same Message-Ids"
gzip -c "$TMP/all.mbox" >"$TMP/all.mbox.gz"
is "$(MLQ_DB="$TMP/gz.db" "$MLQ" import "$TMP/all.mbox.gz")" "imported 7 new, 0 duplicate, 0 rejected" "gzip mbox"

# Exit codes: 1 nothing found, 2 bad usage or input, 3 runtime failure.
"$MLQ" search --from nobody.example >/dev/null; is "$?" 1 "no hit: exit 1"
"$MLQ" show missing@nowhere >/dev/null 2>&1; is "$?" 1 "unknown message: exit 1"
"$MLQ" search --status bogus >/dev/null 2>"$TMP/err"; is "$?" 2 "unknown status: exit 2"
is "$(head -n 1 "$TMP/err" | cut -d'(' -f1)" "mlq: search: unknown status 'bogus' " "one clear line"
"$MLQ" search --since 2021-13-01 >/dev/null 2>&1; is "$?" 2 "bad date: exit 2"
"$MLQ" frobnicate >/dev/null 2>&1; is "$?" 2 "unknown command: exit 2"
MLQ_DB="$TMP/none/x.db" "$MLQ" search >/dev/null 2>"$TMP/err"; is "$?" 3 "no database: exit 3"
"$MLQ" import "$TMP/does-not-exist" >/dev/null 2>"$TMP/err"; is "$?" 3 "unreadable source: exit 3"

test_done

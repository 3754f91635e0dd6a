#!/bin/sh
# mlq who over the review fixtures: counts agree with search, rates and
# the median time to first review are exact.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq

FIX="$top_srcdir/tests/fixtures/review"
run_ok "import the review fixtures" "$MLQ" import "$FIX"/*.mbox "$FIX"/*.txt

"$MLQ" who --format json example.org >"$TMP/org.json"
is "$(jq -r .submissions "$TMP/org.json")" 28 "example.org: 28 submissions"
is "$(jq -r '[.by_status[]] | add' "$TMP/org.json")" 28 "statuses add up"
for s in pending questioned reviewed changes-requested superseded applied nacked reverted; do
	n=$("$MLQ" search --from example.org --status "$s" --format json | jq length)
	is "$(jq -r --arg s "$s" '.by_status[$s]' "$TMP/org.json")" "$n" \
	    "example.org: $s as search counts it"
done
is "$(jq -c '.by_status' "$TMP/org.json")" \
    '{"pending":7,"questioned":1,"reviewed":5,"changes-requested":2,"superseded":4,"applied":4,"nacked":1,"reverted":4,"merged":0}' \
    "example.org: by status"
is "$(jq -c '[.rates.nack.count, .rates.revert.count, .rates.later_fixed.count]' "$TMP/org.json")" \
    "[1,4,2]" "example.org: nacked, reverted (the nacked revert aside), fixed later"
is "$(jq -r '.rates.revert.rate' "$TMP/org.json")" 0.1429 "example.org: revert rate"
is "$(jq -r '.median_first_review_seconds' "$TMP/org.json")" 14400 \
    "example.org: median first review 4h over 17 answered"
is "$(jq -r '.reviewed' "$TMP/org.json")" 17 "example.org: 17 answered by others"
is "$(jq -r '.recent | length' "$TMP/org.json")" 10 "ten most recent by default"
is "$(jq -r '.recent[0].message_id' "$TMP/org.json")" ux-1@example.org \
    "the newest first"

"$MLQ" who --format json carl@example.com >"$TMP/carl.json"
is "$(jq -c '[.submissions, .by_status.nacked, .by_status.pending, .median_first_review_seconds]' \
    "$TMP/carl.json")" "[4,1,3,10800]" "carl@example.com: one address"
is "$("$MLQ" who --since 2021-03-20 --format json example.org | jq -r .submissions)" 2 \
    "--since narrows by date"
"$MLQ" who --limit 3 example.org >"$TMP/org.txt"
is "$(sed -n 1p "$TMP/org.txt")" "who:          example.org" "text: who"
is "$(grep -c '^  2021-' "$TMP/org.txt")" 3 "text: --limit 3 recent lines"
is "$(awk 'length > 80' "$TMP/org.txt" | wc -l | tr -d ' ')" 0 "text: 80 columns"
is "$("$MLQ" who example.org --format json | jq -r .submissions)" 28 \
    "options may follow the address"
"$MLQ" who nobody.example >/dev/null
is $? 1 "nobody: exit 1"
"$MLQ" who >/dev/null 2>&1
is $? 2 "no argument: exit 2"

test_done

#!/bin/sh
# [identity] mailmap: one person, several addresses.  The author is the
# person the mailmap names; his own question from his other address is
# not a question to him; who and search follow; reindex reapplies it.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq

FIX="$top_srcdir/tests/fixtures/mailmap"

# Without a mailmap the two addresses (and names) are two people.
run_ok "import without a mailmap" "$MLQ" import "$FIX/people.mbox"
is "$("$MLQ" show --format json mm-p@example.org | jq -r .status)" questioned \
    "without: his own question from his other address counts"
is "$("$MLQ" digest --since 2021-04-01 --until 2021-04-20 --format json |
    jq -r '.questions | length')" 1 "without: the digest lists it as open"

export MLQ_DB="$TMP/mapped.db"
cp "$FIX/kernel.mailmap" "$TMP/mailmap"
printf '[identity]\nmailmap = %s\n' "$TMP/mailmap" >"$MLQ_CONFIG"
run_ok "import with a mailmap" "$MLQ" import "$FIX/people.mbox"
"$MLQ" show --format json mm-p@example.org >"$TMP/p.json"
is "$(jq -r '"\(.from.name) <\(.from.email)>"' "$TMP/p.json")" \
    "J. Bruce Fields <bfields@fieldses.org>" "the author is the mapped person"
is "$(jq -r .status "$TMP/p.json")" pending \
    "his own question is no question to him"
is "$(jq -r '.replies[0].tags | length' "$TMP/p.json")" 0 "the reply has no tag"
is "$("$MLQ" who --format json bfields@fieldses.org | jq -r .submissions)" 1 \
    "who counts the patch sent from the other address"
is "$("$MLQ" search --from bfields@redhat.com --format json | jq -r '.[].message_id')" \
    mm-p@example.org "--from still finds it by the address it was sent from"
is "$("$MLQ" digest --since 2021-04-01 --until 2021-04-20 --format json |
    jq -r '.questions | length')" 0 "the digest lists no open question of his"

# A mailmap changed: reindex applies the new one to every message.
: >"$TMP/mailmap"
run_ok "reindex with an empty mailmap" "$MLQ" reindex
is "$("$MLQ" show --format json mm-p@example.org | jq -r .status)" questioned \
    "reindex: two people again"

printf '[identity]\nmailmap = %s\n' "$TMP/absent" >"$MLQ_CONFIG"
"$MLQ" import "$FIX/people.mbox" >/dev/null 2>"$TMP/err"
is "$?" 2 "a missing mailmap stops the import"
is "$(wc -l <"$TMP/err" | tr -d ' ')" 1 "in one line"
test_done

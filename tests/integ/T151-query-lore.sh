#!/bin/sh
# mlq search against public-inbox's own search on a real list, served by
# public-inbox-httpd: each query gives the same messages, or the rule of
# doc/query.md that explains why not (tests/fixtures/query/lore-queries.txt).
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/pi.sh"
need python3
need_shared
list=$SHARED/corpus/lists/nfs-2021-04.mbox

pi_init nfs || { skip_all "public-inbox-init failed"; }
pi_add_list nfs "$list" || { cat "$PI/add.err"; skip_all "public-inbox import failed"; }
pi_start httpd || skip_all "public-inbox-httpd did not start"
"$MLQ" import "$list" >/dev/null || { echo "Bail out! import failed"; exit 1; }
python3 "$top_srcdir/tests/lib/lore_diff.py" "http://127.0.0.1:$HTTP_PORT/nfs/" \
    "$MLQ" "$top_srcdir/tests/fixtures/query/lore-queries.txt"

#!/bin/sh
# The README's examples are what mlq prints on the sample archive
# (tests/lib/readme_examples.py; MLQ_README_WRITE=1 rewrites them).
. "$top_srcdir/tests/lib/test-lib.sh"
need python3
"$MLQ" import --list netdev "$top_srcdir/contrib/sample/northfield.mbox" >/dev/null ||
    { echo "Bail out! import failed"; exit 1; }
python3 "$top_srcdir/tests/lib/readme_examples.py" "$top_srcdir/README.md" "$MLQ" \
    ${MLQ_README_WRITE:+--write}

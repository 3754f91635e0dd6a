#!/bin/sh
# The fuzz targets over every fixture and the broken-mail corpora: under
# the sanitizer build, any memory error or undefined behaviour fails here.
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
C="$SHARED/corpus"
for t in msg mbox; do
	out=$("$top_builddir/tests/fuzz/replay-$t" "$top_srcdir/tests/fixtures" \
	    "$C/patchwork-mail" "$C/notmuch" "$C/b4-samples" "$SHARED/seeds" 2>&1)
	rc=$?
	case $out in "replayed "*" inputs") ok $rc "fuzz-$t: $out" ;;
	*) ok 1 "fuzz-$t"; printf '%s\n' "$out" | sed 's/^/# /' ;; esac
done
test_done

#!/bin/sh
# mlq's patch id against `git patch-id --stable` on the real patch files
# of ../shared/corpus/patches (buildroot, an OpenWrt fork): every fifth
# file, the first id git prints.  Files git finds no diff in (quilt's
# "--- a/" alone) must have none from mlq either.
. "$top_srcdir/tests/lib/test-lib.sh"
need git
need_shared
P="$SHARED/corpus/patches"

find "$P" -type f -name '*.patch' | LC_ALL=C sort | awk 'NR % 5 == 1' \
    >"$TMP/files"
n=$(wc -l <"$TMP/files")
tr '\n' '\0' <"$TMP/files" | xargs -0 "$top_builddir/tests/helpers/patch-id" \
    >"$TMP/mlq"
git_ids() {
	while read -r f; do
		git patch-id --stable <"$f" | sed -n '1s/ .*//p' | grep . || echo none
	done <"$TMP/files"
}
cached "T158 $(git --version) $(cksum <"$0") $(tr '\n' '\0' <"$TMP/files" |
    xargs -0 ls -lL --time-style=+%s | cksum)" git_ids >"$TMP/git"
is "$(wc -l <"$TMP/git")" "$n" "git gave an answer for each of the $n files"
paste "$TMP/git" "$TMP/mlq" "$TMP/files" | awk -F'\t' '
	$1 != "none" { ids++ } $1 == $2 { same++ }
	$1 != $2 { print "# differ: " $3 " git " $1 " mlq " $2 }
	END { printf "# %d files, %d with a patch id; mlq agrees on %d\n",
	    NR, ids, same }' >"$TMP/report"
cat "$TMP/report"
grep -q '^# differ' "$TMP/report"
ok "$((! $?))" "mlq's patch id is git's on every file, and none where git has none"
test_done

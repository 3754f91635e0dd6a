#!/bin/sh
# mlq's patch id is `git patch-id --stable` of the diff, as git reads the
# mail (git mailinfo decodes it first): on every patch of two real lists.
. "$top_srcdir/tests/lib/test-lib.sh"
need git sqlite3
need_shared
L=$SHARED/corpus/lists

run_ok "import" "$MLQ" import "$L/nfs-2021-04.mbox" "$L/iwl-2021-04.mbox"
mkdir "$TMP/split"
"$MLQ" search --format mbox is:patch >"$TMP/patches.mbox"
n=$(git mailsplit -o"$TMP/split" "$TMP/patches.mbox")
ok $? "git mailsplit: $n mails"
# "Message-Id<TAB>patch id" of every mail, as git reads it: the oracle's
# answer, kept for the suite's second run.
git_ids() {
	for f in "$TMP"/split/*; do
		id=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p;/^$/q' "$f" | head -n 1)
		git mailinfo "$TMP/msg" "$TMP/patch" <"$f" >/dev/null 2>&1
		printf '%s\t%s\n' "$id" \
		    "$(git patch-id --stable <"$TMP/patch" | head -n 1 | cut -d' ' -f1)"
	done
}
cached "T152 $(git --version) $(cksum <"$0") $(cksum <"$TMP/patches.mbox")" \
    git_ids >"$TMP/git"
sqlite3 -separator '	' "$MLQ_DB" "SELECT msgid, coalesce(patch_id, '') FROM msg" \
    >"$TMP/mlq"
awk -F'\t' -v counts="$TMP/counts" 'NR == FNR { m[$1] = $2; next }
	{ got = ($1 in m) ? m[$1] : "" }
	got == $2 && got != "" { same++ } got == $2 && got == "" { none++ }
	got != $2 { differ++; printf "# %s: mlq '\''%s'\'', git '\''%s'\''\n", $1, got, $2 }
	END { printf "same=%d none=%d differ=%d\n", same, none, differ >counts }' \
    "$TMP/mlq" "$TMP/git"
read -r counts <"$TMP/counts"
same=${counts#same=}; same=${same%% *}
none=${counts#* none=}; none=${none%% *}
differ=${counts##*differ=}
echo "# $same patch ids as git's, $none without a diff for either, $differ differ"
ok $((differ != 0 || same < 300)) "every patch id is git's ($same)"

test_done

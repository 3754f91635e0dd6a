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
same=0 differ=0 none=0
for f in "$TMP"/split/*; do
	id=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p;/^$/q' "$f" | head -n 1)
	git mailinfo "$TMP/msg" "$TMP/patch" <"$f" >/dev/null 2>&1
	want=$(git patch-id --stable <"$TMP/patch" | head -n 1 | cut -d' ' -f1)
	q=$(printf '%s' "$id" | sed "s/'/''/g")
	got=$(sqlite3 "$MLQ_DB" "SELECT coalesce(patch_id, '') FROM msg WHERE msgid = '$q'")
	if [ "$got" = "$want" ]; then
		if [ -n "$got" ]; then same=$((same + 1)); else none=$((none + 1)); fi
	else
		differ=$((differ + 1))
		echo "# $id: mlq '$got', git '$want'"
	fi
done
echo "# $same patch ids as git's, $none without a diff for either, $differ differ"
ok $((differ != 0 || same < 300)) "every patch id is git's ($same)"

test_done

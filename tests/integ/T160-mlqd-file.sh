#!/bin/sh
# Local sources: an mbox re-read from where its last complete message
# ended, a maildir by modification time; appended mail arrives once.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

FIX="$top_srcdir/tests/fixtures/daemon"
mbox() {
	for _f in "$@"; do
		echo "From mlq@test Thu Jan  1 00:00:00 1970"
		sed 's/^\(>*From \)/>\1/' "$_f"
		echo
	done
}
mbox "$FIX"/a1.eml "$FIX"/a2.eml >"$TMP/list.mbox"
mkdir -p "$TMP/md/new" "$TMP/md/cur" "$TMP/md/tmp"
cp "$FIX"/a3.eml "$TMP/md/cur/1.host:2,S"

cat >"$MLQ_CONFIG" <<EOC
[source "box"]
url = $TMP/list.mbox
[source "dir"]
url = $TMP/md
EOC
run_ok "mlqd --once" "$MLQD" --once
is "$(stored_ids | tr '\n' ' ')" \
    "daemon-a1@example.org daemon-a3@example.de question/rds+1@example.net " \
    "mbox and maildir read"
is "$(source_field box kind) $(source_field dir kind)" "mbox maildir" "kinds"
size=$(wc -c <"$TMP/list.mbox")
is "$(source_field box cursor | sed 's/.* //')" "off=$size" \
    "the mbox cursor is the end of its last message"

live_msg appended "$TMP/app.eml"
mbox "$TMP/app.eml" >>"$TMP/list.mbox"
# Half a message at the end (a writer still at it) waits for its end.
printf 'From mlq@test Thu Jan  1 00:00:00 1970\nMessage-ID: <half@x>' \
    >>"$TMP/list.mbox"
live_msg dropped "$TMP/drop.eml"
cp "$TMP/drop.eml" "$TMP/md/new/2.host"
run_ok "--once again" "$MLQD" --once
is "$(stored_ids | wc -l)" 5 "the appended and the delivered message, once"
has_id appended@example.com
ok $? "appended mbox message"
has_id half@x
ok "$((! $?))" "a half-written last message is left for later"

printf '\nSubject: half\n\nbody\n' >>"$TMP/list.mbox"
run_ok "--once once more" "$MLQD" --once
has_id half@x
ok $? "finished, it is read"
is "$(stored_ids | wc -l)" 6 "nothing twice"

# A replaced mbox (new inode) is read from the start; duplicates collapse.
mbox "$FIX"/a1.eml >"$TMP/new.mbox"
mv "$TMP/new.mbox" "$TMP/list.mbox"
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 0 "a replaced mbox"
grep -q "was replaced or truncated" "$TMP/out"
ok $? "is noticed"
is "$(stored_ids | wc -l)" 6 "and adds nothing twice"

rm "$TMP/list.mbox"
"$MLQD" --once >"$TMP/out" 2>&1
is "$?" 3 "a missing mbox fails the poll"
case $(source_field box last_error) in
*"No such file"*) ok 0 "visible in mlq sources" ;;
*) ok 1 "visible in mlq sources" ;;
esac

test_done

#!/bin/sh
# mlq am against Debian's b4 am (-t: cover letter trailers for every
# patch) on real series and single patches with trailers in replies:
# the same patches in the same order, with the same commit messages
# (trailers included), as git mailinfo reads each (tests/fixtures/am).
. "$top_srcdir/tests/lib/test-lib.sh"
need b4 git perl
need_shared
L=$SHARED/corpus/lists
cases=$top_srcdir/tests/fixtures/am/b4-cases.txt

"$MLQ" import "$L/iwl-2021-04.mbox" "$L/nfs-2021-04.mbox" \
    "$L/lak-2019-11-wk1.mbox" >/dev/null
ok $? "import three lists"
printf '[b4]\n\tattestation-policy = off\n[user]\n\tname = T\n\temail = t@example.org\n' \
    >"$HOME/.gitconfig"

# b4 0.12 (Python's email) refuses folded headers: it reads them unfolded.
unfold() {
	perl -ne 'BEGIN { $h = 1 } $h = 1 if /^From /; $h = 0 if $h && /^$/;
	    if ($h && /^[ \t]/ && defined $p) { chomp $p; s/^[ \t]+/ /; $p .= $_; next }
	    print $p if defined $p; $p = $_; END { print $p if defined $p }' "$1"
}

# compare DIR: "same N" or what differs, over b4.mbx and mlq.mbx in DIR
compare() {
	mkdir "$1/a" "$1/b"
	na=$(git mailsplit -o"$1/a" "$1/b4.mbx") || na=x
	nb=$(git mailsplit -o"$1/b" "$1/mlq.mbx") || nb=y
	[ "$na" = "$nb" ] || { echo "b4 $na patches, mlq $nb"; return; }
	for f in "$1"/a/*; do
		g=$1/b/${f##*/}
		git mailinfo "$1/am" "$1/ap" <"$f" | grep -v '^Date' >"$1/ai"
		git mailinfo "$1/bm" "$1/bp" <"$g" | grep -v '^Date' >"$1/bi"
		for x in i m p; do
			cmp -s "$1/a$x" "$1/b$x" ||
			    { echo "patch ${f##*/}: $(diff "$1/a$x" "$1/b$x" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"; return; }
		done
	done
	echo "same $na"
}

# b4_am DIR LIST ID V: b4's b4.mbx and b4.log for ID in DIR.  What b4
# answers depends on the list, the id and b4 alone, so it is kept in
# $TEST_CACHE: a second run of the suite (the sanitized one) reads it
# instead of waiting two seconds a case for b4 to parse the list again.
b4_am() {
	_k=$(printf '%s|%s|%s|%s|%s' "$b4v" "$(cksum <"$0")" \
	    "$(file_stamp "$L/$2.mbox")" "$3" "$4" |
	    cksum | tr ' ' -)
	_c="$TEST_CACHE/b4-$_k"
	if [ ! -f "$_c/b4.log" ]; then
		(cd "$1" && git init -q . && b4 am -t ${4:+-v "$4"} -n b4 -o . \
		    -m "$TMP/$2.mbox" "$3" >b4.log 2>&1)
		mkdir -p "$TEST_CACHE" && rm -rf "$_c.$$" && mkdir "$_c.$$" &&
		    cp "$1/b4.log" "$_c.$$/" &&
		    { [ ! -f "$1/b4.mbx" ] || cp "$1/b4.mbx" "$_c.$$/"; } &&
		    { mv "$_c.$$" "$_c" 2>/dev/null || rm -rf "$_c.$$"; }
		return 0
	fi
	cp "$_c/b4.log" "$1/" && { [ ! -f "$_c/b4.mbx" ] || cp "$_c/b4.mbx" "$1/"; }
}

b4v=$(b4 --version 2>&1) # once: b4 takes a second and more to start
n=0 added=0
grep -v '^#' "$cases" >"$TMP/cases"
while IFS='	' read -r expect list id; do
	n=$((n + 1))
	d=$TMP/case$n
	mkdir -p "$d"
	[ -f "$TMP/$list.mbox" ] || unfold "$L/$list.mbox" >"$TMP/$list.mbox"
	"$MLQ" am --partial -o "$d/mlq.mbx" "$id" 2>"$d/mlq.err"
	v=$(sed -n 's/^Subject: \[PATCH[^]]* v\([0-9]*\).*/\1/p' "$d/mlq.mbx" | head -n 1)
	b4_am "$d" "$list" "$id" "$v"
	got=$(compare "$d")
	added=$((added + $(grep -c '^ *+ ' "$d/b4.log")))
	if [ "$expect" = "=" ]; then
		[ "${got%% *}" = same ]
		ok $? "$id: $got"
		[ "${got%% *}" = same ] || { cat "$d/mlq.err" "$d/b4.log" | sed 's/^/# /' | head -n 20; }
	else
		echo "# $id: $got ($expect)"
	fi
done <"$TMP/cases"
ok $((added < 20)) "b4 added $added trailers from replies, as mlq did"

test_done

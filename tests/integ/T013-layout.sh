#!/bin/sh
# lib/'s folders are the pipeline's stages (lib/README.md): each calls and
# includes only the folders above it, so the graph between folders has no
# cycle.  Read from the built objects (nm) and from the #include lines.
. "$top_srcdir/tests/lib/test-lib.sh"
need nm
order="util conf review mail git query store digest"
rank() { n=0; for f in $order; do [ "$f" = "$1" ] && { echo $n; return; }; n=$((n + 1)); done; echo 99; }

# Which folder defines each global symbol, and which symbols each uses.
for f in $order; do
	for o in "$top_builddir"/lib/$f/*.o; do
		[ -f "$o" ] || continue
		nm "$o" | awk -v f="$f" '$2 ~ /^[TDBR]$/ { print "D", f, $3 } $1 == "U" { print "U", f, $2 }'
	done
done >"$TMP/syms"
ok $(($(grep -c '^D ' "$TMP/syms") < 100)) "$(grep -c '^D ' "$TMP/syms") symbols defined in lib/'s folders"
awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[NR] = $2 " " $3 }
    END { for (i in use) { split(use[i], u, " "); if (u[2] in def && def[u[2]] != u[1]) print u[1], def[u[2]], u[2] } }' \
    "$TMP/syms" | sort -u >"$TMP/calls"
: >"$TMP/bad"
while read -r from to sym; do
	[ "$(rank "$to")" -lt "$(rank "$from")" ] || echo "$from calls $to ($sym)" >>"$TMP/bad"
done <"$TMP/calls"
is "$(cat "$TMP/bad")" "" "each folder calls only those above it ($(cut -d' ' -f1,2 "$TMP/calls" | sort -u | wc -l) pairs)"

# Includes: a folder's own header only from that folder and those below.
: >"$TMP/bad"
for f in $order; do
	grep -H '^#include "[a-z]*/' "$top_srcdir"/lib/$f/*.c "$top_srcdir"/lib/$f/*.h 2>/dev/null |
	    sed 's|^.*/lib/\([a-z]*\)/\([^:]*\):#include "\([a-z]*\)/.*|\1 \3 \2|' |
	    while read -r from to file; do
		[ "$(rank "$to")" -le "$(rank "$from")" ] ||
		    echo "$from/$file includes $to/" >>"$TMP/bad"
	    done
done
is "$(cat "$TMP/bad")" "" "each folder includes only its own headers and those above"
for f in $order; do
	[ -f "$top_srcdir/lib/$f/README.md" ] || echo "lib/$f/README.md is missing"
done >"$TMP/bad"
is "$(cat "$TMP/bad")" "" "each folder says what it owns"
test_done

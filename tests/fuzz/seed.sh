#!/bin/sh
# Usage: seed.sh NAME DIR SHARED
# Fills DIR with seed inputs for the fuzz target NAME cut from the mail
# of SHARED/corpus (../shared), read in place: the pieces live in the
# build tree only, never in the repository.  The fixtures and the seeds
# and crashes under tests/fuzz are given to the fuzzer as they are.
set -e
name=$1 dir=$2 shared=$3
C=$shared/corpus
mkdir -p "$dir"
[ -d "$C" ] || exit 0

# split MBOX PREFIX MAX HOW: MAX messages of MBOX, one file each, whole
# (HOW=msg), body only (HOW=body), or ten to a file (HOW=mbox).
split() {
	[ -f "$1" ] || return 0
	awk -v out="$dir/$2" -v max="$3" -v how="$4" '
	/^From / { n++; if (n > max) exit
		if (how != "mbox" || n % 10 == 1) { if (f) close(f); f = sprintf("%s-%04d", out, n) }
		body = 0; if (how != "mbox") next }
	!n { next }
	how == "body" && !body { if ($0 == "") body = 1; next }
	{ print > f }' "$1"
}

case $name in
msg|maildir)
	for m in umn-2019-2021 encoding-edge iwl-2021-04; do
		split "$C/lists/$m.mbox" "$m" 150 msg
	done ;;
mbox|http)
	for m in umn-2019-2021 encoding-edge nfs-2021-04; do
		split "$C/lists/$m.mbox" "$m" 300 mbox
	done ;;
classify|trailer)
	for m in tags-and-reverts umn-2019-2021 iwl-2021-04; do
		split "$C/lists/$m.mbox" "$m" 300 body
	done ;;
subject)
	for m in tags-and-reverts iwl-2021-04 encoding-edge; do
		[ -f "$C/lists/$m.mbox" ] || continue
		grep -a '^Subject: ' "$C/lists/$m.mbox" | head -n 400 |
		    awk -v out="$dir/$m" '{ f = sprintf("%s-%04d", out, NR)
			printf "%s", substr($0, 10) > f; close(f) }'
	done ;;
esac

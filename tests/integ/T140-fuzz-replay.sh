#!/bin/sh
# Every fuzz harness (tests/fuzz) over its seeds, every crash input kept
# there, the fixtures and ../shared's mail: under the sanitizer build, a
# memory error, undefined behaviour or broken property fails here.  The
# repository's inputs always run; ../shared's only where it is present.
. "$top_srcdir/tests/lib/test-lib.sh"
F=$top_srcdir/tests/fuzz
C=$SHARED/corpus
TARGETS="classify patch query conf http atom msg mbox maildir subject trailer imap"

# replay NAME WHAT PATH...: the replay program of NAME over the paths that
# exist; on failure the last input named and the report it caused.
replay() {
	_t=$1 _what=$2
	shift 2
	_args=
	for _p in "$@"; do
		[ -e "$_p" ] && _args="$_args '$_p'"
	done
	eval "set -- $_args"
	_out=$(MLQ_FUZZ_VERBOSE=1 "$top_builddir/tests/fuzz/replay-$_t" "$@" \
	    2>"$TMP/err")
	_rc=$?
	case $_rc$_out in
	0"replayed "*) ok 0 "$_t: $_what: $_out" ;;
	*) ok 1 "$_t: $_what (exit $_rc)"; tail -n 40 "$TMP/err" | sed 's/^/# /' ;;
	esac
}

for t in $TARGETS; do
	case $t in
	msg|mbox|maildir|http|classify|trailer|imap) fx=$top_srcdir/tests/fixtures ;;
	*) fx= ;;
	esac
	replay "$t" "seeds, crash inputs and fixtures" "$F/seeds/$t" \
	    "$F/crashes/$t" $fx
done

# A feed of 4 MB of empty entries took minutes while new.atom was searched
# to its end for each entry (daemon/wire.c); now it takes no time.  Timed
# without ASan only: its strstr() measures the whole rest of the string.
if command -v timeout >/dev/null 2>&1 &&
    ! grep -q '^SAN_CFLAGS = .*address' "$top_builddir/Makefile"; then
	awk 'BEGIN { for (i = 0; i < 280000; i++) printf "<entry></entry>" }' \
	    >"$TMP/big.atom"
	timeout 20 "$top_builddir/tests/fuzz/replay-atom" "$TMP/big.atom" \
	    >/dev/null 2>&1
	ok $? "atom: 4 MB of empty entries within 20 s"
fi

if [ -d "$C" ]; then
	for t in msg mbox maildir http classify trailer; do
		replay "$t" "../shared's broken and odd mail" "$C/notmuch" \
		    "$C/patchwork-mail" "$C/b4-samples" "$SHARED/seeds"
	done
	for t in mbox http; do
		replay "$t" "two lists' archives" "$C/lists/umn-2019-2021.mbox" \
		    "$C/lists/iwl-2021-04.mbox"
	done
	replay patch "../shared's patch files" "$C/patches"
elif [ "${CI:-}" = true ]; then
	ok 1 "../shared is missing under CI=true"
else
	ok 0 "../shared's mail # SKIP ../shared (corpus) is not beside the source tree"
fi
test_done

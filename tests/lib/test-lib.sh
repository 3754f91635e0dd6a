# Sourced by tests/integ/T*.sh: TAP helpers, a private temp dir with its
# own HOME, config and database, and a trap that stops every server the
# test started (register them with test_cleanup_pid / test_on_exit).
set -u

: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"

MLQ="$top_builddir/cli/mlq"
MLQD="$top_builddir/daemon/mlqd"
# What the oracles (public-inbox's index, b4 am) answer does not depend on
# the mlq under test: it is kept in the build tree, or where
# MLQ_TEST_CACHE says (contrib/run-tests shares one between its two runs).
TEST_CACHE=${MLQ_TEST_CACHE:-$top_builddir/tests/cache}

# file_stamp FILE...: the size, mtime and name of each FILE, for a cache
# key that a changed input must change.
file_stamp() {
	ls -lL --time-style=+%s "$@" | cut -d' ' -f5-
}

# cached KEY CMD...: the output of an oracle's CMD, kept in $TEST_CACHE
# under KEY, which names all it depends on (the tool's version, the test,
# its input); CMD runs only when nothing is kept.
cached() {
	_cf="$TEST_CACHE/out-$(printf '%s' "$1" | cksum | tr ' ' -)"; shift
	if [ ! -f "$_cf" ]; then
		mkdir -p "$TEST_CACHE" && "$@" >"$_cf.$$" && mv "$_cf.$$" "$_cf" ||
		    { rm -f "$_cf.$$"; return 1; }
	fi
	cat "$_cf"
}
TEST_NAME=$(basename "$0" .sh)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mlq-$TEST_NAME.XXXXXX")
chmod 755 "$TMP"
export HOME="$TMP/home" MLQ_DB="$TMP/mlq.db" MLQ_CONFIG="$TMP/config"
export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config"
mkdir -p "$HOME"
: >"$MLQ_CONFIG"

_test_n=0
_test_failed=0
_test_exit_cmds=

test_on_exit() { _test_exit_cmds="$1; $_test_exit_cmds"; }

test_cleanup_pid() {
	# Stop a server by pid: polite first, then firmly.
	_p=$1
	kill "$_p" 2>/dev/null || return 0
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		kill -0 "$_p" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$_p" 2>/dev/null
}

_test_finish() {
	eval "$_test_exit_cmds"
	if [ -z "${MLQ_KEEP_TMP:-}" ]; then rm -rf "$TMP"; fi
}
trap _test_finish EXIT
trap 'exit 130' INT TERM

ok() {
	_test_n=$((_test_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_test_n - $2"
	else
		_test_failed=$((_test_failed + 1))
		echo "not ok $_test_n - $2"
	fi
}

# is GOT WANT NAME: exact string comparison with a diff on failure.
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '%s\n' "$1" >"$TMP/.got"
		printf '%s\n' "$2" >"$TMP/.want"
		diff -u "$TMP/.want" "$TMP/.got" | sed 's/^/# /'
	fi
}

# run_ok NAME CMD...: the command must exit 0.
run_ok() {
	_name=$1; shift
	if "$@" >"$TMP/.out" 2>"$TMP/.err"; then ok 0 "$_name"; else
		_rc=$?; ok 1 "$_name"; echo "# exit $_rc: $*"; sed 's/^/# /' "$TMP/.err"; fi
}

skip_all() { echo "1..0 # SKIP $1"; exit 0; }

# reads_back FILE NAME: the stored mail of the message in FILE, as its
# thread's mbox prints it (From_ line and closing blank line dropped), is
# FILE byte for byte.  The thread must hold that message alone.
reads_back() {
	_id=$(sed -n 's/^Message-I[dD]: *//p' "$1" | tr -d '\r')
	"$MLQ" thread --format mbox "$_id" | sed -e 1d -e '${/^$/d}' >"$TMP/.mail"
	cmp -s "$1" "$TMP/.mail"
	ok $? "$2"
}

# msg_as_015: SQL that puts table msg back as schemas before 016 had it
# (no sketch, no author), for tests that wind a database back to an older
# version.
msg_as_015() {
	echo "ALTER TABLE msg DROP COLUMN sketch;
	ALTER TABLE msg DROP COLUMN author_name;
	ALTER TABLE msg DROP COLUMN author_email;"
}

# file_as_020: SQL that puts table file back as schemas before 021 had it
# (no poster, date or title; an index on the path alone).
file_as_020() {
	echo "DROP INDEX file_poster;
	ALTER TABLE file DROP COLUMN poster;
	ALTER TABLE file DROP COLUMN date;
	ALTER TABLE file DROP COLUMN norm;
	CREATE INDEX file_path ON file(path);"
}

# ref_as_014: SQL that puts table ref back as schemas 002-014 had it (no
# date, indexes by key alone), for tests that wind a database back to an
# older version and migrate it again.
ref_as_014() {
	echo "DROP INDEX ref_norm; DROP INDEX ref_ckey;
	ALTER TABLE ref DROP COLUMN date;
	CREATE INDEX ref_norm ON ref(norm) WHERE norm <> '';
	CREATE INDEX ref_ckey ON ref(ckey) WHERE ckey IS NOT NULL;"
}

# need TOOL...: a missing tool skips the test, but fails it under CI=true.
need() {
	for _t in "$@"; do
		command -v "$_t" >/dev/null 2>&1 && continue
		if [ "${CI:-}" = true ]; then
			echo "Bail out! $_t is missing under CI=true"; exit 1
		fi
		skip_all "$_t is not installed"
	done
}

# The read-only shared data (seeds/, corpus/), or skip.
SHARED=${MLQ_SHARED:-$top_srcdir/../shared}
need_shared() {
	[ -d "$SHARED/seeds" ] && return 0
	if [ "${CI:-}" = true ]; then
		echo "Bail out! ../shared is missing under CI=true"; exit 1
	fi
	skip_all "../shared (seeds and corpus) is not beside the source tree"
}

# A free TCP port on 127.0.0.1.
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1,ReuseAddr=>1)->sockport'
}

# wait_for SECONDS CMD...: poll until CMD succeeds (no blind sleeps).
wait_for() {
	_deadline=$(($(date +%s) + $1)); shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$_deadline" ] && return 1
		sleep 0.05
	done
}

# kill_delays N MAX: writes $TMP/kill-delays, N delays in seconds each in
# [0.02, MAX), for kill -9 tests, drawn from MLQ_KILL_SEED (else the
# clock), and prints the seed, so that a failure can be replayed.
kill_delays() {
	KILL_SEED=${MLQ_KILL_SEED:-$(date +%s)}
	echo "# kill -9 moments from MLQ_KILL_SEED=$KILL_SEED"
	awk -v n="$1" -v max="$2" -v seed="$KILL_SEED" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			printf "%.2f\n", 0.02 + rand() * (max - 0.02)
	}' >"$TMP/kill-delays"
}

test_done() {
	echo "1..$_test_n"
	[ "$_test_failed" -eq 0 ]
}

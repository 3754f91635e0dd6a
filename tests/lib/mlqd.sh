# Running mlqd in the integration tests.  Source after test-lib.sh.

# The Message-Ids mlq has stored, without <>, sorted.
stored_ids() {
	# The config may be broken on purpose (SIGHUP tests): read none.
	"$MLQ" -c /dev/null search --format jsonl 2>/dev/null |
	    perl -ne 'print "$1\n" if /"message_id":\s*"((?:[^"\\]|\\.)*)"/' |
	    sort
}

# mlqd_kill9 MAX DELAY...: for each delay, `mlqd --once` killed -9 after
# that long; what is stored never shrinks nor passes MAX, and the index
# passes integrity_check.
mlqd_kill9() {
	_max=$1; shift
	_prev=0
	for _delay in "$@"; do
		"$MLQD" --once >>"$TMP/mlqd.log" 2>&1 &
		_pid=$!
		sleep "$_delay"
		kill -9 "$_pid" 2>/dev/null
		wait "$_pid" 2>/dev/null
		_n=$(stored_ids | wc -l)
		_ic=$(sqlite3 "$MLQ_DB" 'PRAGMA integrity_check' 2>&1)
		ok "$([ "$_n" -ge "$_prev" ] && [ "$_n" -le "$_max" ] &&
		    [ "$_ic" = ok ]; echo $?)" \
		    "killed after ${_delay}s: $_n stored so far, integrity $_ic"
		_prev=$_n
	done
}

# source_field NAME FIELD: one field of `mlq sources --format json`.
source_field() {
	"$MLQ" -c /dev/null sources --format json 2>/dev/null |
	    SRC="$1" FIELD="$2" perl -MJSON::PP -0777 -ne '
		for my $s (@{decode_json($_)}) {
			next unless $s->{name} eq $ENV{SRC};
			my $v = $s->{$ENV{FIELD}};
			print defined $v ? $v : "null";
		}'
}

# mlqd_start [ARGS...]: mlqd in the foreground, in the background, logging
# to $TMP/mlqd.log; stopped by the exit trap.
mlqd_start() {
	"$MLQD" -f -v "$@" >>"$TMP/mlqd.log" 2>&1 &
	MLQD_PID=$!
	test_on_exit "test_cleanup_pid $MLQD_PID"
}

# mlqd_log_has TEXT: the log mentions TEXT (fixed string).
mlqd_log_has() {
	grep -qF -- "$1" "$TMP/mlqd.log"
}

# live_msg ID FILE: a message that arrives now (its Received: line).
live_msg() {
	_now=$(date -u '+%a, %d %b %Y %H:%M:%S +0000')
	sed -e "s/@ID@/$1/g" -e "s/@DATE@/$_now/g" \
	    "$top_srcdir/tests/fixtures/daemon/live.eml.in" >"$2"
}

# Whether mlq has stored Message-Id $1: one lookup, for wait_for polls it
# many times a second (listing every message each time cost a sanitized
# build more CPU than the daemon it waits for).
has_id() {
	"$MLQ" -c /dev/null show --format json "$1" >/dev/null 2>&1
}

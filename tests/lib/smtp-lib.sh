# Sourced by tests/integ/T5*.sh after test-lib.sh: an SMTP sink on
# 127.0.0.1 (aiosmtpd storing into a maildir), started and stopped by the
# test, and helpers to read what it received.
need /usr/bin/aiosmtpd /usr/bin/python3 perl

MAILDIR="$TMP/maildir"
SMTP_PORT=$(free_port)
SMTP_PID=

smtp_is_up() {
	perl -MIO::Socket::INET -e \
	    'exit !IO::Socket::INET->new(PeerAddr => "127.0.0.1:'"$SMTP_PORT"'")'
}

# smtp_start [MODE [aiosmtpd options...]]: MODE as tests/lib/smtp_sink.py.
smtp_start() {
	_mode=${1:-store}
	[ $# -gt 0 ] && shift
	mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
	PYTHONPATH="$top_srcdir/tests/lib" PYTHONDONTWRITEBYTECODE=1 \
	    setsid /usr/bin/python3 -m aiosmtpd \
	    -n -l "127.0.0.1:$SMTP_PORT" "$@" -c smtp_sink.Sink "$MAILDIR" \
	    "$_mode" >>"$TMP/smtp.log" 2>&1 </dev/null &
	SMTP_PID=$!
	test_on_exit "test_cleanup_pid $SMTP_PID"
	wait_for 20 smtp_is_up || { echo "Bail out! aiosmtpd did not start"; \
	    cat "$TMP/smtp.log"; exit 1; }
}

smtp_stop() {
	[ -n "$SMTP_PID" ] && test_cleanup_pid "$SMTP_PID"
	SMTP_PID=
}

# The number of mails received so far.
smtp_count() {
	find "$MAILDIR/new" -type f 2>/dev/null | wc -l | tr -d ' '
}

# The subjects received, sorted.
smtp_subjects() {
	for _f in "$MAILDIR"/new/*; do
		[ -f "$_f" ] || continue
		/usr/bin/python3 "$top_srcdir/tests/lib/mailparse.py" "$_f" |
		    sed -n 's/^subject=//p'
	done | sort
}

# Unix seconds of a UTC date: "2021-04-26 08:00".
utc() {
	date -u -d "$1Z" +%s
}

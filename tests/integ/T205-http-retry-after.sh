#!/bin/sh
# HTTP 503 and 429 with Retry-After: mlqd waits as long as asked instead
# of its own backoff, and the other sources are not held up.
. "$top_srcdir/tests/lib/test-lib.sh"
need perl
. "$top_srcdir/tests/lib/mlqd.sh"

# A server that answers every request with $1 and Retry-After: 4, and
# counts the requests.
busy_server() {
	perl -MIO::Socket::INET -e '
		my ($code, $port, $count) = @ARGV;
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
		    LocalPort => $port, Listen => 5, ReuseAddr => 1) or die;
		my $n = 0;
		while (my $c = $s->accept) {
			while (<$c>) { last if /^\r?$/ }
			open my $f, ">", $count; print $f ++$n, "\n"; close $f;
			print $c "HTTP/1.1 $code Busy\r\nRetry-After: 4\r\n",
			    "Content-Length: 0\r\nConnection: close\r\n\r\n";
			close $c;
		}' "$@" &
	test_on_exit "test_cleanup_pid $!"
}
P503=$(free_port)
busy_server 503 "$P503" "$TMP/n503"
P429=$(free_port)
busy_server 429 "$P429" "$TMP/n429"
mkdir -p "$TMP/md/new" "$TMP/md/cur"
cat >"$MLQ_CONFIG" <<EOC
[source "busy"]
url = http://127.0.0.1:$P503/x/
interval = 1s
[source "slow"]
url = http://127.0.0.1:$P429/x/
interval = 1s
[source "local"]
url = $TMP/md
interval = 1s
EOC
mlqd_start
wait_for 10 mlqd_log_has "source 'busy': the server asks to retry after 4s"
ok $? "503: Retry-After is honoured"
sleep 2
is "$(cat "$TMP/n503")" 1 "no second request within the 4 s asked for"
wait_for 10 mlqd_log_has "source 'slow': the server asks to retry after 4s"
ok $? "429: likewise"
case $(source_field busy last_error) in
*"HTTP 503") ok 0 "the 503 shows in mlq sources" ;;
*) ok 1 "the 503 shows in mlq sources" ;;
esac
cp "$top_srcdir/tests/fixtures/daemon/a1.eml" "$TMP/md/new/1.x"
wait_for 5 has_id daemon-a1@example.org
ok $? "another source is not held up"
wait_for 5 sh -c "[ \"\$(cat '$TMP/n503')\" -ge 2 ]"
ok $? "but one after it"
kill -TERM "$MLQD_PID"
wait "$MLQD_PID"
is "$?" 0 "SIGTERM exits 0"

test_done

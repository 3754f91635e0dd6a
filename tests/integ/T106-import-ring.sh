#!/bin/sh
# The bounded ring between reader, parse workers and writer passes runs of
# small messages past its count bound (2,048) and messages near, at and
# over its byte bound alike: none is lost, none waits forever, and each is
# stored whole.
. "$top_srcdir/tests/lib/test-lib.sh"
need perl jq

# 2,500 messages; of the first 400 every 50th is large: 6, 12 and 20 MiB
# in turn, around the ring's 16 MiB bound and the half of it at which a
# held reader is woken.
perl -e '
for my $i (1 .. 2500) {
	my $mib = $i % 50 || $i > 400 ? 0 : (6, 12, 20)[($i / 50) % 3];
	print "From mboxrd\@z Thu Jan  1 00:00:00 1970\n",
	    "From: Ring Tester <ring\@ring.sample.test>\n",
	    "Subject: [PATCH] ring: message $i\n",
	    "Date: Tue, 6 Apr 2021 19:16:56 -0500\n",
	    "Message-ID: <ring-$i\@ring.sample.test>\n\n",
	    "Body of message $i: ringmark$i.\n";
	my $line = "filler words for a large body in the ring test\n";
	print $line x int($mib * 1048576 / length $line) if $mib;
	print "End of message $i.\n\n";
}' >"$TMP/ring.mbox"

timeout 300 "$MLQ" import --list ring "$TMP/ring.mbox" >"$TMP/out" 2>"$TMP/err"
is $? 0 "an import of small and large messages ends"
is "$(tail -n 1 "$TMP/out")" "imported 2500 new, 0 duplicate, 0 rejected" "every message stored"
is "$(cat "$TMP/err")" "" "and nothing said on stderr"
is "$("$MLQ" search --list ring | wc -l)" 2500 "all 2500 listed"
for i in 1 49 50 100 150 200 399 400 2048 2049 2500; do
	is "$("$MLQ" search --format jsonl ringmark$i | jq -r .message_id)" \
	    "ring-$i@ring.sample.test" "message $i found by its first words"
	"$MLQ" search --format mbox ringmark$i >"$TMP/one"
	is "$(tail -n 2 "$TMP/one" | head -n 1)" "End of message $i." "and stored to its last line"
done
test_done

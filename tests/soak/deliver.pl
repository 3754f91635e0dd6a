#!/usr/bin/perl
# deliver.pl IDS EVERY UNTIL NAME...: new mail into the public-inbox
# inboxes NAME... (PI_CONFIG), one message at a time, round robin, as
# public-inbox-mda would store it; then "NAME<TAB>MSGID" is appended to
# IDS once the message is committed.  A message every EVERY seconds until
# the unix time UNTIL; UNTIL 0: one message per inbox, then exit.
# SIGTERM stops after the message in hand.
#
# Every Message-Id is new (start time, pid, sequence).  Some messages
# are replies (In-Reply-To the inbox's previous one), some patches, some
# carry a body line starting with "From " (mboxrd quoting over HTTP) or
# CRLF-sensitive trailing blanks, so the mail is not all alike.
use strict;
use warnings;
use POSIX qw(strftime);
use Time::HiRes qw(sleep time);
use PublicInbox::Config;
use PublicInbox::Eml;
use PublicInbox::InboxWritable;

my ($ids, $every, $until, @names) = @ARGV;
die "usage: deliver.pl IDS EVERY UNTIL NAME...\n" unless @names;
my $stop = 0;
$SIG{TERM} = $SIG{INT} = sub { $stop = 1 };
open my $out, '>>', $ids or die "$ids: $!\n";
$out->autoflush(1);

my $tag = sprintf '%d.%d', int(time), $$;
my ($seq, %last) = (0);

sub message {
	my ($name) = @_;
	my $id = "soak-$tag-$seq-$name\@soak.mlq.test";
	my $now = strftime('%a, %d %b %Y %H:%M:%S +0000', gmtime);
	my $subj = "soak $name message $seq";
	my ($reply, $body) = ('', "Message $seq for $name.\n");
	if ($seq % 4 == 3 && $last{$name}) {
		$reply = "In-Reply-To: <$last{$name}>\nReferences: <$last{$name}>\n";
		$subj = "Re: soak $name message " . ($seq - 1);
		$body = "> Message before.\n\nAgreed.\n";
	} elsif ($seq % 5 == 0) {
		$subj = "[PATCH] soak: change $seq in $name";
		$body = "A change.\n\nSigned-off-by: Soak <soak\@example.com>\n" .
		    "---\n f.c | 2 +-\n\ndiff --git a/f.c b/f.c\n" .
		    "--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-int a = $seq;\n" .
		    "+int a = " . ($seq + 1) . ";\n";
	} elsif ($seq % 7 == 0) {
		$body = "From here on the body has a line like an mbox separator.\n" .
		    ">From quoted once\n";
	}
	my $raw = "Received: from soak by soak.mlq.test; $now\n" .
	    "From: Soak Sender <soak\@example.com>\n" .
	    "To: $name\@lists.mlq.test\n" .
	    "Subject: $subj\nDate: $now\nMessage-Id: <$id>\n$reply\n$body";
	return ($id, $raw);
}

sub deliver {
	my ($name) = @_;
	my ($id, $raw) = message($name);
	my $ibx = PublicInbox::Config->new->lookup_name($name)
	    or die "no inbox $name\n";
	$ibx = PublicInbox::InboxWritable->new($ibx);
	my $im = $ibx->importer(0);
	$im->add(PublicInbox::Eml->new(\$raw)) or die "$name: $id refused\n";
	$im->done;
	print $out "$name\t$id\n";
	$last{$name} = $id;
	$seq++;
}

if ($until == 0) {
	deliver($_) for @names;
	exit 0;
}
my $next = time;
for (my $i = 0; !$stop && time < $until; $i++) {
	deliver($names[$i % @names]);
	$next += $every;
	my $wait = $next - time;
	if ($wait > 0) {
		sleep $wait;
	} else {
		$next = time; # behind: no burst to catch up
	}
}

# public-inbox testbed for the integration tests (notes/testbed.md):
# inboxes, import and public-inbox-httpd/-imapd on 127.0.0.1, each with a
# pid file and stopped by the test's exit trap.  Source after test-lib.sh.

need public-inbox-init public-inbox-httpd public-inbox-imapd \
    public-inbox-mda perl curl

PI="$TMP/pi"
mkdir -p "$PI/emergency" "$PI/inboxes"
# public-inbox writes nothing outside $TMP with these.
export PI_CONFIG="$PI/config" PI_EMERGENCY="$PI/emergency" \
    GIT_CONFIG_NOSYSTEM=1

# pi_init NAME [basic|full] [SKIP]: a v2 inbox with newsgroup
# inbox.NAME.test and address NAME@lists.mlq.test; "basic" leaves out
# Xapian (no search); SKIP starts article numbers (IMAP UIDs) after it.
pi_init() {
	_lvl=
	[ "${2:-}" = basic ] && _lvl="-L basic"
	[ -n "${3:-}" ] && _lvl="$_lvl --skip-artnum=$3"
	# shellcheck disable=SC2086
	public-inbox-init -V2 $_lvl -j1 --ng "inbox.$1.test" "$1" \
	    "$PI/inboxes/$1" "http://127.0.0.1/$1" "$1@lists.mlq.test" ||
	    return 1
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
}

# pi_add NAME FILE...: import mbox files (mboxo/mboxrd) or single
# messages into the inbox in one process, as public-inbox-mda would.
pi_add() {
	_n=$1; shift
	perl -MPublicInbox::Config -MPublicInbox::Eml -MPublicInbox::MboxReader \
	    -MPublicInbox::InboxWritable -e '
		my $name = shift @ARGV;
		my $ibx = PublicInbox::Config->new->lookup_name($name)
		    or die "no inbox $name\n";
		$ibx = PublicInbox::InboxWritable->new($ibx);
		my $im = $ibx->importer(0);
		my $n = 0;
		for my $f (@ARGV) {
			open my $fh, "<", $f or die "$f: $!\n";
			my $head = "";
			read($fh, $head, 5);
			seek($fh, 0, 0);
			if ($head eq "From ") {
				PublicInbox::MboxReader->mboxrd($fh, sub {
					$im->add($_[0]) and $n++;
				});
			} else {
				# $/ stays local to the read: the importer reads
				# git fast-import line by line.
				my $raw = do { local $/; <$fh> };
				$im->add(PublicInbox::Eml->new(\$raw)) and $n++;
			}
		}
		$im->done;
		print "$n\n";
	' "$_n" "$@" >"$PI/add.out" 2>"$PI/add.err"
}

# pi_add_list NAME MBOX: pi_add of one large mbox (a list of the shared
# corpus) into NAME, just made by pi_init.  public-inbox indexes it once,
# into $TEST_CACHE, and each test gets a copy of that inbox: the same
# files, as the index is what takes the time (half a minute for
# nfs-2021-04), not the serving.  A changed mbox or pi.sh builds it
# again; flock(1) keeps tests running in parallel from building it twice.
pi_add_list() {
	_cache="$TEST_CACHE/pi-$(basename "$2")"
	_stamp="$(file_stamp "$2") $(cksum <"$top_srcdir/tests/lib/pi.sh")"
	mkdir -p "$TEST_CACHE" || return 1
	(
		flock 9 || exit 1
		[ -d "$_cache" ] && [ "$(cat "$_cache.stamp" 2>/dev/null)" = "$_stamp" ] &&
		    exit 0
		rm -rf "$_cache" "$_cache.tmp" "$_cache.stamp"
		mkdir -p "$_cache.tmp/emergency" || exit 1
		PI="$_cache.tmp" PI_CONFIG="$_cache.tmp/config" \
		    PI_EMERGENCY="$_cache.tmp/emergency"
		export PI_CONFIG PI_EMERGENCY
		pi_init cache && pi_add cache "$2" || exit 1
		mv "$_cache.tmp" "$_cache" && echo "$_stamp" >"$_cache.stamp"
	) 9>"$_cache.lock" || {
		cp "$_cache.tmp/add.err" "$PI/add.err" 2>/dev/null
		return 1
	}
	rm -rf "$PI/inboxes/$1" &&
	    cp -a "$_cache/inboxes/cache" "$PI/inboxes/$1" &&
	    cp "$_cache/add.out" "$PI/add.out"
}

# The Message-Ids (without <>) of mbox files or messages, sorted, unique.
pi_msgids() {
	perl -ne '
		($body, $blank) = (0, 1) if $. == 1;
		if (/^$/) { $body = 1 } elsif (/^From / && $blank) { $body = 0 }
		$blank = /^$/;
		print "$1\n" if !$body && /^Message-Id:\s*<([^>]+)>/i;
		close ARGV if eof;
	' "$@" | sort -u
}

_pi_wait_port() {
	perl -MIO::Socket::INET -e \
	    'IO::Socket::INET->new(PeerAddr=>"127.0.0.1",PeerPort=>$ARGV[0]) or exit 1' "$1"
}

# pi_imap_source SOURCE INBOX: public-inbox-imapd started (one check), and
# $MLQ_CONFIG with mlqd source SOURCE at INBOX's newsgroup (mlqd finds its
# slices .0, .1, ... itself).
pi_imap_source() {
	pi_start imapd
	ok $? "public-inbox-imapd on 127.0.0.1:$IMAP_PORT"
	cat >"$MLQ_CONFIG" <<EOC
[source "$1"]
url = imap://127.0.0.1:$IMAP_PORT/inbox.$2.test
interval = 10m
EOC
}

# pi_start httpd|imapd|imapd-tls [PORT]: start the daemon on PORT or a
# free one, set HTTP_PORT or IMAP_PORT/IMAPS_PORT, wait until it answers.
pi_start() {
	_d=$1
	case $_d in
	httpd)
		HTTP_PORT=${2:-$(free_port)}
		_l="http://127.0.0.1:$HTTP_PORT" _port=$HTTP_PORT ;;
	imapd)
		IMAP_PORT=${2:-$(free_port)}
		_l="imap://127.0.0.1:$IMAP_PORT" _port=$IMAP_PORT ;;
	imapd-tls)
		IMAPS_PORT=${2:-$(free_port)}
		pi_cert
		_l="imaps://127.0.0.1:$IMAPS_PORT?cert=$PI/cert.pem,key=$PI/key.pem"
		_port=$IMAPS_PORT ;;
	esac
	_prog=public-inbox-${_d%-tls}
	$_prog -W0 -D -P "$PI/$_d.pid" -1 "$PI/$_d.out" -2 "$PI/$_d.err" \
	    -l "$_l" || return 1
	test_on_exit "pi_stop $_d"
	wait_for 20 _pi_wait_port "$_port"
}

pi_stop() {
	[ -f "$PI/$1.pid" ] || return 0
	_p=$(cat "$PI/$1.pid")
	kill -QUIT "$_p" 2>/dev/null
	for _i in $(seq 1 60); do
		kill -0 "$_p" 2>/dev/null || break
		sleep 0.05
	done
	kill -KILL "$_p" 2>/dev/null
	rm -f "$PI/$1.pid"
}

# A self-signed certificate for 127.0.0.1.
pi_cert() {
	[ -f "$PI/cert.pem" ] && return 0
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
	    -addext subjectAltName=IP:127.0.0.1 -keyout "$PI/key.pem" \
	    -out "$PI/cert.pem" -days 2 >/dev/null 2>&1
}

# pi_expired_cert DIR: a CA valid now (DIR/ca.pem) and a certificate for
# 127.0.0.1 it signed for January 2020 only (DIR/cert.pem, DIR/key.pem),
# by openssl ca: req -x509 cannot date one in the past.
pi_expired_cert() {
	_x=$1
	mkdir -p "$_x/ca/newcerts"
	: >"$_x/ca/index.txt"
	echo 01 >"$_x/ca/serial"
	cat >"$_x/ca.cnf" <<EOC
[ca]
default_ca = test
[test]
dir = $_x/ca
database = \$dir/index.txt
new_certs_dir = \$dir/newcerts
serial = \$dir/serial
default_md = sha256
policy = any
copy_extensions = copy
[any]
commonName = supplied
EOC
	{
		openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=test-ca \
		    -keyout "$_x/ca.key" -out "$_x/ca.pem" -days 30 &&
		openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
		    -addext subjectAltName=IP:127.0.0.1 -keyout "$_x/key.pem" \
		    -out "$_x/req.pem" &&
		openssl ca -batch -config "$_x/ca.cnf" -cert "$_x/ca.pem" \
		    -keyfile "$_x/ca.key" -in "$_x/req.pem" -out "$_x/cert.pem" \
		    -startdate 20200101000000Z -enddate 20200201000000Z -notext
	} >"$_x/openssl.log" 2>&1
}

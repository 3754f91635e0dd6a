#!/bin/sh
# A full disk, made real with a small tmpfs: `mlq import` stops with one
# line, both files pass integrity_check, no message is half stored, and
# the same import completes once there is room.  mlqd logs the failure,
# keeps running, backs off and catches up by itself.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"
need sqlite3 perl

FS="$TMP/fs"
mkdir "$FS"
mount -t tmpfs -o size=2m tmpfs "$FS" 2>/dev/null ||
    skip_all "cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)"
test_on_exit "umount '$FS' 2>/dev/null"

# N messages of words no compressor or index folds away, a few KB each.
gen() {
	perl -e '
	my ($n, $tag) = @ARGV; my $seed = 7;
	sub r { $seed = ($seed * 1103515245 + 12345) % 2147483648; $seed }
	for my $i (1 .. $n) {
		print "From gen\@test Thu Jan  1 00:00:00 1970\n",
		    "From: Gen $i <gen$i\@example.org>\n",
		    "Subject: [PATCH] gen: message $i\n",
		    "Date: Thu, 1 Apr 2021 00:00:00 +0000\n",
		    "Message-ID: <$tag$i\@example.org>\n\n";
		for (1 .. 40) {
			print join(" ", map { sprintf "w%x", r() % 500000 } 1 .. 10), "\n";
		}
		print "\n";
	}' "$1" "$2"
}
gen 1500 full- >"$TMP/big.mbox"
N=1500

stored() { sqlite3 "$1" 'SELECT count(*) FROM msg'; }
# Every stored message has its mail and its text: nothing half stored.
whole() {
	sqlite3 "$1" "ATTACH '$1-mail' AS f;
	    SELECT (SELECT count(*) FROM msg WHERE id NOT IN (SELECT id FROM f.mail))
	      + (SELECT count(*) FROM msg WHERE id NOT IN
		(SELECT rowid & 4294967295 FROM fts))"
}

DB="$FS/mlq.db"
# Small batches: those before the one that fills the disk are kept.
MLQ_IMPORT_BATCH=100 "$MLQ" --db "$DB" import "$TMP/big.mbox" \
    >/dev/null 2>"$TMP/err"
is "$?" 3 "import on a full disk: exit 3"
is "$(wc -l <"$TMP/err")" 1 "one line"
case $(cat "$TMP/err") in
"mlq: '$DB': the disk is full"*|"mlq: '$DB-mail': the disk is full"*)
	ok 0 "that says the disk is full and names the file" ;;
*) ok 1 "that says the disk is full: $(cat "$TMP/err")" ;; esac
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "the index passes integrity_check"
is "$(sqlite3 "$DB-mail" 'PRAGMA integrity_check')" ok "the mail file too"
is "$(whole "$DB")" 0 "no message half stored"
part=$(stored "$DB")
ok "$([ "$part" -gt 0 ] && [ "$part" -lt "$N" ]; echo $?)" \
    "the batches before the full one are kept ($part of $N)"

mount -o remount,size=256m "$FS"
run_ok "with room, the same import" "$MLQ" --db "$DB" import "$TMP/big.mbox"
is "$(sqlite3 "$DB" 'SELECT count(*), count(DISTINCT msgid) FROM msg')" \
    "$N|$N" "completes: every message exactly once"
is "$(whole "$DB")" 0 "each with its mail and text"
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "integrity_check"

# mlqd: the same on a disk that fills under a running daemon.
umount "$FS"
mount -t tmpfs -o size=2m tmpfs "$FS"
export MLQ_DB="$DB"
cat >"$MLQ_CONFIG" <<EOC
[source "box"]
url = $TMP/big.mbox
interval = 1s
EOC
mlqd_start
wait_for 30 mlqd_log_has "the disk is full"
ok $? "mlqd logs the full disk"
sleep 1
kill -0 "$MLQD_PID" 2>/dev/null
ok $? "and keeps running"
mount -o remount,size=256m "$FS"
wait_for 60 sh -c "[ \"\$(sqlite3 '$DB' 'SELECT count(*) FROM msg')\" -eq $N ]"
ok $? "with room again, it backs off, retries and catches up"
mlqd_log_has "storing resumes"
ok $? "saying that storing resumes"
is "$(sqlite3 "$DB" 'SELECT count(*), count(DISTINCT msgid) FROM msg')" \
    "$N|$N" "every message exactly once"
is "$(whole "$DB")" 0 "nothing half stored"
test_cleanup_pid "$MLQD_PID"
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "integrity_check"
grep "disk is full" "$TMP/mlqd.log" | grep -v "source 'box'" | sed 's/^/# /'
ok "$(grep "disk is full" "$TMP/mlqd.log" | grep -vc "source 'box'")" \
    "each failure is one line naming the source"

test_done

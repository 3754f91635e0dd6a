#!/bin/sh
# Databases mlq cannot use as asked, and writers that meet: each case
# either waits or says why in one line, and nothing is damaged.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"
need sqlite3 jq
M="$top_srcdir/tests/fixtures/mail"
FIX="$top_srcdir/tests/fixtures/daemon"

# one_line CMD...: exit 3 and exactly one line on stderr, kept in $TMP/err.
one_line() {
	"$@" >/dev/null 2>"$TMP/err"
	_rc=$?
	[ "$_rc" -eq 3 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]
}

head -c 8192 /dev/urandom >"$TMP/garbage.db"
cp "$TMP/garbage.db" "$TMP/garbage.orig"
one_line "$MLQ" --db "$TMP/garbage.db" search
ok $? "a garbage file as --db: exit 3, one line"
is "$(cat "$TMP/err")" "mlq: '$TMP/garbage.db' is not an mlq database" \
    "that says it is not an mlq database"
one_line "$MLQ" --db "$TMP/garbage.db" import "$M/autumn.eml"
ok $? "import into it: refused the same way"
cmp -s "$TMP/garbage.db" "$TMP/garbage.orig"
ok $? "and the file is untouched"

sqlite3 "$TMP/other.db" 'CREATE TABLE notes(x); INSERT INTO notes VALUES (1)'
one_line "$MLQ" --db "$TMP/other.db" import "$M/autumn.eml"
ok $? "another program's SQLite file: refused"
is "$(cat "$TMP/err")" \
    "mlq: '$TMP/other.db' is not an mlq database (it is another program's SQLite file)" \
    "in words"
is "$(sqlite3 "$TMP/other.db" 'SELECT group_concat(name) FROM sqlite_master')" \
    notes "and nothing is added to it"

# Two imports at once, and an import while mlqd stores: each waits its
# turn between the other's commits.
i=0
mkdir "$TMP/a" "$TMP/b"
for f in "$M"/*.eml; do
	i=$((i + 1))
	sed "s/^\(Message-I[dD]: *<\)/\1a-/" "$f" >"$TMP/a/$i.eml"
	sed "s/^\(Message-I[dD]: *<\)/\1b-/" "$f" >"$TMP/b/$i.eml"
done
n=$(ls "$TMP/a" | wc -l)
MLQ_IMPORT_BATCH=1 "$MLQ" import "$TMP/a" >"$TMP/out1" 2>&1 &
p1=$!
MLQ_IMPORT_BATCH=1 "$MLQ" import "$TMP/b" >"$TMP/out2" 2>&1
r2=$?
wait "$p1"
r1=$?
is "$r1 $r2" "0 0" "two imports at once both succeed"
"$MLQ" --db "$TMP/one.db" import "$TMP/a" "$TMP/b" >/dev/null
want=$(sqlite3 "$TMP/one.db" 'SELECT count(*) FROM msg')
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*), count(DISTINCT msgid) FROM msg')" \
    "$want|$want" "each storing all of its messages once"

mkdir -p "$TMP/md/new" "$TMP/md/cur" "$TMP/md/tmp"
cp "$FIX"/a3.eml "$TMP/md/cur/1.host:2,S"
cat >"$MLQ_CONFIG" <<EOC
[source "dir"]
url = $TMP/md
interval = 1s
EOC
mlqd_start
wait_for 20 has_id daemon-a3@example.de
ok $? "mlqd stores from its source"
mkdir "$TMP/c"
for f in "$TMP"/a/*.eml; do
	sed "s/^\(Message-I[dD]: *<\)a-/\1c-/" "$f" >"$TMP/c/$(basename "$f")"
done
live_msg during "$TMP/md/new/2.host"
MLQ_IMPORT_BATCH=1 "$MLQ" import "$TMP/c" >"$TMP/out3" 2>&1
is "$?" 0 "an import while mlqd runs succeeds"
wait_for 20 has_id during@example.com
ok $? "and mlqd goes on storing"
test_cleanup_pid "$MLQD_PID"
is "$(sqlite3 "$MLQ_DB" 'SELECT count(*) - count(DISTINCT msgid) FROM msg')" 0 \
    "nothing twice"
is "$(sqlite3 "$MLQ_DB" 'PRAGMA integrity_check')" ok "integrity_check"

# Files are made with the user's umask, and never writable by others.
(umask 000 && "$MLQ" --db "$TMP/um0/new/u.db" import "$M/autumn.eml") \
    >/dev/null 2>&1
(umask 077 && "$MLQ" --db "$TMP/um7/new/u.db" import "$M/autumn.eml") \
    >/dev/null 2>&1
modes() { find "$1" -mindepth 1 -printf '%m %P\n' | sort -k2; }
is "$(modes "$TMP/um0")" "700 new
644 new/u.db
644 new/u.db-mail" "umask 000: the directory is private, no file is writable by others"
is "$(modes "$TMP/um7")" "700 new
600 new/u.db
600 new/u.db-mail" "umask 077: nothing readable by others"

# Permissions: as an unprivileged user (root passes every check).
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "# SKIP permission cases: need root and setpriv to become nobody"
	test_done
	exit
fi
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    env HOME="$TMP" MLQ_CONFIG=/dev/null "$@"
}
chmod 755 "$TMP"
chmod 644 "$MLQ_DB" "$MLQ_DB-mail"
rm -f "$MLQ_DB-wal" "$MLQ_DB-shm" "$MLQ_DB-mail-wal" "$MLQ_DB-mail-shm"
before=$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')
as_nobody "$MLQ" --db "$MLQ_DB" search --format json >"$TMP/ro.json" 2>"$TMP/err"
is "$? $(jq length <"$TMP/ro.json")" "0 $before" \
    "a database the user may only read is searched"
as_nobody "$MLQ" --db "$MLQ_DB" thread --format mbox '<a-autumn-1@autumn.edu>' \
    >"$TMP/ro.mbox" 2>"$TMP/err"
ok "$([ $? -eq 0 ] && grep -q '^Message-I[dD]: <a-autumn-1@autumn.edu>' \
    "$TMP/ro.mbox"; echo $?)" "and its mail read"
ls "$MLQ_DB"-* | grep -e -shm -e -wal
ok "$((! $?))" "with no file created beside it"
one_line as_nobody "$MLQ" --db "$MLQ_DB" import "$TMP/a"
ok $? "an import into it: exit 3, one line"
is "$(cat "$TMP/err")" \
    "mlq: '$MLQ_DB' cannot be written: check the permissions of the file and its directory" \
    "that says it cannot be written"
one_line as_nobody "$MLQ" --db "$TMP/new.db" import "$TMP/a"
ok $? "a new database in a directory the user may not write: one line"
is "$(cat "$TMP/err")" "mlq: cannot create '$TMP/new.db': Permission denied" \
    "that names the file and the cause"

# An unreadable file is named and skipped; the rest is imported.
mkdir -p "$TMP/u/cur" "$TMP/u/new" "$TMP/u/tmp" "$TMP/home/db"
cp "$TMP"/b/*.eml "$TMP/u/cur/"
chmod -R a+rX "$TMP/u"
chmod 000 "$TMP/u/cur/2.eml"
chmod 777 "$TMP/home/db"
as_nobody "$MLQ" --db "$TMP/home/db/u.db" import "$TMP/u" >"$TMP/out" \
    2>"$TMP/err"
is "$?" 3 "an unreadable file in a maildir: exit 3"
is "$(cat "$TMP/err")" "mlq: '$TMP/u/cur/2.eml': Permission denied (skipped)" \
    "it is named and skipped"
is "$(cat "$TMP/out")" "imported $((n - 1)) new, 0 duplicate, 1 rejected" \
    "and every other message is imported"

test_done

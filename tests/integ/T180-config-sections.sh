#!/bin/sh
# A command reads only the config sections it needs: a broken [digest]
# or [source] is one warning for search and show, still an error for
# digest and mlqd -n; the shipped example passes mlqd -n as it is.
. "$top_srcdir/tests/lib/test-lib.sh"

cp "$top_srcdir/contrib/mlq.conf.example" "$TMP/example.conf"
"$MLQD" -n -c "$TMP/example.conf" >"$TMP/out" 2>&1
is "$?:$(cat "$TMP/out")" "0:configuration OK" "the example config passes mlqd -n"

"$MLQ" import "$top_srcdir/contrib/sample/northfield.mbox" >/dev/null
printf '[digest]\nbogus = 1\n[source "x"]\nurl = https://lore.kernel.org/x/\n' \
    >"$MLQ_CONFIG"
"$MLQ" search --format ids --patches f:northfield.edu s:gizmo >"$TMP/out" 2>"$TMP/err"
is "$?:$(cat "$TMP/out"):$(cat "$TMP/err")" \
    "0:20201214160000.2002-1-hpritch@cs.northfield.edu:mlq: warning: $MLQ_CONFIG:2: [digest]: unknown key 'bogus' (search does not need it)" \
    "search answers under a broken [digest], with one warning"
"$MLQ" show 20201214160000.2002-1-hpritch@cs.northfield.edu >/dev/null 2>"$TMP/err"
is "$?:$(wc -l <"$TMP/err" | tr -d ' ')" "0:1" "so does show"
"$MLQ" digest >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlq: $MLQ_CONFIG:2: [digest]: unknown key 'bogus'" \
    "digest, which reads it, stops"
"$MLQD" -n >/dev/null 2>&1
is "$?" 2 "mlqd -n refuses it"
printf '[database]\nbogus = 1\n' >"$MLQ_CONFIG"
"$MLQ" search x >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlq: $MLQ_CONFIG:2: [database]: unknown key 'bogus'" \
    "a broken section search does need stops it"

# A server that is not this host's: once a minute at most.
printf '[source "lkml"]\nurl = https://lore.kernel.org/lkml/\ninterval = 1s\n' \
    >"$MLQ_CONFIG"
"$MLQD" -n >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" \
    "2:mlqd: $MLQ_CONFIG:1: [source \"lkml\"]: interval: at least 1m for a server that is not this host's" \
    "interval = 1s for lore is refused"

# The digest as a whole, and a daemon with nothing to do.
printf '[digest]\nschedule = weekly mon 08:00\nto = a@example.org\n' >"$MLQ_CONFIG"
"$MLQD" -n >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlqd: $MLQ_CONFIG: [digest]: a schedule but no 'smtp' to send it through" \
    "mlqd -n names every gap of the digest, not 'configuration OK'"
# No 'from': the user at this host, as mail(1) sends.
printf 'smtp = smtp://127.0.0.1:25\n' >>"$MLQ_CONFIG"
"$MLQD" -n >"$TMP/out" 2>&1
is "$?:$(cat "$TMP/out")" "0:configuration OK" "a digest's 'from' defaults"

# Every error of the file, each with its line and key; then exit 2.
printf '%s\n' '[database]' 'bogus = 1' '[source "a"]' 'interval = 5m' \
    '[nosuch]' 'foo = bar' '[source "b"]' 'url = https://lore.kernel.org/x/' \
    'interval = 10s' '[digest]' 'unreviewed-days = 999' >"$MLQ_CONFIG"
want="$MLQ_CONFIG:2: [database]: unknown key 'bogus'
$MLQ_CONFIG:3: [source \"a\"]: missing key 'url'
$MLQ_CONFIG:5: unknown section [nosuch]
$MLQ_CONFIG:7: [source \"b\"]: interval: at least 1m for a server that is not this host's
$MLQ_CONFIG:11: [digest]: unreviewed-days: '999' is not a number in 1..365"
"$MLQD" -n >/dev/null 2>"$TMP/err"
is "$?:$(sed 's/^mlqd: //' "$TMP/err")" "2:$want" "mlqd -n reports every error, not the first"
"$MLQ" config check >/dev/null 2>"$TMP/err"
is "$?:$(sed 's/^mlq: //' "$TMP/err")" "2:$want" "mlq config check, the same"
"$MLQ" config check -c "$TMP/example.conf" >"$TMP/out" 2>&1
is "$?:$(cat "$TMP/out")" "0:configuration OK" "mlq config check of a good file"
: >"$MLQ_CONFIG"
"$MLQD" -f --once >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlqd: nothing to do: no [source], no [repo] and no digest schedule in $MLQ_CONFIG" \
    "mlqd with nothing to do says so and exits 2"

# A whole archive from a remote server: said once, with the polite way.
printf '[source "far"]\nurl = https://192.0.2.1/x/\nsince = all\n' >"$MLQ_CONFIG"
timeout 2 "$MLQD" -f >/dev/null 2>"$TMP/err" </dev/null
is "$(grep -c "source 'far': since = all fetches the whole archive through its search; a public-inbox git mirror (grokmirror, lei) is the polite way to get one" "$TMP/err")" 1 \
    "since = all on a remote server is logged once"

# No syslog socket and stderr not a terminal: mlqd logs there and stays.
if [ -S /dev/log ]; then
	ok 0 "# SKIP this machine has a syslog socket"
else
	printf '[source "s"]\nurl = %s\n' "$TMP/none.mbox" >"$MLQ_CONFIG"
	timeout 2 "$MLQD" >/dev/null 2>"$TMP/err" </dev/null
	is "$?:$(grep -c 'mlqd: started, database' "$TMP/err")" "124:1" \
	    "without syslog, a detached mlqd logs to stderr and stays"
fi

test_done

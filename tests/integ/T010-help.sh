#!/bin/sh
# mlq help CMD and mlq CMD --help: the command's usage, with no database
# and whatever the config holds (INTERFACE.md).
. "$top_srcdir/tests/lib/test-lib.sh"

# A config no command could load, and no database.
printf '[bogus]\nkey = value\n' >"$MLQ_CONFIG"
cmds=$("$MLQ" help | awk '/^  / { print $1 }')
is "$(echo "$cmds" | grep -c -x -e show -e import -e digest)" 3 \
    "mlq help lists the commands"
for c in $cmds; do
	"$MLQ" help "$c" >"$TMP/help" 2>"$TMP/err"
	is "$?:$(sed -n 1p "$TMP/help" | cut -d' ' -f1-3):$(cat "$TMP/err")" \
	    "0:usage: mlq $c:" "mlq help $c"
	"$MLQ" "$c" --help >"$TMP/help2" 2>&1
	is "$?:$(cmp -s "$TMP/help" "$TMP/help2" && echo same)" "0:same" \
	    "mlq $c --help says the same"
done
is "$(ls "$TMP" | grep -c 'mlq\.db')" 0 "no database was made"
"$MLQ" help nosuch >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlq: help: unknown command 'nosuch' (see 'mlq help')" \
    "help for an unknown command: one line, exit 2"
# After "--" it is an argument, not a request for help.
"$MLQ" show -- --help >/dev/null 2>"$TMP/err"
is "$?:$(grep -c '^mlq: warning: .*bogus' "$TMP/err")" "3:1" \
    "show -- --help reads the config (a warning: show needs no [bogus]) and the database"

"$MLQ" help search >"$TMP/help"
is "$(grep -c -e '^statuses: pending' -e '^tags: nack' -e '^formats: text' "$TMP/help")" 3 \
    "help search names the values of --status, --tag and --format"
"$MLQ" show -h >"$TMP/h" 2>&1
is "$?:$(sed -n 1p "$TMP/h")" "0:usage: mlq show [--format text|json] MSGID" "-h is --help"

"$MLQD" --version >"$TMP/v" 2>&1
is "$?:$(cut -d' ' -f1 "$TMP/v")" "0:mlqd" "mlqd --version"
"$MLQD" --help >"$TMP/h" 2>&1
is "$?:$(grep -c -e '^  -' -e '^      --' "$TMP/h")" "0:8" \
    "mlqd --help describes every option, one line each"

# Near misses: one line, exit 2, the nearest name; no abbreviations.
: >"$MLQ_CONFIG"
"$MLQ" import --list linux-nfs "$top_srcdir/tests/fixtures/mail/autumn.eml" >/dev/null
near() { "$MLQ" "$@" >/dev/null 2>"$TMP/err"; echo "$?:$(cat "$TMP/err")"; }
is "$(near search --form ids)" \
    "2:mlq: search: unknown option '--form' (did you mean '--format'?)" \
    "--form is not --format"
is "$(near serch x)" "2:mlq: unknown command 'serch' (did you mean 'search'?)" \
    "a command misspelt"
is "$(near search --status nacke)" \
    "2:mlq: search: unknown status 'nacke' (did you mean 'nacked'?)" \
    "a status misspelt"
list=$("$MLQ" lists | cut -d' ' -f1)
is "$(near search --list "${list}x")" \
    "2:mlq: search: no list '${list}x' (did you mean '$list'?)" "a list misspelt"
is "$("$MLQ" lists | wc -l | tr -d ' ')" 1 "mlq lists: one line a list"
is "$(MLQ_DB=$TMP/elsewhere.db "$MLQ" search --db "$MLQ_DB" --format ids | wc -l | tr -d ' ')" 1 \
    "--db after the command"

test_done

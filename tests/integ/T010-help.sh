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
is "$?:$(grep -c '^mlq: .*bogus' "$TMP/err")" "2:1" \
    "show -- --help reads the config (which is refused)"

test_done

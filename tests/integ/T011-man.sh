#!/bin/sh
# The man pages say what the programs do: every option that `mlq help
# CMD`, `mlq --help` and `mlqd --help` list is in the page, and every
# option the page gives is one the program takes; every config key of
# lib/conf/conf-keys.c is in mlq.conf(5) and the reverse; each page renders
# without a warning.  The shell completion finds the same commands.
. "$top_srcdir/tests/lib/test-lib.sh"
need groff
man1=$top_builddir/doc/mlq.1 man8=$top_builddir/doc/mlqd.8
man5=$top_builddir/doc/mlq.conf.5
for m in "$man1" "$man8" "$man5"; do
	groff -ww -z -t -man "$m" >"$TMP/groff" 2>&1
	is "$?:$(cat "$TMP/groff")" "0:" "$(basename "$m") renders without a warning"
done

# The options in roff text: \- is a dash.
opts() { sed 's/\\-/-/g' | grep -o -e '--[a-z][a-z-]*' -e '-[a-zA-Z]\b' | sort -u; }
# The item lines (after .TP) of a section of a page: from the line
# matching $2 to the next .SS or .SH.
section() {
	awk -v h="$2" 'f && /^[.]S[SH] / { exit } $0 ~ h { f = 1; next }
	    f && p == ".TP" { print } { p = $0 }' "$1"
}

printf '[bogus]\nkey = value\n' >"$MLQ_CONFIG"
cmds=$("$MLQ" help | awk '/^  / { print $1 }')
for c in $cmds; do
	"$MLQ" help "$c" | sed -n 's/^usage: //p' | opts >"$TMP/help"
	section "$man1" "^[.]SS mlq $c( |\$)" | opts >"$TMP/man"
	diff "$TMP/help" "$TMP/man" >"$TMP/d"
	is "$?:$(tr '\n' ' ' <"$TMP/d")" "0:" "mlq.1: mlq $c, the options mlq help gives"
done
is "$(grep '^\.SS mlq ' "$man1" | awk '{ print $3 }' | sort | tr '\n' ' ')" \
    "$(echo "$cmds" | sort | tr '\n' ' ')" "mlq.1: a section for each command, no other"
"$MLQ" --help 2>&1 | sed -n 's/^usage: //p' | opts >"$TMP/help"
section "$man1" '^[.]SH GLOBAL OPTIONS' | opts >"$TMP/man"
diff "$TMP/help" "$TMP/man" >"$TMP/d"
is "$?:$(tr '\n' ' ' <"$TMP/d")" "0:" "mlq.1: the global options"

"$MLQD" --help | opts >"$TMP/help"
section "$man8" '^[.]SH OPTIONS' | opts >"$TMP/man"
diff "$TMP/help" "$TMP/man" >"$TMP/d"
is "$?:$(tr '\n' ' ' <"$TMP/d")" "0:" "mlqd.8: the options mlqd --help gives"

# Config keys, section by section.
sed -n 's/^	{ SECT_\([A-Z]*\), "\([a-z-]*\)".*/\1 \2/p' "$top_srcdir/lib/conf/conf-keys.c" |
    tr 'A-Z' 'a-z' | sort -u >"$TMP/keys"
[ "$(wc -l <"$TMP/keys")" -gt 15 ]
ok $? "$(wc -l <"$TMP/keys") keys in lib/conf/conf-keys.c"
awk '/^\.SH \[/ { s = $2; sub(/^\[/, "", s); sub(/[]]$/, "", s); next }
     /^\.SH / { s = "" }
     s != "" && prev == ".TP" && /^\.BI? / { k = $2; gsub(/\\/, "", k); print s, k }
     { prev = $0 }' "$man5" | sort -u >"$TMP/man"
diff "$TMP/keys" "$TMP/man" >"$TMP/d"
is "$?:$(tr '\n' ' ' <"$TMP/d")" "0:" "mlq.conf.5: every key, in its section"

# Completion: bash's offers mlq's commands (bash-completion not needed).
cat >"$TMP/comp.sh" <<'EOS'
. "$1/contrib/completion/mlq.bash"
COMP_WORDS=(mlq ""); COMP_CWORD=1; _mlq; echo "${COMPREPLY[*]}"
COMP_WORDS=(mlq search --status ""); COMP_CWORD=3; _mlq; echo "${COMPREPLY[*]}"
COMP_WORDS=(mlq am -); COMP_CWORD=2; _mlq; echo "${COMPREPLY[*]}"
EOS
PATH=$top_builddir/cli:$PATH bash "$TMP/comp.sh" "$top_srcdir" >"$TMP/comp" 2>&1
is "$(sed -n 1p "$TMP/comp" | tr ' ' '\n' | grep -v -x help | sort | tr '\n' ' ')" \
    "$(echo "$cmds" | sort | tr '\n' ' ')" "bash completion: the commands"
is "$(sed -n 2p "$TMP/comp")" \
    "pending questioned reviewed changes-requested superseded applied nacked reverted" \
    "bash completion: --status values"
is "$(sed -n 3p "$TMP/comp")" "--cover --no-trailers --partial -o -v --help --db --config" \
    "bash completion: a command's options"
if command -v zsh >/dev/null; then
	zsh -n "$top_srcdir/contrib/completion/_mlq"
	ok $? "zsh completion parses"
fi
test_done

#!/bin/sh
# Hostile text in every search flag and query prefix, and as the argument
# of show, thread and who: quotes, SQL, LIKE wildcards, FTS5 syntax,
# control bytes and invalid UTF-8 are only ever data.  Each finds nothing
# (nothing stored contains them) or is refused in one line; none crashes
# and the database is the same afterwards.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3

run_ok "import the fixtures" "$MLQ" import "$top_srcdir/tests/fixtures/mail"
n=$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM msg')
sum() { cat "$MLQ_DB" "$MLQ_DB-mail" | cksum; }
before=$(sum)

bad=$(printf '\377\376')
esc=$(printf '\033[2J')
cr=$(printf '\r')
set -- "x' OR '1'='1" "x\" OR \"1\"=\"1" "'; DROP TABLE msg; --" \
    "%" "%%" "x%" "%x%" "x_z" "\\" "\\%" "*" "NEAR(x y)" "x AND OR" \
    "\"unbalanced" "(" ")" "x) OR (1" "$bad" "x${bad}z" "x—z" "$esc" \
    "x${cr}z" "msg" "rowid" "fts" "'" "''" "\"\"" "x;y" "x--" "/*" \
    "{x y}" "^x" "x:y:z" "- -x"

# check WHAT CMD...: nothing found (exit 1, nothing printed), or refused
# with one line of error (exit 1 or 2; a usage error adds the usage line);
# never a signal, never exit 3 (a database error).
checked=0
failed=0
check() {
	_what=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_lines=$(wc -l <"$TMP/err")
	checked=$((checked + 1))
	case $_rc in
	1) [ ! -s "$TMP/out" ] && [ "$_lines" -le 1 ] && return 0 ;;
	2) [ "$_lines" -eq 1 ] || { [ "$_lines" -eq 2 ] &&
	    sed -n 2p "$TMP/err" | grep -q '^usage: '; } && return 0 ;;
	esac
	failed=$((failed + 1))
	echo "# $_what: exit $_rc, $(wc -l <"$TMP/out") results, $_lines lines:"
	sed 's/^/#   /' "$TMP/err" | head -3
	return 1
}

# Under AddressSanitizer a run's leak check at exit costs more than its
# search: leaks are checked for one value of each kind (quotes, LIKE, FTS
# syntax, invalid UTF-8, control bytes) on every command, memory errors
# and undefined behaviour for every value.
asan=${ASAN_OPTIONS-}
i=0
for v in "$@"; do
	i=$((i + 1))
	if [ -n "$asan" ]; then
		case $i in
		1|7|14|18|21) ASAN_OPTIONS=$asan ;;
		*) ASAN_OPTIONS=$asan:detect_leaks=0 ;;
		esac
		export ASAN_OPTIONS
	fi
	for flag in --from --addr --subject --list --file --since --until \
	    --status --tag --commit --limit; do
		check "$flag '$v'" "$MLQ" search --format ids "$flag" "$v"
	done
	for p in "" s: b: bs: nq: q: f: t: c: tc: a: l: m: dfn: dfa: dfb: \
	    dfctx: dfhh: d: rt: patchid: status: tag:; do
		check "query '$p$v'" "$MLQ" search --format ids "$p$v"
	done
	check "show '$v'" "$MLQ" show "$v"
	check "thread '$v'" "$MLQ" thread "$v"
	"$MLQ" who "$v" >"$TMP/out" 2>&1
	case $? in
	1) grep -q '^submissions: *0 ' "$TMP/out" || check "who '$v'" false ;;
	2) [ "$(wc -l <"$TMP/out")" -le 2 ] || check "who '$v'" false ;;
	*) check "who '$v'" false ;;
	esac
done
[ -n "$asan" ] && { ASAN_OPTIONS=$asan; export ASAN_OPTIONS; }
ok "$failed" "$checked searches: each finds nothing or refuses in one line"

# LIKE's wildcards are literal: '_' and '%' find what holds them.
want=$(sqlite3 "$MLQ_DB" "SELECT count(*) FROM msg WHERE instr(subject, '_')")
ok "$([ "$want" -gt 0 ] && [ "$want" -lt "$n" ]; echo $?)" \
    "some subjects hold '_' ($want of $n)"
is "$("$MLQ" search --format ids --subject _ | wc -l)" "$want" \
    "--subject _ finds exactly those"

is "$(sum)" "$before" "the database files are unchanged"
is "$(sqlite3 "$MLQ_DB" 'PRAGMA integrity_check')" ok "and pass integrity_check"
is "$("$MLQ" search --format ids | wc -l)" "$n" "every message still found"
test_done

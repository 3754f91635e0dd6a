#!/bin/sh
# Schema 015: a reference (Fixes:, a revert) keeps the date of the message
# that made it, so a new posting of the named title is weighed against
# that date without reading the message's row.  A database written before
# gets the dates on migration, and a title that arrives afterwards picks
# the posting a fresh import picks: the one sent before the reference,
# where without its date the latest version would win.
. "$top_srcdir/tests/lib/test-lib.sh"
need sqlite3
need jq

msg() { # FROM DATE MSGID SUBJECT [BODY-LINE]
	printf 'From x Thu Jan  1 00:00:00 1970\nFrom: %s\nDate: %s\n' "$1" "$2"
	printf 'Message-Id: <%s>\nSubject: %s\n\n' "$3" "$4"
	printf 'The knob turns %s.\n' "$3"
	[ -n "${5:-}" ] && printf '\n%s\n' "$5"
	printf '\n'
}
msg 'Carl <carl@example.com>' 'Mon, 01 Mar 2021 09:00:00 +0000' fix@example.com \
    '[PATCH] gadget: clamp the knob' \
    'Fixes: 0123456789ab ("gadget: tune the knob")' >"$TMP/fix.mbox"
# The later version first: when v1 comes, only the reference's date says
# that v1 beats v2 for it.
{
	msg 'Alice <alice@example.org>' 'Tue, 01 Jun 2021 09:00:00 +0000' v2@example.org \
	    '[PATCH v2] gadget: tune the knob'
	msg 'Alice <alice@example.org>' 'Fri, 01 Jan 2021 09:00:00 +0000' v1@example.org \
	    '[PATCH] gadget: tune the knob'
} >"$TMP/posts.mbox"

fixed_by() { # DB: each posting's fixed_by, as mlq show gives it
	for id in v1@example.org v2@example.org; do
		printf '%s ' "$id"
		MLQ_DB=$1 "$MLQ" show --format json "$id" |
		    jq -c '[.fixed_by[].message_id]'
	done
}

# Reference first, title later, in a database of this version.
run_ok "import the fix" "$MLQ" import "$TMP/fix.mbox"
old=$TMP/old.db
cp "$MLQ_DB" "$old" && cp "$MLQ_DB-mail" "$old-mail" || ok 1 "copy"
run_ok "import the postings" "$MLQ" import "$TMP/posts.mbox"
is "$(fixed_by "$MLQ_DB" | paste -sd' ' -)" \
    'v1@example.org ["fix@example.com"] v2@example.org []' \
    "the fix names the posting sent before it"

# The same reference as schema 014 kept it: no date, indexes by key only.
sqlite3 "$old" "$(msg_as_015) $(ref_as_014) $(file_as_020) PRAGMA user_version = 14;" || ok 1 "old reference table"
is "$(sqlite3 "$old" "SELECT count(*) FROM ref")" 1 "the old database holds the reference"

run_ok "import migrates" env MLQ_DB="$old" "$MLQ" import "$TMP/posts.mbox"
is "$(sqlite3 "$old" 'PRAGMA user_version')" "$(sqlite3 "$MLQ_DB" 'PRAGMA user_version')" \
    "to the current version"
is "$(sqlite3 "$old" "SELECT r.date = m.date FROM ref r JOIN msg m ON m.id = r.msg")" 1 \
    "the reference has its message's date"
is "$(fixed_by "$old" | paste -sd' ' -)" "$(fixed_by "$MLQ_DB" | paste -sd' ' -)" \
    "and names the posting a fresh import names"
for key in "norm = 'x' AND norm <> ''" "ckey = 'x' AND ckey IS NOT NULL"; do
	plan=$(sqlite3 "$old" "EXPLAIN QUERY PLAN SELECT msg, kind, commit_id, date FROM ref WHERE $key")
	case $plan in
	*"COVERING INDEX ref_"*) ok 0 "look-up by ${key%% *} reads one index" ;;
	*) ok 1 "look-up by ${key%% *} reads one index: $plan" ;;
	esac
done
is "$(sqlite3 "$old" 'PRAGMA integrity_check')" ok "the file is consistent"

test_done

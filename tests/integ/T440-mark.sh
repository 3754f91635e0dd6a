#!/bin/sh
# mlq mark: a maintainer's correction, recorded with who and when, wins
# over what mlq derives in show, search, who and digest; it holds when
# new mail arrives (mlq import, mlqd), through mlq reindex and through
# the rebuild of a torn index; --clear gives the derived values back.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq sqlite3

FIX="$top_srcdir/tests/fixtures/review"
P=nack-p@example.org    # Alice's patch, NACKed by Bob's reply R
R=nack-r1@example.net
export MLQ_NOW=1619863200 # 2021-05-01 10:00 UTC
JANE="Jane Maintainer <jane@example.org>"

# Help needs neither a database nor a config that loads.
printf '[bogus]\n' >"$MLQ_CONFIG"
USAGE="usage: mlq mark ID (--status S | --tag +T | --tag -T | --clear)"
run_ok "mlq mark --help with no database" "$MLQ" mark --help
is "$(sed -n 1p "$TMP/.out")" "$USAGE" "mlq mark --help: the usage"
run_ok "mlq help mark" "$MLQ" help mark
is "$(sed -n 1p "$TMP/.out")" "$USAGE" "mlq help mark: the usage"
printf '[identity]\nname = %s\n' "$JANE" >"$MLQ_CONFIG"

run_ok "import four review fixtures" "$MLQ" import --list widget \
    "$FIX"/nack.mbox "$FIX"/reviewed.mbox "$FIX"/questions.mbox "$FIX"/revert-title.mbox
st() { "$MLQ" show --format json "$1" | jq -r .status; }
tags() { "$MLQ" show --format json "$1" | jq -r '.tags | join(",")'; }
hits() { "$MLQ" search --format json "$@" | jq -r '.[].message_id' | sort; }
by_status() { "$MLQ" who --format json alice@example.org | jq -r ".by_status.$1 // 0"; }
digest() { "$MLQ" digest --since 2021-03-01 --until 2021-03-07 --format json; }
is "$(st $P)/$(tags $R)" "nacked/nack" "derived: the patch nacked, the reply nack"
nacked0=$(by_status nacked)
applied0=$(by_status applied)

# A status by hand.
run_ok "mark a status" "$MLQ" mark $P --status applied
is "$(cat "$TMP/.out")" "$P  status applied  tags nack" "mark says what holds now"
is "$(st $P)" applied "show: the status set by hand"
"$MLQ" show --format json $P | jq -c .marked >"$TMP/marked"
is "$(cat "$TMP/marked")" \
    "{\"status\":\"applied\",\"tags_added\":[],\"tags_removed\":[],\"by\":\"$JANE\",\"at\":\"2021-05-01T10:00:00Z\"}" \
    "show --format json: marked, by whom and when"
"$MLQ" show $P >"$TMP/show"
is "$(sed -n 2p "$TMP/show")" "status:   applied (set by hand)" "show: status set by hand"
is "$(grep '^set by hand:' "$TMP/show")" \
    "set by hand: status applied ($JANE, 2021-05-01)" "show: who and when"
is "$(hits --status nacked | grep -c $P)" 0 "search --status nacked: not the patch"
is "$(hits --status applied | grep -c $P)" 1 "search --status applied: the patch"
is "$(by_status nacked) $(by_status applied)" "$((nacked0 - 1)) $((applied0 + 1))" \
    "who: one nacked fewer, one applied more"
is "$(digest | jq -r --arg p $P '.nacked[] | select(.message_id == $p) | .status')" \
    applied "digest: the patch's status as set"
is "$(sqlite3 "$MLQ_DB-mail" "SELECT msgid, what, value, who, at FROM mark")" \
    "$P|0|6|$JANE|1619863200" "the mail file keeps the mark too"

# A tag taken away from the reply: the review follows, the status holds.
run_ok "take a tag away" "$MLQ" mark "<$R>" --tag -nack
is "$(tags $R)" "" "show: the reply lost its nack"
is "$(hits --tag nack | grep -c -e $P -e $R)" 0 "search --tag nack: neither"
is "$(st $P)" applied "the status set by hand holds"
"$MLQ" show --format json $P >"$TMP/p.json"
is "$(jq -c '.replies[0] | [.marked.tags_removed, .evidence]' "$TMP/p.json")" \
    '[["nack"],[]]' "show: the reply's mark, and no evidence for what it lost"
"$MLQ" show $P >"$TMP/show"
is "$(grep -c "^      set by hand: -nack ($JANE, 2021-05-01)\$" "$TMP/show")" 1 \
    "show: the reply's mark in the timeline"
is "$(grep -c 'nack: "NACK' "$TMP/show")" 0 "and not the evidence"
digest >"$TMP/d.json"
is "$(jq -c '[(.nacked | length), .lists[0].nacks]' "$TMP/d.json")" "[0,0]" \
    "digest: no NACK left in the period"

# A tag given: the submission it reviews has it too.
is "$(tags rev-p@example.org)" reviewed "derived: rev-p reviewed"
run_ok "give a tag" "$MLQ" mark rev-r1@example.net --tag +tested --tag +ack
is "$(tags rev-r1@example.net),$(tags rev-p@example.org)" "ack,reviewed,tested,ack,reviewed,tested" \
    "the reply's tags and its submission's"
is "$(hits --tag tested | tr '\n' ' ')" "rev-p@example.org rev-r1@example.net " \
    "search --tag tested"
run_ok "take a tag away from the submission" "$MLQ" mark rev-p@example.org --tag -tested
is "$(tags rev-p@example.org)/$(tags rev-r1@example.net)" "ack,reviewed/ack,reviewed,tested" \
    "a submission's own mark wins over its replies' tags"
# A status by hand wins even over a revert.
is "$(st rt-o@example.org)" reverted "derived: rt-o reverted"
run_ok "mark a reverted patch" "$MLQ" mark rt-o@example.org --status reviewed
is "$(st rt-o@example.org)" reviewed "the mark wins over reverted"
# A tag given where a rule drops it: q2-r2 is the submitter's own answer.
run_ok "give the submitter's own reply a change request" "$MLQ" mark q2-r2@example.org --tag +changes-requested
is "$(tags q2-r2@example.org)/$(st q2-p@example.org)" "changes-requested/changes-requested" \
    "a tag given by hand counts where the rule would drop it"

# New mail in the thread: more NACKs, by import and by mlqd.
cat >"$TMP/more.mbox" <<'EOF'
From carl@example.com Tue Mar  2 08:00:00 2021
From: Carl Other <carl@example.com>
Date: Tue, 02 Mar 2021 08:00:00 +0000
Subject: Re: [PATCH] widget: drop the probe delay
Message-Id: <nack-r2@example.com>
In-Reply-To: <nack-r1@example.net>
References: <nack-p@example.org> <nack-r1@example.net>
To: linux-widget@lists.example.org

NACK. Bob is right, the older boards need the delay.

EOF
run_ok "import a reply into the thread" "$MLQ" import "$TMP/more.mbox"
is "$(st $P)/$(tags $R)/$(tags nack-r2@example.com)" "applied//nack" \
    "after new mail: the marks hold, the new reply is derived"
sed -e 's/nack-r2@example.com/nack-r3@example.com/' \
    -e 's/^Date: .*/Date: Wed, 03 Mar 2021 08:00:00 +0000/' "$TMP/more.mbox" >"$TMP/daemon.mbox"
printf '[identity]\nname = %s\n[source "more"]\nurl = %s\n' "$JANE" "$TMP/daemon.mbox" >"$MLQ_CONFIG"
run_ok "mlqd --once reads another reply" "$MLQD" --once
is "$(st $P)/$(tags $R)/$(tags nack-r3@example.com)" "applied//nack" \
    "after mlqd: the marks hold"
printf '[identity]\nname = %s\n' "$JANE" >"$MLQ_CONFIG"

# mlq reindex: the marks come back from the mail file, with the derived
# state the index had thrown away.
snapshot() {
	sqlite3 "$MLQ_DB" "SELECT msgid, status, tags FROM msg ORDER BY msgid;
	    SELECT m.msgid, g.tag FROM msg_tag g JOIN msg m ON m.id = g.msg ORDER BY 1, 2;
	    SELECT * FROM mark ORDER BY msgid, what"
}
snapshot >"$TMP/before"
sqlite3 "$MLQ_DB" "DELETE FROM mark; UPDATE msg SET status = 1, tags = 0;
    DELETE FROM msg_tag"
run_ok "reindex" "$MLQ" reindex
snapshot >"$TMP/after"
is "$(diff "$TMP/before" "$TMP/after")" "" "reindex: statuses, tags and marks as before"
is "$(st $P)/$(tags $R)" "applied/" "reindex: the marks win"

# The system went down under an import: the rebuild reads only the mail
# file, and the marks are there.
[ -r /proc/sys/kernel/random/boot_id ] && {
	echo 00000000-0000-4000-8000-000000000000 >"$MLQ_DB-unsynced-4242"
	head -c 65536 /dev/urandom >"$MLQ_DB"
	run_ok "reindex a torn index" "$MLQ" reindex
	snapshot >"$TMP/after"
	is "$(diff "$TMP/before" "$TMP/after")" "" "torn rebuild: statuses, tags and marks as before"
	is "$("$MLQ" show --format json $P | jq -c .marked.by)" "\"$JANE\"" \
	    "torn rebuild: who marked"
}

# Errors: one line, the right exit code, nothing recorded.
marks() { echo "$(sqlite3 "$MLQ_DB" 'SELECT count(*) FROM mark')/$(sqlite3 "$MLQ_DB-mail" 'SELECT count(*) FROM mark')"; }
n=$(marks)
fails() { # EXIT WHAT ARGS...: exit code EXIT, one line on stderr matching WHAT
	_rc=$1 _what=$2; shift 2
	"$MLQ" mark "$@" >"$TMP/out" 2>"$TMP/err"
	is "$?|$(wc -l <"$TMP/err" | tr -d ' ')|$(grep -c -- "$_what" "$TMP/err")|$(wc -c <"$TMP/out" | tr -d ' ')" \
	    "$_rc|1|1|0" "mark $*: exit $_rc, one line: $(cat "$TMP/err")"
}
fails 1 "^mlq: mark: no message 'nosuch@example.org'$" nosuch@example.org --status applied
fails 2 "^mlq: mark: unknown status 'merged-ish' (one of pending, .*, merged)$" $P --status merged-ish
fails 2 "^mlq: mark: unknown tag 'acked' (one of nack, .*, revert)$" $P --tag +acked
fails 2 "^mlq: mark: --tag 'nack': give a tag with +TAG, take it away with -TAG$" $P --tag nack
fails 2 "^mlq: mark: nothing to do: give --status, --tag or --clear$" $P
fails 2 "^mlq: mark: one ID is needed, not 0$" --status applied
fails 2 "^mlq: mark: one ID is needed, not 2$" $P $R --status applied
fails 2 "^mlq: mark: --status given twice$" $P --status applied --status nacked
fails 2 "^mlq: mark: tag 'nack' both given and taken away$" $P --tag +nack --tag -nack
fails 2 "^mlq: mark: --clear drops every mark: give it alone$" $P --clear --status applied
fails 2 "^mlq: mark: --status needs a value$" $P --status
fails 2 "^mlq: mark: unknown option '--force' (see 'mlq help mark')$" $P --force
fails 2 "^mlq: mark '$R': a reply has no status, only a submission$" $R --status nacked
fails 2 "^mlq: mark '$R': 'revert' is a submission's tag, not a reply's$" $R --tag +ack --tag +revert
is "$(marks)" "$n" "the failed marks recorded nothing"

# Who, when no [identity] is set: the login name, escaped on a terminal.
: >"$MLQ_CONFIG"
run_ok "mark as \$USER" env USER="$(printf 'ro\033[31mot')" \
    "$MLQ" mark q3-p@example.org --status reviewed
"$MLQ" show q3-p@example.org >"$TMP/show"
is "$(grep '^set by hand:' "$TMP/show")" \
    'set by hand: status reviewed (ro\e[31mot, 2021-05-01)' "the login name, escaped"
printf '[identity]\nname = %s\n' "$JANE" >"$MLQ_CONFIG"

# --clear: what is derived counts again.
run_ok "clear the patch" "$MLQ" mark $P --clear
run_ok "clear the reply" "$MLQ" mark $R --clear
is "$(st $P)/$(tags $R)" "nacked/nack" "cleared: derived again"
is "$("$MLQ" show --format json $P | jq -c '[.marked, .replies[0].marked]')" "[null,null]" \
    "cleared: nothing set by hand"
is "$(hits --tag nack | grep -c -e $P -e $R)" 2 "search --tag nack: both again"
is "$(sqlite3 "$MLQ_DB-mail" "SELECT count(*) FROM mark WHERE msgid IN ('$P', '$R')")" 0 \
    "cleared from the mail file too"
run_ok "clear a message with no mark" "$MLQ" mark $P --clear

test_done

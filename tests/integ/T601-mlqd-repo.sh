#!/bin/sh
# mlqd following a git tree's refs ([repo]): each poll reads what is new
# on each ref from its cursor, links it to the postings, and a rewritten
# ref (reset, rebased) loses the commits only its old tip had, under
# --once and under a running mlqd.  Mail that arrives after its commit
# is linked at the next poll.  All with git itself.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mlqd.sh"
need jq
. "$top_srcdir/tests/lib/git-tree.sh"
BASE=$(g rev-parse HEAD)

# One patch per topic branch, each posted on its own.
post() {
	g checkout -qb "t-$1" master
	sed -i "s/int $1;/int $1 = 1;/" "$R/f.c"
	g commit -qam "f: initialize $1"
	g format-patch -q --thread -o "$TMP/p-$1" master
	{ echo "From mlq@test Thu Jan  1 00:00:00 1970"
	  sed 1d "$TMP"/p-$1/*.patch; echo; } >"$TMP/$1.mbox"
	sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$TMP"/p-$1/*.patch
	g checkout -q master
}
A=$(post a); B=$(post b); C=$(post c); D=$(post d)
"$MLQ" import "$TMP/a.mbox" "$TMP/b.mbox" >/dev/null
status() { "$MLQ" show --format json "$1" | jq -r .status; }

cat >"$MLQ_CONFIG" <<EOC
[repo "linux"]
path = $R
branch = master
interval = 1s
EOC
run_ok "mlqd --once with a repo" "$MLQD" --once
is "$(source_field linux kind)" git "the repo is listed as a source"
is "$(source_field linux cursor)" "master:$BASE" "its cursor is master's tip"
is "$(source_field linux commits)" 1 "the base commit read"
is "$(status "$A")" pending "nothing merged yet"

g cherry-pick t-a >/dev/null
TIP1=$(g rev-parse HEAD)
run_ok "--once after a commit" "$MLQD" --once
is "$(status "$A")" merged "the applied patch is merged"
is "$("$MLQ" show --format json "$A" | jq -r '.commits[0] | "\(.repo) \(.ref) \(.how)"')" \
    "linux master patch-id" "in linux's master, by patch id"
is "$(source_field linux cursor)" "master:$TIP1" "the cursor moved"
is "$(source_field linux commits)" 2 "one more commit read, not the base again"
"$MLQ" sources >"$TMP/sources.txt"
grep -q "ref:          master at $TIP1" "$TMP/sources.txt"
ok $? "mlq sources shows the ref and where it was read to"

# Rewritten: a is dropped, b goes in instead.
g reset -q --hard "$BASE"
g cherry-pick t-b >/dev/null
"$MLQD" --once -v >"$TMP/rewrite.log" 2>&1
ok $? "--once after a rewrite"
grep -q "ref 'master' was rewritten; 1 commits left it" "$TMP/rewrite.log"
ok $? "the rewrite is logged with what it dropped"
is "$(status "$A")" pending "the dropped commit's patch is no longer merged"
is "$(status "$B")" merged "the new one is"
is "$("$MLQ" search --format json --commit "$TIP1" | jq length)" 0 \
    "the dropped commit is gone"

# A commit before its posting: mlq import links the mail at once ...
g cherry-pick t-c >/dev/null
run_ok "--once: c is read before its mail" "$MLQD" --once
"$MLQ" import "$TMP/c.mbox" >/dev/null
is "$(status "$C")" merged "mlq import links mail to the commits read"
# ... and mail mlqd fetches, at the repo's next poll.
g cherry-pick t-d >/dev/null
run_ok "--once: d's commit" "$MLQD" --once
cat >>"$MLQ_CONFIG" <<EOC
[source "box"]
url = $TMP/d.mbox
EOC
run_ok "--once: d's mail" "$MLQD" --once
run_ok "--once with nothing new on the ref" "$MLQD" --once
is "$(status "$D")" merged "the next poll links mail stored since"

# A running mlqd sees a ref rewritten under it.
mlqd_start
wait_for 20 mlqd_log_has "source 'linux': poll done"
ok $? "mlqd polls the repo"
g reset -q --hard "$BASE"
g cherry-pick t-a >/dev/null
wait_for 20 sh -c "[ \"\$('$MLQ' show --format json '$A' | jq -r .status)\" = merged ]"
ok $? "a rewrite under a running mlqd: a is merged again"
is "$(status "$B")" pending "and b, dropped, is not"
is "$(status "$C")" pending "nor c"
test_cleanup_pid "$MLQD_PID"

is "$("$MLQ" status --format json | jq -r '"\(.commits) \(.merged)"')" "2 1" \
    "mlq status counts the commits read and the postings merged"

# The digest: the ref's commits of the week, and the posting nobody
# reviewed that went in.
"$MLQ" digest --format json >"$TMP/digest.json"
is "$(jq -r '.merged[] | "\(.repo) \(.ref) \(.commits) \(.postings) \(.without_review)"' "$TMP/digest.json")" \
    "linux master 2 1 1" "digest: master's commits of the week, one from a posting, unreviewed"
is "$(jq -r '.merged_without_review[] | "\(.message_id) \(.commit.ref)"' "$TMP/digest.json")" \
    "$A master" "digest: the posting merged without review, with its commit"
"$MLQ" digest >"$TMP/digest.txt"
grep -q "^  linux master: 2 commits, 1 from postings, 1 of them without review" "$TMP/digest.txt"
ok $? "the text digest says it too"
grep -q "^  Merged as $(git -C "$R" rev-parse master) in linux master" "$TMP/digest.txt"
ok $? "with the whole commit id"
# A review, and it is no longer reported.
cat >"$TMP/review.mbox" <<EOR
From mlq@test Thu Jan  1 00:00:00 1970
From: Rob Reviewer <rob@example.org>
Subject: Re: [PATCH] f: initialize a
Message-Id: <review-a@example.org>
In-Reply-To: <$A>
Date: $(date -u -R)

Reviewed-by: Rob Reviewer <rob@example.org>

EOR
"$MLQ" import "$TMP/review.mbox" >/dev/null
is "$("$MLQ" digest --format json | jq -r '.merged[0].without_review, (.merged_without_review | length)' | tr '\n' ' ')" \
    "0 0 " "a reviewed posting is not merged without review"

# A revert posted under a title of its own names only the commit: once
# mlqd has read that commit, the revert finds the posting through it.
E=$(post e)
"$MLQ" import "$TMP/e.mbox" >/dev/null
g cherry-pick t-e >/dev/null
g checkout -qb rev-e
g revert --no-edit HEAD >/dev/null
g format-patch -q --thread -1 -o "$TMP/rev-e"
g checkout -q master
{ echo "From mlq@test Thu Jan  1 00:00:00 1970"
  sed -e 1d -e 's/^Subject: .*/Subject: [PATCH] f: leave e alone/' "$TMP"/rev-e/*.patch
  echo; } >"$TMP/rev-e.mbox"
grep -q "^This reverts commit $(g rev-parse master)\.$" "$TMP/rev-e.mbox"
ok $? "the revert names the commit"
"$MLQ" import "$TMP/rev-e.mbox" >/dev/null
is "$(status "$E")" pending "before the tree is read, nothing says what it reverts"
run_ok "--once reads e's commit" "$MLQD" --once
is "$(status "$E")" reverted "then the revert reaches the posting through the commit"
REV=$(sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$TMP/rev-e.mbox")
is "$("$MLQ" show --format json "$REV" | jq -r '"\(.reverts[0].message_id) \(.reverts_commit[0].id) \(.reverts_commit[0].ref)"')" \
    "$E $(g rev-parse master) master" "show: the revert names the posting and the commit"
"$MLQ" show "$REV" | grep -q "^reverts:  $(g rev-parse --short=12 master) in master (.*): f: initialize e$"
ok $? "in text too"

# "Applied as ID" in a plain reply: the commit, edited and retitled on
# the way in (no patch id, no title to match), is found by that id.
G=$(post g)
"$MLQ" import "$TMP/g.mbox" >/dev/null
g cherry-pick t-g >/dev/null
sed -i 's/int g = 1;/int g = 7;/' "$R/f.c"
g commit -q --amend -a -m "f: give g its value"
cat >"$TMP/applied-g.mbox" <<EOR
From mlq@test Thu Jan  1 00:00:00 1970
From: Mae Maintainer <mae@example.org>
Subject: Re: [PATCH] f: initialize g
Message-Id: <applied-g@example.org>
In-Reply-To: <$G>
Date: $(date -u -R)

> -int g;
> +int g = 1;

Applied as $(g rev-parse --short=12 HEAD) with the value changed, thanks.
EOR
"$MLQ" import "$TMP/applied-g.mbox" >/dev/null
run_ok "--once reads g's commit" "$MLQD" --once
is "$("$MLQ" show --format json "$G" | jq -r '"\(.status) \(.commits[0].how)"')" \
    "merged link" "an edited commit named by \"Applied as ID\" links its posting"

# A commit of the tree whose Fixes: names a's commit: a was fixed later.
AC=$(g log --format=%H --grep='^f: initialize a$' master)
g commit -q --allow-empty -m "f: fix a" \
    -m "Fixes: $(echo "$AC" | cut -c1-12) (\"f: initialize a\")"
FIX=$(g rev-parse HEAD)
run_ok "--once reads the fix" "$MLQD" --once
is "$("$MLQ" show --format json "$A" | jq -r '.fixed_in_tree[] | "\(.id) \(.fixes)"')" \
    "$FIX $AC" "show: the tree commit that fixes a's"
"$MLQ" show "$A" | grep -q "^fixed:    $(echo "$FIX" | cut -c1-12) "
ok $? "show's text says it too"
is "$("$MLQ" who --format json ann@example.org | jq -r --arg a "$A" '.recent[] | select(.message_id == $a) | .fixed_later')" \
    true "who counts a as fixed later"

# mlqd -n and mlq config check look at the trees: a ref mistyped, a
# path that is not there, each one line with file, line and key.
cat >"$MLQ_CONFIG" <<EOC
[repo "linux"]
path = $R
branch = master mastr
[repo "gone"]
path = $TMP/nowhere
branch = master
EOC
"$MLQ" config check 2>"$TMP/check.err"
is "$?" 2 "config check: two errors in the trees"
is "$(sed 's/: fatal: .*//' "$TMP/check.err")" \
"mlq: $MLQ_CONFIG:1: [repo \"linux\"]: branch: 'mastr': git rev-parse of 'mastr' in '$R' failed
mlq: $MLQ_CONFIG:4: [repo \"gone\"]: path: '$TMP/nowhere': No such file or directory" \
    "each names the file, line, key and git's reason"
"$MLQD" -n -c "$MLQ_CONFIG" >/dev/null 2>&1
is "$?" 2 "mlqd -n too"

# A ref that is not there: one line in mlq sources, nothing else lost.
cat >"$MLQ_CONFIG" <<EOC
[repo "linux"]
path = $R
branch = master nosuch
EOC
"$MLQD" --once >"$TMP/bad.log" 2>&1
is "$?" 3 "--once with a missing ref fails"
err=$(source_field linux last_error)
case $err in
"ref 'nosuch': git rev-parse of 'nosuch' in '$R' failed: fatal:"*) ok 0 "the error names the ref and says git's reason" ;;
*) ok 1 "the error names the ref and says git's reason"; echo "# $err" ;;
esac
is "$(status "$A")" merged "master is still read"

# mlq import --git names the tree as the config does (a database of its
# own: commits are stored once, under the name they first came with).
MLQ_DB=$TMP/other.db "$MLQ" import "$TMP/a.mbox" >/dev/null
(cd "$TMP" && MLQ_DB=$TMP/other.db "$MLQ" import --git linux master >/dev/null)
is "$(MLQ_DB=$TMP/other.db "$MLQ" show --format json "$A" | jq -r '.commits[0].repo')" linux \
    "import --git of a configured tree, by a relative path, uses its name"

# since: older commits are not read, and the ref's cursor still moves.
cat >"$MLQ_CONFIG" <<EOC
[repo "later"]
path = $R
branch = master
since = 2099-01-01
EOC
run_ok "--once with since in the future" "$MLQD" --once
is "$(source_field later commits) $(source_field later cursor)" \
    "0 master:$(g rev-parse master)" "nothing older than since is read"

test_done

#!/bin/sh
# Postings linked to the commits of a git tree, all made here with git
# itself: a series mailed with format-patch, reviewed, reposted as v2 and
# applied with git am; a commit that names its posting only by Link:, one
# whose diff was edited (found by author and title), a NACKed patch merged
# anyway, a revert commit, a cherry-pick to a stable branch, a squash.
. "$top_srcdir/tests/lib/test-lib.sh"
need jq sqlite3
. "$top_srcdir/tests/lib/git-tree.sh"

# mbox NAME FILE...: mail files as one mbox, a blank line after each.
mbox() {
	_out=$1; shift
	for _f in "$@"; do
		echo "From mlq@test Thu Jan  1 00:00:00 1970"
		sed 1d "$_f"
		echo
	done >"$_out"
}
msgid() { sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$1"; }
NOW=$(date -u -R -d '+1 hour') # replies come after the patches
status() { "$MLQ" show --format json "$1" | jq -r .status; }
how() { "$MLQ" show --format json "$1" | jq -r '[.commits[].how] | join(",")'; }

# v1, two patches and a cover; a reviewer asks for a change.
g checkout -qb v1
g config branch.v1.description "f: initialize b and c"
sed -i 's/int b;/int b = 1;/' "$R/f.c"; g commit -qam "f: initialize b"
sed -i 's/int c;/int c = 2;/' "$R/f.c"; g commit -qam "f: initialize c"
g format-patch -q --cover-letter --cover-from-description=subject \
    --thread=shallow -o "$TMP/v1" master
mbox "$TMP/v1.mbox" "$TMP"/v1/*.patch
P1=$(msgid "$TMP"/v1/0001-*.patch)
cat >>"$TMP/v1.mbox" <<EOF
From mlq@test Thu Jan  1 00:00:00 1970
From: Rob Reviewer <rob@example.org>
Subject: Re: [PATCH 1/2] f: initialize b
Message-Id: <review-1@example.org>
In-Reply-To: <$P1>
Date: $NOW

Please make it 3.

EOF
# v2: the change made; this is what goes in.  (Its cover's Message-Id is
# the second it is made.)
sleep 1
g checkout -qb v2 master
g config branch.v2.description "f: initialize b and c"
sed -i 's/int b;/int b = 3;/' "$R/f.c"; g commit -qam "f: initialize b"
sed -i 's/int c;/int c = 2;/' "$R/f.c"; g commit -qam "f: initialize c"
g format-patch -q -v2 --cover-letter --cover-from-description=subject \
    --thread=shallow -o "$TMP/v2" master
mbox "$TMP/v2.mbox" "$TMP"/v2/*.patch
V2B=$(msgid "$TMP"/v2/v2-0001-*.patch)
V2C=$(msgid "$TMP"/v2/v2-0002-*.patch)
V2COVER=$(msgid "$TMP"/v2/v2-0000-*.patch)
V1B=$P1

# Four lone patches: one applied with an edit and a Link:, one edited
# without (author and title), one NACKed and merged all the same, one
# edited and named in b4's thank-you mail.
for n in d e a g; do
	g checkout -qb "lone-$n" master
	sed -i "s/int $n;/int $n = 4;/" "$R/f.c"
	g commit -qam "f: initialize $n"
	g format-patch -q --thread -o "$TMP/lone-$n" master
done
mbox "$TMP/lone.mbox" "$TMP"/lone-d/*.patch "$TMP"/lone-e/*.patch \
    "$TMP"/lone-a/*.patch "$TMP"/lone-g/*.patch
LD=$(msgid "$TMP"/lone-d/*.patch)
LE=$(msgid "$TMP"/lone-e/*.patch)
LA=$(msgid "$TMP"/lone-a/*.patch)
LG=$(msgid "$TMP"/lone-g/*.patch)
cat >>"$TMP/lone.mbox" <<EOF
From mlq@test Thu Jan  1 00:00:00 1970
From: Nick Maint <nick@example.org>
Subject: Re: [PATCH] f: initialize a
Message-Id: <nack-a@example.org>
In-Reply-To: <$LA>
Date: $NOW

NACK, a must stay zero.

EOF
run_ok "import the mail" "$MLQ" import "$TMP/v1.mbox" "$TMP/v2.mbox" \
    "$TMP/lone.mbox"

# The maintainer's tree: v2 by git am, the lone patches edited.
export GIT_COMMITTER_NAME="Max Maint" GIT_COMMITTER_EMAIL=max@example.org
g checkout -q master
g am -q "$TMP"/v2/v2-0001-*.patch "$TMP"/v2/v2-0002-*.patch
sed -i 's/int d;/int d = 40;/' "$R/f.c"
g commit -qam "f: initialize d" --author="Ann Dev <ann@example.org>" \
    -m "Link: https://lore.kernel.org/r/$LD"
sed -i 's/int e;/int e = 50;/' "$R/f.c"
g commit -qam "f: initialize e" --author="Ann Dev <ann@example.org>"
g am -q "$TMP"/lone-a/*.patch
sed -i 's/int g;/int g = 70;/' "$R/f.c"
g commit -qam "f: initialize g" --author="Ann Dev <ann@example.org>"
cat >"$TMP/thanks.mbox" <<EOF
From mlq@test Thu Jan  1 00:00:00 1970
From: Max Maint <max@example.org>
Subject: Re: [PATCH] f: initialize g
Message-Id: <thanks-g@example.org>
In-Reply-To: <$LG>
Date: $NOW

Applied, thanks!

[1/1] f: initialize g
      commit: $(g rev-parse --short=12 HEAD)

Best regards,
-- 
Max Maint <max@example.org>

EOF
run_ok "import b4's thank-you mail" "$MLQ" import "$TMP/thanks.mbox"
run_ok "import --git master" "$MLQ" import --git "$R" master
is "$(cat "$TMP/.out")" "imported 7 commits (7 new); 6 postings linked" \
    "every commit read, six carry a posting"

is "$(status "$V2B") $(how "$V2B")" "merged patch-id" "v2 1/2: merged, by patch id"
is "$(status "$V2C") $(how "$V2C")" "merged patch-id" "v2 2/2: merged, by patch id"
is "$(status "$V2COVER")" merged "its cover letter: merged"
is "$(status "$V1B") $(how "$V1B")" "superseded " "v1 1/2: superseded, no commit"
is "$(status "$LD") $(how "$LD")" "merged link" "an edited patch with a Link:: by link"
is "$(status "$LE") $(how "$LE")" "merged title" "edited without one: by author and title"
is "$(status "$LA") $("$MLQ" show --format json "$LA" | jq -r '.tags | join(",")')" \
    "merged nack" "NACKed and merged anyway: merged, the nack kept"
is "$(status "$LG") $(how "$LG")" "merged link" \
    "edited, but named in a thank-you mail: by that"
"$MLQ" show "$LE" >"$TMP/show"
grep -q "^merged:   [0-9a-f]\{12\} in master (....-..-..), by title$" "$TMP/show"
ok $? "show says where, when and how"
is "$("$MLQ" search --status merged --format ids | sort | tr '\n' ' ')" \
    "$(printf '%s\n' "$V2B" "$V2C" "$V2COVER" "$LD" "$LE" "$LA" "$LG" | sort | tr '\n' ' ')" \
    "--status merged"

# From a commit to its posting.
c=$(g rev-parse master~5)
is "$("$MLQ" search --commit "$(echo "$c" | cut -c1-8)" --format ids)" "$V2B" \
    "--commit with 8 hex digits finds the posting"
is "$("$MLQ" show --format json "$(echo "$c" | cut -c1-12)" | jq -r .message_id)" \
    "$V2B" "show COMMIT-ID shows it"
"$MLQ" search --commit nothex >/dev/null 2>&1
is "$?" 2 "--commit refuses what is not hex"

run_ok "the same again" "$MLQ" import --git "$R" master
is "$(cat "$TMP/.out")" "imported 7 commits (0 new); 0 postings linked" \
    "adds nothing"

# A stable branch picks one: another commit, the same patch id.
g checkout -qb stable master~6
g cherry-pick -x "$(g rev-parse master~5)" >/dev/null
run_ok "import --git stable" "$MLQ" import --git "$R" stable
is "$("$MLQ" show --format json "$V2B" | jq -r '[.commits[].ref] | sort | join(",")')" \
    "master,stable" "the cherry-pick links the same posting"

# A revert in the tree reverts what the commit carried.
g checkout -q master
g revert --no-edit HEAD~1 >/dev/null
run_ok "import the revert" "$MLQ" import --git "$R" master
is "$(status "$LA")" reverted "reverted in the tree: reverted"
is "$("$MLQ" show --format json "$LA" | jq -r '.reverted_in_tree | length')" 1 \
    "reverted_in_tree names the revert"

# who, for the 2021 question: merged, then reverted, without review.
"$MLQ" who --format json example.org >"$TMP/who.json"
is "$(jq -r '[.merged, .merged_then_reverted, .merged_without_review] | join(" ")' "$TMP/who.json")" \
    "6 1 4" "who: six merged, one then reverted, four with no review"
"$MLQ" who example.org | grep '^merged: ' >"$TMP/who.txt"
is "$(cat "$TMP/who.txt")" \
    "merged:       6 (60.0%), 1 of them then reverted, 4 with no review" \
    "and in text"

# A squash of two: no patch id matches, and only its title may link.
g checkout -qb squash master~7
sed -i 's/int b;/int b = 3;/; s/int c;/int c = 2;/' "$R/f.c"
g commit -qam "f: initialize b and c"
run_ok "import the squash" "$MLQ" import --git "$R" squash
is "$(cat "$TMP/.out")" "imported 2 commits (1 new); 0 postings linked" \
    "a squash with a new title links to nothing"

run_ok "reindex" "$MLQ" reindex
is "$(status "$V2B") $(status "$LA") $(how "$LD")" "merged reverted link" \
    "reindex keeps the commits and what they carry"
is "$(sqlite3 "$MLQ_DB" 'PRAGMA integrity_check')" ok "integrity_check"
test_done

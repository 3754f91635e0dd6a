#!/bin/sh
# mlq am | git am: a series made with git format-patch, reviewed by
# mail, sent again as v2; the output applies with no options, gives the
# v2 tree, and carries the trailers the replies gave.
. "$top_srcdir/tests/lib/test-lib.sh"
need git
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME="Ann Author" \
    GIT_AUTHOR_EMAIL=ann@example.org GIT_COMMITTER_NAME="Ann Author" \
    GIT_COMMITTER_EMAIL=ann@example.org
R=$TMP/repo
git init -q "$R" && cd "$R" || exit 1
printf 'one\n' >a.txt; printf 'two\n' >b.txt
git add a.txt b.txt && git commit -q -m "base"
git tag base
GIT_AUTHOR_DATE="2021-04-01 10:00:00 +0000" GIT_COMMITTER_DATE="2021-04-01 10:00:00 +0000"
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
printf 'one\nmore\n' >a.txt && git commit -q -am "gadget: add more to a" \
    -m "So that a has more."
printf 'two\nless\n' >b.txt && git commit -q -am "gadget: tune b" -m "b is tuned."
git format-patch -q -o "$TMP/v1" --cover-letter --thread=shallow -v1 \
    --to=list@example.org base
git tag v1
git reset -q --hard HEAD~1
printf 'two\nfewer\n' >b.txt && git commit -q -am "gadget: tune b" \
    -m "b is tuned, better."
GIT_AUTHOR_DATE="2021-04-08 10:00:00 +0000" GIT_COMMITTER_DATE="2021-04-08 10:00:00 +0000"
git format-patch -q -o "$TMP/v2" --cover-letter --thread=shallow -v2 \
    --to=list@example.org base
git tag v2
# The ids git makes from the time of day: v2's would be v1's this second.
sed -i 's/\(\.[0-9]*\)\.git\./\1.v2.git./' "$TMP"/v2/*.patch
cd "$TMP" || exit 1
mid() { sed -n 's/^Message-I[dD]: <\(.*\)>/\1/p' "$1" | head -n 1; }
reply() { # FILE-REPLIED-TO FROM DATE TRAILER
	printf 'From x Thu Jan  1 00:00:00 1970\nFrom: %s\nTo: list@example.org\n' "$2"
	printf 'Subject: Re: %s\n' "$(sed -n 's/^Subject: //p' "$1" | head -n 1)"
	printf 'Date: %s\nMessage-Id: <r%s@example.org>\nIn-Reply-To: <%s>\n\n' \
	    "$3" "$(echo "$2$3" | cksum | cut -d' ' -f1)" "$(mid "$1")"
	printf '> The patch.\n\nThanks.\n\n%s\n\n' "$4"
}
{
	for f in v1/*.patch v2/*.patch; do cat "$f"; echo; done
	reply v1/v1-0001-*.patch "Rita Reviewer <rita@example.org>" \
	    "Fri, 2 Apr 2021 10:00:00 +0000" "Reviewed-by: Rita Reviewer <rita@example.org>"
	reply v1/v1-0000-*.patch "Mark Maintainer <mark@example.org>" \
	    "Fri, 2 Apr 2021 11:00:00 +0000" "Acked-by: Mark Maintainer <mark@example.org>"
	reply v1/v1-0002-*.patch "Eve <eve@example.org>" \
	    "Fri, 2 Apr 2021 12:00:00 +0000" "Reviewed-by: Someone Else <else@example.org>"
	reply v2/v2-0002-*.patch "Tom Tester <tom@example.org>" \
	    "Fri, 9 Apr 2021 10:00:00 +0000" "Tested-by: Tom Tester <tom@example.org>"
	reply v2/v2-0000-*.patch "Mark Maintainer <mark@example.org>" \
	    "Fri, 9 Apr 2021 11:00:00 +0000" "Acked-by: Mark Maintainer <mark@example.org>"
} >all.mbox
"$MLQ" import all.mbox >/dev/null
ok $? "import the series, its v2 and the replies"

applies() { # MBOX TAG: git am of MBOX on base gives TAG's tree
	rm -rf "$TMP/clone" && git clone -q "$R" "$TMP/clone" &&
	    git -C "$TMP/clone" checkout -q base &&
	    git -C "$TMP/clone" am -q "$1" &&
	    [ "$(git -C "$TMP/clone" rev-parse HEAD^{tree})" = \
		"$(git -C "$R" rev-parse "$2^{tree}")" ]
}
"$MLQ" am "$(mid v1/v1-0001-*.patch)" >v2.mbx 2>err
ok $? "am from a v1 patch: exit 0"
applies "$TMP/v2.mbx" v2
ok $? "git am applies it with no options and gives the v2 tree"
is "$(git -C clone log --format='%s|%(trailers:only,unfold)' base.. | grep . | paste -sd' ' -)" \
    "gadget: tune b|Tested-by: Tom Tester <tom@example.org> Acked-by: Mark Maintainer <mark@example.org> gadget: add more to a|Acked-by: Mark Maintainer <mark@example.org>" \
    "each patch's trailers, then the cover letter's, below its own"
"$MLQ" am -v 1 --cover cover.mbx -o v1.mbx "$(mid v2/v2-0000-*.patch)"
ok $? "-v 1 -o FILE --cover FILE"
applies "$TMP/v1.mbx" v1
ok $? "v1 applies and gives the v1 tree"
is "$(grep -c '^Reviewed-by: Rita' v1.mbx):$(grep -c '^Acked-by: Mark' v1.mbx):$(grep -c 'Someone Else' v1.mbx)" \
    "1:2:0" "v1: Rita's review on 1/2, Mark's ack on both, no trailer by one for another"
is "$(sed -n 's/^Subject: //p' cover.mbx)" "[PATCH 0/2] *** SUBJECT HERE ***" \
    "the cover letter apart"
"$MLQ" am --no-trailers "$(mid v2/v2-0002-*.patch)" | grep -c -e '^Acked-by' -e '^Tested-by' >n
is "$(cat n)" 0 "--no-trailers"
"$MLQ" am -v 3 "$(mid v2/v2-0002-*.patch)" >/dev/null 2>err
is "$?:$(cat err)" "2:mlq: am: no v3 of '$(mid v2/v2-0000-*.patch)' (there is v2, v1)" \
    "-v N that does not exist: exit 2"

# A write that fails leaves no half series behind.
mv "$MLQ_DB-mail" "$TMP/mail.away"
"$MLQ" am -o half.mbx "$(mid v2/v2-0001-*.patch)" >/dev/null 2>&1
is "$?:$(test -e half.mbx && echo left)" "3:" "a failed am -o FILE removes FILE"
mv "$TMP/mail.away" "$MLQ_DB-mail"
"$MLQ" am -o /dev/full "$(mid v2/v2-0001-*.patch)" >/dev/null 2>&1
is "$?:$(test -c /dev/full && echo device)" "3:device" "-o /dev/full fails, and a device is never removed"

# A series with a patch missing: an error naming it, unless --partial.
{ cat v1/v1-0000-*.patch; echo; cat v1/v1-0001-*.patch; } >part.mbox
MLQ_DB=$TMP/part.db "$MLQ" import part.mbox >/dev/null
MLQ_DB=$TMP/part.db "$MLQ" am "$(mid v1/v1-0001-*.patch)" >/dev/null 2>err
is "$?:$(cat err)" "2:mlq: am: patch 2/2 of '$(mid v1/v1-0000-*.patch)' is not in the archive (--partial takes the rest)" \
    "a missing patch is named"
MLQ_DB=$TMP/part.db "$MLQ" am --partial "$(mid v1/v1-0001-*.patch)" | grep -c '^Subject:' >n
is "$(cat n)" 1 "--partial takes what is there"

test_done

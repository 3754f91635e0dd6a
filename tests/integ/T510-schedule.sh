#!/bin/sh
# The digest schedule with an injected clock (MLQ_NOW): mlq digest --send
# without dates runs the round mlqd's timer runs.  One send per period,
# catch-up after downtime (capped), no double send after a restart, a
# failed send retried and never recorded.
. "$top_srcdir/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/smtp-lib.sh"
need sqlite3

export TZ=UTC

# Scheduled periods recorded as sent.
recorded() {
	sqlite3 "$MLQ_DB" "SELECT count(*) FROM digest_sent WHERE scheduled = 1"
}

conf() {
	cat >"$MLQ_CONFIG" <<EOC
[digest]
schedule = $1
to = maint@example.org
from = mlq@example.org
watch = umn.edu
smtp = smtp://127.0.0.1:$SMTP_PORT
smtp-starttls = no
EOC
}
conf "weekly mon 08:00"

run_ok "import" "$MLQ" import --list linux-nfs \
    "$top_srcdir/tests/fixtures/digest/linux-nfs.mbox"
smtp_start store

# at DATE: one scheduled round at that (UTC) time; output in $TMP/out.
at() {
	MLQ_NOW=$(utc "$1") "$MLQ" digest --send >"$TMP/out" 2>"$TMP/err"
}

at "2021-04-26 07:00"
ok $? "first run"
is "$(cat "$TMP/out")" "sent 1 digest, the last for week 2021-W15; the next is due 2021-04-26T08:00:00Z" \
    "a first run mails the last complete week only"
is "$(smtp_subjects)" "mlq digest: no mail, week 2021-W15" \
    "the week 15 digest arrived, named for its lists and week"

at "2021-04-26 07:59"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-04-26T08:00:00Z" \
    "nothing due before the time"
is "$(smtp_count)" 1 "nothing sent"

at "2021-04-26 08:00"
is "$(cat "$TMP/out")" "sent 1 digest, the last for week 2021-W16; the next is due 2021-05-03T08:00:00Z" \
    "due at the time"
at "2021-04-26 08:05"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-05-03T08:00:00Z" \
    "a restart sends nothing twice"
at "2021-04-30 12:00"
is "$(smtp_count)" 2 "nor days later: one mail per period"

# Off for two weeks: both missed weeks, once, oldest first.
at "2021-05-12 10:00"
is "$(cat "$TMP/out")" "sent 2 digests, the last for week 2021-W18; the next is due 2021-05-17T08:00:00Z" \
    "catch-up after downtime"
at "2021-05-12 10:01"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-05-17T08:00:00Z" \
    "and only once"
is "$(smtp_subjects)" "mlq digest: linux-nfs, week 2021-W16
mlq digest: linux-nfs, week 2021-W17
mlq digest: no mail, week 2021-W15
mlq digest: no mail, week 2021-W18" "each week exactly once"

# Off for ten weeks: the last four only.
at "2021-07-21 10:00"
is "$(cat "$TMP/out")" "sent 4 digests, the last for week 2021-W28; the next is due 2021-07-26T08:00:00Z" \
    "a long downtime is capped"
is "$(smtp_subjects | grep -e W2[5-8])" "mlq digest: no mail, week 2021-W25
mlq digest: no mail, week 2021-W26
mlq digest: no mail, week 2021-W27
mlq digest: no mail, week 2021-W28" "the last four weeks"

# Server down: an error, nothing recorded; sent once it is back.
smtp_stop
at "2021-07-26 08:00"
is $? 3 "server down: runtime failure"
is "$(grep -c "digest for week 2021-W29 not sent" "$TMP/err")" 1 "says which period"
is "$(grep -c "smtp 'smtp://127.0.0.1:$SMTP_PORT'" "$TMP/err")" 1 \
    "names the server: $(tail -n 1 "$TMP/err")"
at "2021-07-26 08:10"
is $? 3 "still down: fails again, not marked sent"
is "$(recorded)" 8 "eight periods recorded, the failed one not"
smtp_start store
at "2021-07-26 08:20"
is "$(cat "$TMP/out")" "sent 1 digest, the last for week 2021-W29; the next is due 2021-08-02T08:00:00Z" \
    "sent once the server is back"
at "2021-07-26 08:30"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-08-02T08:00:00Z" \
    "and not again"
is "$(smtp_subjects | grep -c W29)" 1 "week 29 arrived once"
is "$(recorded)" 9 "and is recorded"
W29=$(grep -l 'week 2021-W29' "$MAILDIR"/new/*)
is "<$(sqlite3 "$MLQ_DB" "SELECT message_id FROM digest_sent WHERE period_start = $(utc "2021-07-19 08:00") AND period_end = $(utc "2021-07-26 08:00")")>" \
    "$(sed -n 's/^Message-Id: //p' "$W29")" "the record names the mail's Message-Id"

# Daily: the periods after the last one sent.
conf "daily 06:30"
at "2021-07-27 07:00"
is "$(cat "$TMP/out")" "sent 1 digest, the last for 2021-07-26; the next is due 2021-07-28T06:30:00Z" \
    "daily schedule"
at "2021-07-28 06:29"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-07-28T06:30:00Z" \
    "daily: the next at 06:30"
at "2021-07-28 06:30"
is "$(cat "$TMP/out")" "sent 1 digest, the last for 2021-07-27; the next is due 2021-07-29T06:30:00Z" \
    "daily: the next day"
is "$(smtp_count)" 11 "eleven mails in all"

# Local time: 08:00 in Berlin (CEST) is 06:00 UTC.
MLQ_DB="$TMP/berlin.db"
conf "weekly mon 08:00"
run_ok "import (Berlin)" "$MLQ" import --list linux-nfs \
    "$top_srcdir/tests/fixtures/digest/linux-nfs.mbox"
TZ=Europe/Berlin at "2021-04-26 05:00"
is "$(cat "$TMP/out")" "sent 1 digest, the last for week 2021-W15; the next is due 2021-04-26T06:00:00Z" \
    "Berlin: the first run"
TZ=Europe/Berlin at "2021-04-26 05:59"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-04-26T06:00:00Z" \
    "Berlin: 07:59 local is too early"
TZ=Europe/Berlin at "2021-04-26 06:00"
is "$(cat "$TMP/out")" "sent 1 digest, the last for week 2021-W16; the next is due 2021-05-03T06:00:00Z" \
    "Berlin: due at 08:00 local"

# A reindex keeps the record: nothing is mailed again.
run_ok "reindex" "$MLQ" reindex
TZ=Europe/Berlin at "2021-04-26 06:10"
is "$(cat "$TMP/out")" "no digest due; the next is due 2021-05-03T06:00:00Z" \
    "after a reindex the sent week stays sent"
is "$(recorded)" 2 "both records survive the reindex"

# The scheduled digest is the config's; --list belongs to a dated one.
MLQ_NOW=$(utc "2021-07-29 07:00") "$MLQ" digest --send --list x >/dev/null 2>&1
is $? 2 "--list with the scheduled digest is a usage error"
MLQ_NOW=yesterday "$MLQ" digest >/dev/null 2>&1
is $? 2 "a bad MLQ_NOW is a usage error"

# With no dates, mlq digest shows the period --send mails: the week the
# schedule last completed, not the last seven days.
MLQ_DB="$TMP/preview.db"
conf "weekly mon 08:00"
run_ok "import (preview)" "$MLQ" import --list linux-nfs \
    "$top_srcdir/tests/fixtures/digest/linux-nfs.mbox"
MLQ_NOW=$(utc "2021-04-28 12:00") "$MLQ" digest >"$TMP/preview"
is "$(sed -n 1,2p "$TMP/preview")" "mlq digest: linux-nfs, week 2021-W16
From 2021-04-19 08:00 to 2021-04-26 08:00 UTC" "the preview is the scheduled week"
# --send --dry-run: the whole mail, nothing sent or recorded.
before=$(smtp_count)
MLQ_NOW=$(utc "2021-04-28 12:00") "$MLQ" digest --send --dry-run >"$TMP/dry"
is "$?:$(tr -d '\r' <"$TMP/dry" | sed -n 's/^Subject: //p'):$(grep -c '^To: maint@example.org' "$TMP/dry")" \
    "0:mlq digest: linux-nfs, week 2021-W16:1" "--dry-run prints the mail"
is "$(smtp_count):$(recorded)" "$before:0" "and sends and records nothing"
# Links for mail from a file or IMAP: [digest] link, and a source's own.
printf 'link = https://lore.kernel.org/r/%%s\n' >>"$MLQ_CONFIG"
MLQ_NOW=$(utc "2021-04-28 12:00") "$MLQ" digest >"$TMP/linked"
is "$(grep -c '^ *https://lore.kernel.org/r/20210423-cleanup-v2@cs.umn.edu$' "$TMP/linked")" 2 \
    "[digest] link gives each item a URL"
printf '[source "nfs"]\nurl = %s\nlist = linux-nfs\nlink = https://example.org/nfs/%%s/raw\n' \
    "$TMP/none.mbox" >>"$MLQ_CONFIG"
MLQ_NOW=$(utc "2021-04-28 12:00") "$MLQ" digest >"$TMP/linked"
is "$(grep -c '^ *https://example.org/nfs/20210423-cleanup-v2@cs.umn.edu/raw$' "$TMP/linked")" 2 \
    "a source's link wins for its list"
printf '[digest]\nlink = https://lore.kernel.org/r/\n' >"$TMP/bad.conf"
"$MLQ" -c "$TMP/bad.conf" config check >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:mlq: $TMP/bad.conf:2: [digest]: link: 'https://lore.kernel.org/r/' is not an http(s) URL with one %s for the Message-Id" \
    "a link without %s is an error"

test_done

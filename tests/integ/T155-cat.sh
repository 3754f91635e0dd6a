#!/bin/sh
# mlq cat: a stored message to read (headers, decoded text, escapes) or
# its exact bytes.
. "$top_srcdir/tests/lib/test-lib.sh"
F="$top_srcdir/tests/fixtures/mail"

"$MLQ" import "$F/latin1-qp.eml" "$F/escape.eml" >/dev/null
ok $? "import"
"$MLQ" cat latin1-qp-1@sample.test >"$TMP/out"
ok $? "cat: exit 0"
is "$(sed -n '1,6p' "$TMP/out")" "From: Jörg Müller <joerg@sample.test>
To: lists@lists.sample.test
Date: Thu, 4 Mar 2021 13:00:00 +0100
Subject: Re: [PATCH] für die Größe
Message-Id: <latin1-qp-1@sample.test>" "headers decoded to UTF-8"
is "$(sed -n 7p "$TMP/out")" "Grüße aus Köln, the patch looks fine to me." \
    "quoted-printable ISO-8859-1 text decoded"
"$MLQ" cat https://lore.kernel.org/x/escape-1@evil.sample.test/ >"$TMP/esc"
ok "$(grep -c "$(printf '\033')" "$TMP/esc")" "no escape byte reaches the terminal"
is "$(sed -n 's/^Subject: //p' "$TMP/esc")" '\e]0;owned\x07\e[31mred\e[0m' \
    "control characters shown escaped"
"$MLQ" cat --raw '<latin1-qp-1@sample.test>' >"$TMP/raw"
cmp -s "$TMP/raw" "$F/latin1-qp.eml"
ok $? "--raw: the stored bytes, exactly"
"$MLQ" cat latin1-qp-1@sample.test id:escape-1@evil.sample.test >"$TMP/two"
is "$(grep -c '^Message-Id: ' "$TMP/two")" 2 "several ids, one after another"
"$MLQ" cat nosuch@sample.test >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "1:mlq: cat: no message 'nosuch@sample.test'" \
    "an unknown id: exit 1"
"$MLQ" cat >/dev/null 2>&1
is "$?" 2 "no id: exit 2"

# Raw mail to a terminal is made safe; to a file or pipe it is as stored.
if command -v script >/dev/null; then
	printf 'From: Mallory <m@evil.sample.test>\nSubject: raw\nDate: Wed, 3 Mar 2021 12:00:00 +0000\nMessage-ID: <raw-esc@evil.sample.test>\n\nred \033[31mtext\033[0m\n' \
	    >"$TMP/esc.eml"
	"$MLQ" import "$TMP/esc.eml" >/dev/null
	"$MLQ" cat --raw raw-esc@evil.sample.test >"$TMP/raw"
	is "$(grep -c "$(printf '\033')" "$TMP/raw")" 1 "--raw to a file: the bytes as stored"
	for cmd in "cat --raw raw-esc@evil.sample.test" \
	    "search --format mbox m:raw-esc@evil.sample.test"; do
		script -qec "$MLQ $cmd" /dev/null >"$TMP/tty" 2>&1
		is "$(grep -c "$(printf '\033')" "$TMP/tty"):$(grep -c 'red \\e\[31mtext' "$TMP/tty")" \
		    "0:1" "$cmd to a terminal: escapes shown, not sent"
	done
fi

test_done

#!/bin/sh
# The closing note's figure: an HTTP backfill of
# ../shared/corpus/bench/linux-nfs.mbox.gz served by a local
# public-inbox-httpd, against `mlq import` of the same mbox, in one run:
# messages per second and peak RSS of each.  Not part of make check:
#   top_builddir=BUILD top_srcdir=SRC sh tests/bench/mlqd-http.sh
. "$top_srcdir/tests/lib/test-lib.sh"
need_shared
need /usr/bin/time
. "$top_srcdir/tests/lib/pi.sh"
. "$top_srcdir/tests/lib/mlqd.sh"

MBOX_GZ="$SHARED/corpus/bench/linux-nfs.mbox.gz"
gzip -dc "$MBOX_GZ" >"$TMP/nfs.mbox"
pi_init nfs
t0=$(date +%s)
pi_add nfs "$TMP/nfs.mbox"
ok $? "public-inbox filled ($(cat "$PI/add.out") messages, $(($(date +%s) - t0)) s)"
pi_start httpd
ok $? "public-inbox-httpd on 127.0.0.1:$HTTP_PORT"

measure() { # NAME CMD...: wall seconds and peak RSS (KiB) into $TMP/NAME
	_n=$1; shift
	/usr/bin/time -f '%e %M' -o "$TMP/$_n" "$@" >/dev/null 2>"$TMP/$_n.err"
}

printf '[source "nfs"]\nurl = http://127.0.0.1:%s/nfs/\n' "$HTTP_PORT" \
    >"$MLQ_CONFIG"
MLQ_DB="$TMP/http.db" measure http "$MLQD" --once
ok $? "mlqd --once over HTTP"
MLQ_DB="$TMP/file.db" measure file "$MLQ" import --list nfs "$TMP/nfs.mbox"
ok $? "mlq import of the same mbox"

n_http=$(MLQ_DB="$TMP/http.db" "$MLQ" search --format jsonl | wc -l)
n_file=$(MLQ_DB="$TMP/file.db" "$MLQ" search --format jsonl | wc -l)
read -r s_http rss_http <"$TMP/http"
read -r s_file rss_file <"$TMP/file"
echo "# http: $n_http messages in ${s_http}s = $(echo "$n_http / $s_http" | bc) msg/s, peak RSS $((rss_http / 1024)) MiB"
echo "# file: $n_file messages in ${s_file}s = $(echo "$n_file / $s_file" | bc) msg/s, peak RSS $((rss_file / 1024)) MiB"
echo "# network path / file path: $(echo "scale=2; $s_http / $s_file" | bc)x"
is "$n_http" "$n_file" "both store the same number of messages"
ok "$(echo "$s_http < 2 * $s_file" | bc | grep -qx 1; echo $?)" \
    "the network path costs less than twice the file path"

test_done

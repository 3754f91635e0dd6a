#!/usr/bin/env python3
"""Compares mlq search with public-inbox's own search, query by query.

usage: lore_diff.py URL MLQ QUERIES
  URL      an inbox served by public-inbox-httpd (http://127.0.0.1:PORT/NAME/)
  MLQ      the mlq binary ($MLQ_DB names the database)
  QUERIES  lines "EXPECT<TAB>QUERY": EXPECT is "=" (the same messages) or
           the name of the rule in doc/query.md that explains a difference

Prints TAP: one test per "=" query (the same Message-Ids), a comment per
explained difference, and the share of queries whose answers are equal.
"""
import gzip, mailbox, re, subprocess, sys, tempfile, urllib.error
import urllib.parse, urllib.request

RULES = {"wildcard", "author", "day", "free"}


def lore_ids(url, q):
    """The Message-Ids public-inbox's search gives (x=m: an mbox.gz)."""
    req = urllib.request.Request(
        url + "?x=m&q=" + urllib.parse.quote(q), data=b"", method="POST")
    try:
        data = urllib.request.urlopen(req, timeout=60).read()
    except urllib.error.HTTPError as e:
        if e.code == 404:  # no match
            return set()
        raise
    if not data.startswith(b"\x1f\x8b"):
        return set()
    ids = set()
    with tempfile.NamedTemporaryFile() as f:
        f.write(gzip.decompress(data))
        f.flush()
        for m in mailbox.mbox(f.name):
            v = str(m["Message-ID"] or "")
            found = re.findall(r"<([^>]+)>", v)
            ids.add(found[0] if found else v.strip())
    return ids


def main():
    url, mlq, qfile = sys.argv[1:4]
    lines = [l.rstrip("\n") for l in open(qfile, encoding="utf-8")
             if l.strip() and not l.startswith("#")]
    n = equal = 0
    for line in lines:
        expect, q = line.split("\t", 1)
        if expect != "=" and expect not in RULES:
            print("Bail out! unknown rule %r for %r" % (expect, q))
            return 1
        lore = lore_ids(url, q)
        r = subprocess.run([mlq, "search", "--format", "ids", q],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            print("not ok - %s: mlq failed: %s" % (q, r.stderr.strip()))
            n += 1
            continue
        mine = set(r.stdout.split())
        same = lore == mine
        equal += same
        n += expect == "="
        what = "%s: lore %d, mlq %d, lore only %d, mlq only %d" % (
            q, len(lore), len(mine), len(lore - mine), len(mine - lore))
        if expect == "=":
            print("%s %d - %s" % ("ok" if same else "not ok", n, what))
            for x in sorted(lore - mine)[:3]:
                print("#   lore only: " + x)
            for x in sorted(mine - lore)[:3]:
                print("#   mlq only: " + x)
        else:
            print("# %s (%s%s)" % (what, expect,
                                   ", now equal" if same else ""))
    print("# %d of %d queries give the same messages (%.0f%%)" % (
        equal, len(lines), 100.0 * equal / len(lines)))
    print("1..%d" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())

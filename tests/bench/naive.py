#!/usr/bin/python3
"""The naive peer of tests/bench/run: what one would write in an afternoon.

Reads an mbox (optionally gzip-compressed), parses each message with the
standard library's email package and inserts Message-Id, From, Subject,
Date and the text/plain body into an SQLite FTS5 table, all in one
transaction.  Usage: naive.py MBOX[.gz] DB
"""
import email
import email.policy
import gzip
import sqlite3
import sys


def messages(path):
    """Yields each message's bytes; From_ lines split, >From unescaped."""
    opener = gzip.open if path.endswith(".gz") else open
    cur = []
    with opener(path, "rb") as f:
        for line in f:
            if line.startswith(b"From "):
                if cur:
                    yield b"".join(cur)
                cur = []
                continue
            if line.startswith(b">From "):
                line = line[1:]
            cur.append(line)
    if cur:
        yield b"".join(cur)


def body_text(msg):
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    try:
        return part.get_content()
    except (LookupError, ValueError, AssertionError):
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", "replace")


def main():
    src, dbpath = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(dbpath)
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS mail USING "
               "fts5(msgid, sender, subject, date, body)")
    n = 0
    with db:
        for raw in messages(src):
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            try:
                row = (str(msg.get("message-id", "")), str(msg.get("from", "")),
                       str(msg.get("subject", "")), str(msg.get("date", "")),
                       body_text(msg))
            except Exception:  # a header the policy cannot parse
                row = ("", "", "", "", raw.decode("utf-8", "replace"))
            db.execute("INSERT INTO mail VALUES (?, ?, ?, ?, ?)", row)
            n += 1
    db.close()
    print(f"{n} messages")


if __name__ == "__main__":
    main()

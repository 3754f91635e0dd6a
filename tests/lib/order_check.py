#!/usr/bin/env python3
"""Imports one mbox forwards, backwards and shuffled (fixed seed) into three
databases and prints every difference in kind, tags, status and links by
Message-Id: the review history must not depend on the order mail arrives in
(HTTP fetches newest first, IMAP oldest first).

usage: order_check.py MLQ MBOX WORKDIR; exit 1 on any difference."""
import mailbox
import os
import random
import sqlite3
import subprocess
import sys


def state(mlq, msgs, work, name):
    path = os.path.join(work, "order-%s.mbox" % name)
    with open(path, "wb") as f:
        for m in msgs:
            f.write(m if m.endswith(b"\n\n") else m + b"\n")
    db = os.path.join(work, "order-%s.db" % name)
    for p in (db, db + "-wal", db + "-shm", db + "-mail"):
        if os.path.exists(p):
            os.unlink(p)
    subprocess.run([mlq, "import", path], env=dict(os.environ, MLQ_DB=db),
                   check=True, stdout=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    msg = set(con.execute("SELECT msgid, kind, tags, status FROM msg"))
    link = set(con.execute(
        "SELECT s.msgid, d.msgid, k.kind FROM link k JOIN msg s ON s.id = "
        "k.src JOIN msg d ON d.id = k.dst"))
    con.close()
    return msg | link


def main():
    mlq, mbox, work = sys.argv[1:4]
    msgs = [m.as_bytes(unixfrom=True) for m in mailbox.mbox(mbox)]
    shuffled = msgs[:]
    random.Random(29).shuffle(shuffled)
    fwd = state(mlq, msgs, work, "forwards")
    bad = 0
    for name, order in (("backwards", msgs[::-1]), ("shuffled", shuffled)):
        diff = fwd ^ state(mlq, order, work, name)
        for d in sorted(diff, key=str):
            print("# %s differs: %s" % (name, d))
        bad += len(diff)
    print("# %s: %d messages, %d differences" % (os.path.basename(mbox),
                                                  len(msgs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

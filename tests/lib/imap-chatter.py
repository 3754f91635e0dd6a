#!/usr/bin/python3
"""An IMAP server that never finishes a login: it greets, answers
CAPABILITY, and after LOGIN sends an untagged line every half second
for ever, so that a client's read timeout never fires.  A hostile or
broken server for tests/integ/T306-imap-stop.sh.

usage: imap-chatter.py PORT PIDFILE"""
import os
import socket
import sys
import threading
import time


def serve(conn):
    f = conn.makefile("rb")
    try:
        conn.sendall(b"* OK [CAPABILITY IMAP4rev1] chatter ready\r\n")
        for line in f:
            parts = line.split(None, 2)
            if len(parts) < 2:
                continue
            tag, cmd = parts[0], parts[1].upper()
            if cmd == b"CAPABILITY":
                conn.sendall(b"* CAPABILITY IMAP4rev1\r\n" + tag +
                             b" OK done\r\n")
            elif cmd == b"LOGOUT":
                conn.sendall(b"* BYE\r\n" + tag + b" OK bye\r\n")
                return
            else:
                print("holding", cmd.decode(errors="replace"), flush=True)
                while True:
                    conn.sendall(b"* OK still here\r\n")
                    time.sleep(0.5)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    port, pidfile = int(sys.argv[1]), sys.argv[2]
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(8)
    with open(pidfile, "w") as p:
        p.write("%d\n" % os.getpid())
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()

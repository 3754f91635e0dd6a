#!/usr/bin/env python3
"""garbage.py PORT: an HTTP server on 127.0.0.1:PORT that answers every
request with status 200 and no mail, for the soak test.  In turn: an
HTML error page, random bytes called gzip, valid gzip of random bytes,
valid gzip of random text lines
(mbox-like "From " lines, no header), and a body cut short of its
Content-Length.  Runs until killed.
"""
import gzip
import itertools
import os
import random
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

turn = itertools.count()


def random_text(n):
    # No word ends in ':', so no line starts like a header field: text
    # that opens with one ("Subject: x") is mail by syntax, not garbage.
    words = ["From", "x", "garbage", "<html>", "=?", "\t", ">From"]
    return "".join(random.choice(words) + random.choice(" \n")
                   for _ in range(n)).encode()


class Garbage(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.reply()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.reply()

    def reply(self):
        kind = next(turn) % 5
        ctype, body, short = "application/gzip", b"", False
        if kind == 0:
            ctype = "text/html"
            body = (b"<html><head><title>Error</title></head><body>"
                    b"<h1>Something went wrong</h1></body></html>\n")
        elif kind == 1:
            body = os.urandom(random.randint(1, 20000))
        elif kind == 2:
            body = gzip.compress(os.urandom(random.randint(1, 20000)))
        elif kind == 3:
            body = gzip.compress(random_text(random.randint(1, 5000)))
        else:
            body, short = os.urandom(5000), True
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) * (2 if short else 1)))
        self.end_headers()
        self.wfile.write(body)
        if short:
            self.close_connection = True


if __name__ == "__main__":
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Garbage).serve_forever()

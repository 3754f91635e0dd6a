"""Reads one stored mail (aiosmtpd's maildir) and prints what the digest
tests check: header fields as key=value lines, then '--', then the decoded
body.  Used by tests/integ/T5*.sh."""
import email
import email.policy
import email.utils
import re
import sys

raw = open(sys.argv[1], "rb").read()
msg = email.message_from_bytes(raw, policy=email.policy.default)
print("from=%s" % msg["From"])
print("to=%s" % ", ".join(a.addr_spec for a in msg["To"].addresses))
print("rcpt=%s" % msg["X-RcptTo"])
print("subject=%s" % msg["Subject"])
print("date_ok=%d" % (email.utils.parsedate_to_datetime(msg["Date"]) is not None))
print("msgid_ok=%d" % bool(re.fullmatch(r"<mlq-digest\.[0-9a-f]{24}@[^<>@\s]+>", msg["Message-Id"])))
print("mime=%s" % msg["MIME-Version"])
print("type=%s; charset=%s" % (msg.get_content_type(), msg.get_content_charset()))
print("cte=%s" % msg["Content-Transfer-Encoding"])
lines = raw.split(b"\n")
print("raw_max=%d" % max(len(l.rstrip(b"\r")) for l in lines))
print("raw_8bit=%d" % any(b > 127 for b in raw))
body = msg.get_content()
# Lines longer than 72 columns, but for a link standing alone.
over = [l for l in body.split("\n") if len(l) > 72 and not re.fullmatch(r"\s*\S+", l)]
print("over72=%d" % len(over))
print("--")
sys.stdout.write(body)

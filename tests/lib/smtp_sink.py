"""aiosmtpd handlers for the digest tests: a maildir sink that can refuse.

    /usr/bin/python3 -m aiosmtpd -n -l 127.0.0.1:PORT -c smtp_sink.Sink MAILDIR MODE

MODE 'reject-bad': RCPT TO an address starting with 'bad' gets 550;
MODE 'tempfail': DATA gets 451; anything else stores every mail.
"""
from aiosmtpd.handlers import Mailbox


class Sink(Mailbox):
    def __init__(self, maildir, mode="store"):
        super().__init__(maildir)
        self.mode = mode

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.mode == "reject-bad" and address.startswith("bad"):
            return "550 5.1.1 <%s>: Recipient address rejected: no such user" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.mode == "tempfail":
            return "451 4.3.0 Mail server temporarily rejected message"
        return await super().handle_DATA(server, session, envelope)

    @classmethod
    def from_cli(cls, parser, *args):
        return cls(*args)

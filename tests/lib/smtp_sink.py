"""aiosmtpd handlers for the digest tests: a maildir sink that can refuse.

    /usr/bin/python3 -m aiosmtpd -n -l 127.0.0.1:PORT -c smtp_sink.Sink MAILDIR MODE

MODE 'reject-bad': RCPT TO an address starting with 'bad' gets 550;
MODE 'tempfail': DATA gets 451; MODE 'auth:USER:PASSWORD': AUTH PLAIN and
LOGIN (offered after STARTTLS) accept that login only, and mail is taken
only once logged in; anything else stores every mail.
"""
import base64

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import MISSING, AuthResult


class Sink(Mailbox):
    def __init__(self, maildir, mode="store"):
        super().__init__(maildir)
        self.mode = mode

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.mode == "reject-bad" and address.startswith("bad"):
            return "550 5.1.1 <%s>: Recipient address rejected: no such user" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def login_ok(self, user, password):
        if not self.mode.startswith("auth:"):
            return False
        _, want_user, want_password = self.mode.split(":", 2)
        return user == want_user.encode() and password == want_password.encode()

    async def auth_PLAIN(self, server, args):
        if len(args) == 2:
            data = base64.b64decode(args[1])
        else:
            data = await server.challenge_auth("", encode_to_b64=False)
            if data is MISSING:
                return AuthResult(success=False, handled=False)
        parts = data.split(b"\0")
        ok = len(parts) == 3 and self.login_ok(parts[1], parts[2])
        return AuthResult(success=ok, handled=False)

    async def auth_LOGIN(self, server, args):
        if len(args) == 2:
            user = base64.b64decode(args[1])
        else:
            user = await server.challenge_auth("Username:")
        if user is MISSING:
            return AuthResult(success=False, handled=False)
        password = await server.challenge_auth("Password:")
        if password is MISSING:
            return AuthResult(success=False, handled=False)
        return AuthResult(success=self.login_ok(user, password), handled=False)

    async def handle_DATA(self, server, session, envelope):
        if self.mode.startswith("auth:") and not session.authenticated:
            return "530 5.7.0 Authentication required"
        if self.mode == "tempfail":
            return "451 4.3.0 Mail server temporarily rejected message"
        return await super().handle_DATA(server, session, envelope)

    @classmethod
    def from_cli(cls, parser, *args):
        return cls(*args)

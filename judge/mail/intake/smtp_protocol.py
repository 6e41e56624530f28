"""The judge's SMTP and LMTP sessions: aiosmtpd's, with its reading of MAIL FROM and RCPT TO addresses
made cheap for the plain ones.

aiosmtpd reads each address with the email package's header parser (`get_angle_addr`, 30 us), and
its `_getaddr` defines a typing.Protocol class on every call, which alone costs 12-15 us: together
about 90 us of every message's 330 (one MAIL FROM, one RCPT TO; bench/intake.py). Here an address of
the usual shape (angle brackets round a dot-atom, an @ and a dot-atom domain, ASCII) is read with
one regular expression, giving exactly what the parser gives (tests/test_mail_smtp_protocol.py
holds the two to each other on crafted and generated addresses); anything else (the null sender,
quoted local parts, comments, address literals, UTF-8) goes to the parser as before, without the
class made each time.
"""
from __future__ import annotations

import re
from email._header_value_parser import get_addr_spec, get_angle_addr
from email.errors import HeaderParseError

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, syntax

from . import xforward

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_PLAIN = re.compile(rf"<({_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*)>(.*)", re.DOTALL)


def read_address(arg: str) -> tuple[str, str] | None:
    """(address, what follows it) as the email parser reads `arg`, or None when it cannot be read."""
    plain = _PLAIN.fullmatch(arg)
    if plain is not None:
        rest = plain.group(2)
        if not rest or rest[0] not in " \t(":
            return plain.group(1), rest
        rest = rest.lstrip(" \t")
        if not rest.startswith("("):         # (a comment after the address: the parser's to read)
            return plain.group(1), rest
    try:
        found, rest = get_angle_addr(arg) if arg.lstrip().startswith("<") else get_addr_spec(arg)
        return found.addr_spec, rest
    except (HeaderParseError, LookupError, AttributeError):
        # (the parser also fails with IndexError on "a@" and AttributeError on some defects: aiosmtpd let those
        # out, and answered "500 Error"; here they are an address that cannot be read, as for HeaderParseError)
        return None


class _QuickAddresses:
    local_part_limit: int

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        """aiosmtpd's contract: ('', '') for no argument, (None, None) for one that cannot be read or whose
        local part is longer than `local_part_limit` (when set)."""
        if not arg:
            return "", ""
        read = read_address(arg)
        if read is None:
            return None, None
        address, rest = read
        if self.local_part_limit and len(address.rpartition("@")[0]) > self.local_part_limit:
            return None, None
        return address, rest


class ForwardedEnvelope(Envelope):
    """aiosmtpd's envelope, with what a trusted relay said of the client (XFORWARD). A new one is made after
    each message and at RSET and EHLO, so one client's address never passes to the next message."""

    def __init__(self) -> None:
        super().__init__()
        self.xforward: dict[str, str] = {}


class _Forwarding(SMTP):
    """XFORWARD, for SMTP and LMTP alike (LMTP is an SMTP: this class comes before it in the order of bases)."""

    def _create_envelope(self) -> Envelope:
        return ForwardedEnvelope()

    @syntax("XFORWARD attribute=value ...")
    async def smtp_XFORWARD(self, arg: str) -> None:
        """Postfix's answers, word for word (its XFORWARD_README)."""
        relays = getattr(self.event_handler, "relays", ())
        peer = getattr(self.session, "peer", None)
        if not (isinstance(peer, tuple) and xforward.is_relay(str(peer[0]), relays)):
            await self.push("550 5.7.0 Error: insufficient authorization")
            return
        if self.envelope is not None and self.envelope.mail_from is not None:
            await self.push("503 5.5.1 Error: MAIL transaction in progress")
            return
        attributes = xforward.parse(arg or "")
        if attributes is None:
            await self.push("501 5.5.4 Syntax: XFORWARD attribute=value...")
            return
        envelope = self.envelope
        if isinstance(envelope, ForwardedEnvelope):
            envelope.xforward.update(attributes)
        await self.push("250 2.0.0 Ok")


class JudgeSMTP(_QuickAddresses, _Forwarding, SMTP):
    pass


class JudgeLMTP(_QuickAddresses, _Forwarding, LMTP):
    pass

"""Who wrote a mail and to whom, from its headers: internationalised addresses (RFC 6531/6532) included.

A header holding raw UTF-8 is read as text whatever the parsing policy: under compat32 the
email package hands back an `email.header.Header`, which `parseaddr` cannot take (a TypeError
that once made every internationalised sender's mail fail without an answer).
"""
from __future__ import annotations

from email.header import Header
from email.message import Message
from email.utils import parseaddr


def header_text(value) -> str:
    """A header's value as a str, whether the policy gave a str, a header object or a compat32 Header."""
    if value is None:
        return ""
    if isinstance(value, Header):
        raw = value._chunks[0][0] if len(value._chunks) == 1 else str(value)   # undecoded 8-bit text
        if isinstance(raw, str) and any("\udc80" <= ch <= "\udcff" for ch in raw):
            return raw.encode("ascii", "surrogateescape").decode("utf-8", "replace")
        return str(value)
    return str(value)


def reply_address(mail: Message, mail_from: str | None) -> str:
    """Reply-To, else From, else the envelope sender."""
    for header in ("Reply-To", "From"):
        address = parseaddr(header_text(mail.get(header)))[1]
        if "@" in address:
            return address.strip()
    return (mail_from or "").strip("<> ")

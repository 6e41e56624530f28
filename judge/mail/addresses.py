"""Who wrote a mail and to whom, from its headers: internationalised addresses (RFC 6531/6532) included.

A header holding raw UTF-8 is read as text whatever the parsing policy: under compat32 the
email package hands back an `email.header.Header`, which `parseaddr` cannot take (a TypeError
that once made every internationalised sender's mail fail without an answer).
"""
from __future__ import annotations

from email.header import Header
from email.message import Message
from email.utils import parseaddr

from ..language import CommandItem
from ..language.commands import SetAddress
from .outbox import address_refusal


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


def refuse_unreachable(items: list, db, relay) -> tuple[list, list[dict]]:
    """SET ADDRESS to an address this judge's relay cannot carry (an internationalised address and
    no SMTPUTF8) is refused with words, not accepted and then failed at every mail. Returns the
    items to carry out and the reply's error entries for the ones refused."""
    kept, refused = [], []
    for item in items:
        problem = None
        if isinstance(item, CommandItem) and isinstance(item.command, SetAddress):
            problem = address_refusal(db, relay, item.command.address)
        if problem is None:
            kept.append(item)
        else:
            refused.append({"kind": "error", "line": item.line, "text": item.text, "problem": problem,
                            "expected": "SET ADDRESS you@example.org", "suggestions": []})
    return kept, refused

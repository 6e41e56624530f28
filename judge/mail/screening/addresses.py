"""Who wrote a mail, from its headers: internationalised addresses (RFC 6531/6532) included.

Under compat32 a header holding raw UTF-8 comes back as an `email.header.Header`, which `parseaddr`
cannot take (a TypeError that once made every internationalised sender's mail fail without an
answer): headers are read as text here, and `robot_mail.UTF8_HEADERS` parses them as UTF-8.
"""
from __future__ import annotations

import re
from email.message import Message
from email.utils import getaddresses, parseaddr
from functools import lru_cache



def header_text(value: object) -> str:
    """A header's value as a str, whatever the policy gave: a str, a header object, or compat32's
    Header (which parseaddr cannot take). Parse with robot_mail.UTF8_HEADERS to get raw UTF-8 as text."""
    return "" if value is None else str(value)


def reply_address(mail: Message, mail_from: str | None) -> str:
    """Reply-To, else From, else the envelope sender."""
    for header in ("Reply-To", "From"):
        address = _address(header_text(_header(mail, header)))
        if "@" in address:
            return address.strip()
    return (mail_from or "").strip("<> ")


_LAST_ANGLE = re.compile(r"<([^<>\s]+@[^<>\s]+)>\s*$")


def _address(text: str) -> str:
    """The address a header names, as parseaddr reads it, unless that is no address in angle brackets
    while the header ends in one: parseaddr takes a ':' inside an encoded display name
    ("=?utf-8?q?a=0D=0ABcc:_v@evil.test?= <ann@dip.test>") for a group's and returns a piece of the name."""
    address = parsed_address(text)[1]
    angle = _LAST_ANGLE.search(text)
    if angle is not None and f"<{address}>" not in text:
        return angle.group(1)
    return address


def _header(mail: Message, name: str) -> object:
    """The header as the policy reads it, or as written when the policy cannot read it (an encoded
    display name hiding a CR LF makes policy.default's address parser raise): the address part of
    the raw text is still read, and checked again before anything is sent to it."""
    try:
        return mail.get(name)
    except (ValueError, TypeError, IndexError):
        return next((value for key, value in mail.raw_items() if key.lower() == name.lower()), None)


# A player's From (and the judge's own address) comes again in every mail, and each mail's screening
# parses it half a dozen times: parsing it was a twentieth of an order mail's CPU in a backlog
# (bench/backlog.py). The same text always parses the same, so short values are answered from a
# bounded cache; a long one (hostile or odd) is parsed as before and not kept.
CACHED_UP_TO = 998          # characters (RFC 5322's line)


def parsed_address(value: object) -> tuple[str, str]:
    """email.utils.parseaddr of a header's value: (display name, address)."""
    if type(value) is str and len(value) <= CACHED_UP_TO:
        return _parseaddr(value)
    return parseaddr(value)  # type: ignore[arg-type]   # (compat32 may give a Header, which it reads too)


def addresses_in(*values: object) -> list[tuple[str, str]]:
    """email.utils.getaddresses of these header values: each (display name, address) they name."""
    if all(type(v) is str and len(v) <= CACHED_UP_TO for v in values):
        return list(_getaddresses(values))  # (every one a str: checked)
    return getaddresses(list(values))  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def _parseaddr(value: str) -> tuple[str, str]:
    return parseaddr(value)


@lru_cache(maxsize=4096)
def _getaddresses(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple(getaddresses(list(values)))

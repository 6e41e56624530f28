"""The email policy the judge builds its own mail with: policy.SMTP (or SMTPUTF8), but a header whose
value is plain ASCII of a shape checked here is stored as the text it is, not parsed into
email.headerregistry's objects. Parsing every header of every mail was a quarter of the courier's
time in a deadline rush (8 mails a game, 12 headers each), and for these values it gives back the
very text it was given: the bytes sent are the same (tests/test_plain_headers.py compares both
ways). Anything else (a non-ASCII name or subject, which needs RFC 2047 encoded words; a value
longer than a line; an unknown header; a shape not listed) takes the standard path, and a header
read back from the message is parsed then, as before.
"""
from __future__ import annotations

import re
from email.policy import EmailPolicy
from email.utils import format_datetime, parsedate_to_datetime
from functools import cache, lru_cache
from typing import Any

_ADDRESS = r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
# free text the standard path hands back unchanged: printable ASCII words apart by single spaces,
# and no "=?" (it would be read as the start of an RFC 2047 encoded word)
_TEXT = r"(?!.*=\?)[!-~]+(?: [!-~]+)*"
_SHAPES = {name: re.compile(shape) for name, shape in {
    "from": rf"(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)* <{_ADDRESS}>|{_ADDRESS})",
    "to": rf"{_ADDRESS}(?:, {_ADDRESS})*",
    "reply-to": rf"{_ADDRESS}(?:, {_ADDRESS})*",
    "subject": _TEXT,
    "auto-submitted": _TEXT,
    "x-auto-response-suppress": _TEXT,
    "message-id": rf"<{_ADDRESS}>",
    # as the standard path writes a UTC time back (email.utils.format_datetime): "+0000", not "GMT"
    "date": r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
            r" \d{4} \d\d:\d\d:\d\d \+0000",
    "mime-version": r"1\.0",
    "content-transfer-encoding": r"7bit|8bit|quoted-printable|base64",
    "content-type": r'text/plain(?:; charset="utf-8")?',
}.items()}


class PlainHeaders(EmailPolicy):
    """EmailPolicy storing the checked plain values as they are (see the module's docstring)."""

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if self.stores_as_is(name, value):
            return name, value        # (the shapes allow no CR or LF, which the standard path refuses)
        return super().header_store_parse(name, value)

    def stores_as_is(self, name: str, value: Any) -> bool:
        """Whether this header is stored as the text it is, and so written out as `name: value` on
        one line (judge.mail.outbound.outgoing relies on it to make a mail's copies)."""
        shape = _SHAPES.get(name.lower())
        return (shape is not None and type(value) is str and value.isascii()
                and len(name) + 2 + len(value) <= (self.max_line_length or 0) and shape.fullmatch(value) is not None
                and (name.lower() != "date" or _as_written_back(value)))

    def header_fetch_parse(self, name: str, value: Any) -> Any:
        if type(value) is str and name.lower() in _SHAPES:     # one stored plain: parsed when read, as before,
            return _parsed(self, name, value)     # once for the mails that share it (Content-Type: read 4 times a mail)
        return super().header_fetch_parse(name, value)

    def header_max_count(self, name: str) -> int | None:
        return _max_count(self, name.lower())     # the standard one makes a new class at each call


def _as_written_back(date: str) -> bool:
    """Whether the standard path would write this date back as it is (its weekday right, say)."""
    return format_datetime(parsedate_to_datetime(date)) == date


@lru_cache(maxsize=256)
def _parsed(policy: EmailPolicy, name: str, value: str) -> Any:
    """A header object: immutable (a str), so one may serve every message that holds the value."""
    return EmailPolicy.header_fetch_parse(policy, name, value)


@cache
def _max_count(policy: EmailPolicy, name: str) -> int | None:
    return EmailPolicy.header_max_count(policy, name)


SMTP = PlainHeaders(linesep="\r\n")
SMTPUTF8 = SMTP.clone(utf8=True)

"""Is a mail's shape absurd? Measured on the raw bytes, before any MIME parser sees them.

Python's email parser recurses once per nested part: a mail nested ~1,000 deep makes it raise
RecursionError (at intake, answered 451 so the sender retried for ever), and a few hundred deep
is stored and then fails later. No person writes such a mail, so intake refuses it for good
(SMTP 5xx; flagged and set aside in IMAP) when it passes `LimitsConfig`'s sane bounds. The scan
is one pass over the lines and never recurses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...config import LimitsConfig

_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.IGNORECASE)
_MESSAGE_PART = re.compile(rb"^content-type:\s*message/", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Shape:
    lines: int
    parts: int             # boundary lines met: the body parts of every multipart
    depth: int             # the deepest nesting of multiparts
    message_parts: int     # message/rfc822 and the like: each is a whole mail inside, one level more


def measure(raw: bytes) -> Shape:
    lines = raw.count(b"\n") + 1
    # Most mails are one plain text part: two quick searches of a lower-cased copy (which runs at
    # memory speed, unlike a case-blind pattern) show that neither pattern can match.
    lower = raw.lower()
    if b"boundary" not in lower and b"message/" not in lower:
        return Shape(lines, 0, 0, 0)
    declared = {m.group(1) or m.group(2) for m in _BOUNDARY.finditer(raw)}
    open_: list[bytes] = []
    parts = depth = 0
    if declared:
        for line in raw.split(b"\n"):
            if not line.startswith(b"--"):
                continue
            token = line[2:].rstrip()
            if token.endswith(b"--") and token[:-2] in declared:
                closing = token[:-2]
                if closing in open_:
                    del open_[open_.index(closing):]
            elif token in declared:
                parts += 1
                if token not in open_:        # a multipart's first part: one level deeper
                    open_.append(token)
                    depth = max(depth, len(open_))
    return Shape(lines, parts, depth, len(_MESSAGE_PART.findall(raw)))


def refusal(raw: bytes, limits: LimitsConfig) -> str | None:
    """Why this mail is refused for good, in words for the SMTP answer; None for a sane mail."""
    shape = measure(raw)
    if shape.lines > limits.mail_lines:
        return f"the message has {shape.lines} lines; the judge takes at most {limits.mail_lines}"
    if shape.depth > limits.mime_depth:
        return f"MIME parts nested {shape.depth} deep; the judge takes at most {limits.mime_depth}"
    if shape.message_parts > limits.mime_depth:
        return f"{shape.message_parts} mails inside the mail; the judge takes at most {limits.mime_depth}"
    if shape.parts > limits.mime_parts:
        return f"{shape.parts} MIME parts; the judge takes at most {limits.mime_parts}"
    return None

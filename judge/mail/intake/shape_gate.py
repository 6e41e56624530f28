"""Is a mail's shape absurd? Measured on the raw bytes, before any MIME parser sees them.

Python's email parser recurses once per nested part: a mail nested ~1,000 deep makes it raise
RecursionError (at intake, answered 451 so the sender retried for ever), and a few hundred deep
is stored and then fails later. No person writes such a mail, so intake refuses it for good
(SMTP 5xx; flagged and set aside in IMAP) when it passes `LimitsConfig`'s sane bounds. The scan
is one pass over the lines and never recurses.

What nests is what the parser reads as nesting, so each Content-Type header is read as the
parser reads it (policy.default: RFC 2231 parameters such as `boundary*0="d0"` or
`boundary*=utf-8''d0`, folding, comments, RFC 2047 encoded words), and lines are split where the
parser splits them (CRLF, LF or a lone CR). A header of the everyday shape is read by one regular
expression; any other goes to the email package itself (about half a millisecond each), and a
mail with more Content-Type headers than `most_headers` is not read further: `refusal` turns
it away on the count alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.message import Message

from ...config import LimitsConfig

_TEXT_POLICY = policy.default            # the policy the archive parses stored mail with
_CONTENT_TYPE = re.compile(r"(?:\A|(?<=[\r\n]))content-type:([^\r\n]*(?:(?:\r\n|\r|\n)[ \t][^\r\n]*)*)",
                           re.IGNORECASE)
_DASHED_LINE = re.compile(r"(?:\A|(?<=[\r\n]))--([^\r\n]*)")
_TOKEN = r"[A-Za-z0-9!#$&+.^_`{|}~-]+"       # RFC 2045's token without '*', '%' and "'" (RFC 2231's marks)
_QUOTED = r"[ !#-'*-\[\]-~]*"               # printable ASCII but for quote, backslash and parentheses
_PLAIN_HEADER = re.compile(rf"[ \t]*({_TOKEN})/{_TOKEN}[ \t]*"
                           rf"((?:;[ \t]*{_TOKEN}[ \t]*=[ \t]*(?:\"{_QUOTED}\"|{_TOKEN})[ \t]*)*);?[ \t]*")
_PLAIN_PARAM = re.compile(rf"({_TOKEN})[ \t]*=[ \t]*(?:\"({_QUOTED})\"|({_TOKEN}))")


@dataclass(frozen=True)
class Shape:
    lines: int
    parts: int             # boundary lines met: the body parts of every multipart
    depth: int             # the deepest nesting of multiparts
    message_parts: int     # message/rfc822 and the like: each is a whole mail inside, one level more
    headers: int           # Content-Type headers, wherever they stand


def read_content_type(value: str) -> tuple[str, str | None]:
    """A Content-Type header's value (as it follows the colon, folding kept) -> its main type and
    its boundary, as the email parser reads them."""
    plain = None if "=?" in value else _PLAIN_HEADER.fullmatch(value.replace("\r", "").replace("\n", ""))
    if plain is not None:
        maintype = plain.group(1).lower()
        for param in _PLAIN_PARAM.finditer(plain.group(2)):
            if param.group(1).lower() == "boundary":
                quoted, bare = param.group(2), param.group(3)
                return maintype, (quoted if quoted is not None else bare).rstrip()
        return maintype, None
    msg = Message(policy=_TEXT_POLICY)
    msg.set_raw(*_TEXT_POLICY.header_source_parse([f"Content-Type:{value}\r\n"]))
    return msg.get_content_maintype(), msg.get_boundary()


def _line_count(raw: bytes) -> int:
    return raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n") + 1


def measure(raw: bytes, most_headers: int | None = None) -> Shape:
    lines = _line_count(raw)
    # Most mails are one plain text part; a search of a lower-cased copy (which runs at memory
    # speed, unlike a case-blind pattern) shows there is no header to read.
    if b"content-type:" not in raw.lower():
        return Shape(lines, 0, 0, 0, 0)
    text = raw.decode("ascii", "surrogateescape")        # as the parser reads bytes
    declared: set[str] = set()
    seen: dict[str, tuple[str, str | None]] = {}
    headers = message_parts = 0
    for found in _CONTENT_TYPE.finditer(text):
        headers += 1
        if most_headers is not None and headers > most_headers:
            headers = most_headers + len(_CONTENT_TYPE.findall(text, found.start()))
            break
        value = found.group(1)
        if value not in seen:
            seen[value] = read_content_type(value)
        maintype, boundary = seen[value]
        if maintype == "message":
            message_parts += 1
        elif maintype == "multipart" and boundary is not None:
            declared.add(boundary)
    open_: list[str] = []
    parts = depth = 0
    if declared:
        for dashed in _DASHED_LINE.finditer(text):
            token = dashed.group(1).rstrip(" \t")
            if token.endswith("--") and token[:-2] in declared:
                closing = token[:-2]
                if closing in open_:
                    del open_[open_.index(closing):]
            elif token in declared:
                parts += 1
                if token not in open_:        # a multipart's first part: one level deeper
                    open_.append(token)
                    depth = max(depth, len(open_))
    return Shape(lines, parts, depth, message_parts, headers)


def most_headers(limits: LimitsConfig) -> int:
    """Content-Type headers a sane mail may carry: one per part and per mail inside, and the top's."""
    return limits.mime_parts + limits.mime_depth + 1


def refusal(raw: bytes, limits: LimitsConfig) -> str | None:
    """Why this mail is refused for good, in words for the SMTP answer; None for a sane mail."""
    most = most_headers(limits)
    shape = measure(raw, most)
    if shape.lines > limits.mail_lines:
        return f"the message has {shape.lines} lines; the judge takes at most {limits.mail_lines}"
    if shape.depth > limits.mime_depth:
        return f"MIME parts nested {shape.depth} deep; the judge takes at most {limits.mime_depth}"
    if shape.message_parts > limits.mime_depth:
        return f"{shape.message_parts} mails inside the mail; the judge takes at most {limits.mime_depth}"
    if shape.parts > limits.mime_parts:
        return f"{shape.parts} MIME parts; the judge takes at most {limits.mime_parts}"
    if shape.headers > most:
        return f"{shape.headers} Content-Type headers; the judge takes at most {most}"
    return None

"""What tells one message from another at intake: its Message-ID, read from the header block alone,
and a hash of its content that relays' trace headers do not change. The archive de-duplicates by
the two (a redelivery is the same Message-ID and content); intake's spool records the Message-ID,
its drain works out the hash.
"""
from __future__ import annotations

import hashlib
import re
from email import policy
from email.parser import BytesHeaderParser

# Headers that relays add or rewrite on the way; they do not make a message different.
TRACE_HEADERS = frozenset({
    "received", "return-path", "delivered-to", "x-original-to", "x-received", "authentication-results",
    "arc-seal", "arc-message-signature", "arc-authentication-results", "received-spf", "x-spam-status",
    "x-spam-score", "x-spam-checker-version", "x-spam-level", "x-virus-scanned",
})
_TRACE_NAMES = frozenset(name.encode("ascii") for name in TRACE_HEADERS)     # compared as bytes: no decoding


# A header block that Python's email parser reads line for line as written: ASCII, only header lines
# ("Name: value", the name without spaces) and their folded continuations, each line ended by LF or
# CRLF, and an optional empty line at the end. For such a block the first Message-ID line (with its
# continuations) is what the parser would return; anything else goes to the parser itself.
_PLAIN_HEAD = re.compile(rb"(?:[\x21-\x39\x3b-\x7e]+:[^\r\n]*\r?\n)(?:[\x21-\x39\x3b-\x7e]+:[^\r\n]*\r?\n|"
                         rb"[ \t][^\r\n]*\r?\n)*\r?\n?")
_MESSAGE_ID_LINE = re.compile(rb"^message-id:([^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*)", re.IGNORECASE | re.MULTILINE)


def message_id_of(raw: bytes) -> str | None:
    """The Message-ID header, read from the header block alone (the body, pictures included, is not parsed).
    A plain header block is read with two regular expressions; any other goes to Python's email parser."""
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        end = raw.find(b"\n\n")
    head = raw if end < 0 else raw[:end + 2]
    if not (head.isascii() and head.count(b"\r") == head.count(b"\r\n") and _PLAIN_HEAD.fullmatch(head)):
        return message_id_by_parser(head)
    found = _MESSAGE_ID_LINE.search(head)
    if found is None:
        return None
    value = found.group(1).lstrip(b" \t").rstrip(b"\r\n").decode("ascii").strip()
    return value.strip("<>").strip() or None


def message_id_by_parser(head: bytes) -> str | None:
    """The Message-ID as Python's email parser reads it from a header block (whatever its shape)."""
    msg = BytesHeaderParser(policy=policy.compat32).parsebytes(head)
    value = msg.get("Message-ID")
    if value is None:
        return None
    value = str(value).strip()
    return value.strip("<>").strip() or None


def content_hash(raw: bytes) -> str:
    """sha256 over the header lines that are not trace headers, then the body, with CRLF normalised."""
    normal = raw.replace(b"\r\n", b"\n")
    head, sep, body = normal.partition(b"\n\n")
    if not sep:
        head, body = normal, b""
    kept: list[bytes] = []
    keep = True
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):     # a folded continuation belongs to the header before it
            if keep:
                kept.append(line)
            continue
        keep = line.split(b":", 1)[0].strip().lower() not in _TRACE_NAMES
        if keep:
            kept.append(line)
    digest = hashlib.sha256()
    digest.update(b"\n".join(kept))
    digest.update(b"\n\n")
    digest.update(body)
    return digest.hexdigest()

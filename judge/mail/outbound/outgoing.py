"""The one path of the judge's outbound mail: a rendered template becomes a message and is queued.

    send(db, config, Rendered(subject, body), key="reply:12:ab", to=["ann@example.org"])

Every mail the judge writes (replies, results and other notices, alerts to masters and the
keeper, bounce notices) goes through `send`: built by `compose.build_message` (RFC 3834 headers, a
Message-ID stable per `key`, threading headers for a reply) and queued by `outbox.queue` under that
Message-ID, read from the message built rather than parsed back out of its bytes. A part many
mails share (a phase's picture) is stored once for them all (`shared`). `send_copies` sends one text
to several recipients (a notice's copies): the mail is built once and each further copy is its bytes
with its own To, Message-ID and Reply-To lines, the bytes building it would give (where a header
is not the plain one-line text that makes this sure, that copy is built whole).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage, Message

import sqlite_utils

from ...config import Config
from . import outbox
from .compose import build_message, stable_message_id
from .plain_headers import SMTP
from ..words.reports import Rendered
from .shared_part import SharedPart

@dataclass(frozen=True)
class Attachment:
    """A file the reply carries after its text."""
    filename: str
    maintype: str
    subtype: str
    data: bytes


def message(config: Config, rendered: Rendered, *, key: str, to: Sequence[str],
            in_reply_to: Message | None = None, reply_to: str | None = None,
            files: Sequence[Attachment] = (), date: float | None = None) -> EmailMessage:
    """The message `send` queues, for a caller that must look at it first. `files`: a reply's own
    attachments (MAP's picture, EXPORT's record), after the text."""
    mail = build_message(key=key, sender=config.address, to=list(to), subject=rendered.subject, body=rendered.body,
                         domain=config.domain, in_reply_to=in_reply_to, date=date)
    if reply_to:
        mail["Reply-To"] = reply_to
    for file in files:
        mail.add_attachment(file.data, maintype=file.maintype, subtype=file.subtype, filename=file.filename)
    return mail


def send(db: sqlite_utils.Database, config: Config, rendered: Rendered, *, key: str, to: Sequence[str],
         in_reply_to: Message | None = None, reply_to: str | None = None, shared: SharedPart | None = None,
         files: Sequence[Attachment] = ()) -> bool:
    """Build and queue one mail. True if queued now, False if the same key was queued before."""
    mail = message(config, rendered, key=key, to=to, in_reply_to=in_reply_to, reply_to=reply_to, files=files)
    return outbox.queue(db, mail, to, envelope_from=config.address, shared=shared)


@dataclass(frozen=True)
class Copy:
    """One recipient's copy of a mail: its key (its Message-ID), its addresses, its Reply-To."""
    key: str
    to: tuple[str, ...]
    reply_to: str | None = None


def send_copies(db: sqlite_utils.Database, config: Config, rendered: Rendered, copies: Sequence[Copy], *,
                shared: SharedPart | None = None, files: Sequence[Attachment] = ()) -> int:
    """Queue one text's copies in the caller's transaction (the courier's per game), each under its own
    key, in one statement. Returns how many were queued now (a key queued before is a no-op)."""
    date = time.time()        # one Date for all the copies, as they are one mail
    first: tuple[Copy, bytes, SharedPart | None] | None = None
    rows: list[outbox.Stored] = []
    for copy in copies:
        raw = _spliced(config, first[:2], copy) if first is not None else None
        if raw is None:
            mail = message(config, rendered, key=copy.key, to=copy.to, reply_to=copy.reply_to, files=files,
                           date=date)
            _, raw, part = outbox.stored(mail, shared)
            first = first or (copy, raw, part)
        else:
            part = first[2] if first is not None else None
        rows.append(outbox.Stored(stable_message_id(copy.key, config.domain), copy.to, raw, part))
    return outbox.queue_stored(db, rows, envelope_from=config.address)


def _header_lines(config: Config, copy: Copy) -> list[bytes] | None:
    """The copy's own header lines as the plain policy writes them, or None if one would not be
    written plainly on one line (then the copy is built whole)."""
    values = [("To", ", ".join(copy.to)), ("Message-ID", f"<{stable_message_id(copy.key, config.domain)}>")]
    if copy.reply_to:
        values.append(("Reply-To", copy.reply_to))
    if not all(address.isascii() for address in (config.address, *copy.to)) or \
            not all(SMTP.stores_as_is(name, value) for name, value in values):
        return None
    return [f"{name}: {value}\r\n".encode("ascii") for name, value in values]


def _spliced(config: Config, first: tuple[Copy, bytes], copy: Copy) -> bytes | None:
    """The first copy's bytes with this copy's own header lines, or None if that cannot be sure."""
    model, raw = first
    old, new = _header_lines(config, model), _header_lines(config, copy)
    if old is None or new is None or len(old) != len(new):
        return None
    end = raw.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = b"\r\n" + raw[:end + 2]          # each line between CRLFs, the first one too
    for was, now in zip(old, new, strict=True):
        if head.count(b"\r\n" + was) != 1:
            return None
        head = head.replace(b"\r\n" + was, b"\r\n" + now)
    return head[2:] + raw[end + 2:]

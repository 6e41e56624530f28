"""The one path of the judge's outbound mail: a rendered template becomes a message and is queued.

    send(db, config, Rendered(subject, body), key="reply:12:ab", to=["ann@example.org"])

Every mail the judge writes (replies, results and other notices, alerts to masters and the
keeper, bounce notices) goes through `send`: built by `compose.build_message` (RFC 3834 headers, a
Message-ID stable per `key`, threading headers for a reply) and queued by `outbox.queue` under that
Message-ID, read from the message built rather than parsed back out of its bytes. A part many
mails share (a phase's picture) is stored once for them all (`shared`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage, Message

import sqlite_utils

from ...config import Config
from . import outbox
from .compose import build_message
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
            files: Sequence[Attachment] = ()) -> EmailMessage:
    """The message `send` queues, for a caller that must look at it first. `files`: a reply's own
    attachments (MAP's picture, EXPORT's record), after the text."""
    mail = build_message(key=key, sender=config.address, to=list(to), subject=rendered.subject, body=rendered.body,
                         domain=config.domain, in_reply_to=in_reply_to)
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

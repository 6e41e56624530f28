"""A message is applied at most once, whatever headers it gained on the way or was given again.

The archive already sets aside a redelivery with the same content; this catches the copy that
differs in some header (a relay's, a list's, or a replay with a header added or the Message-ID
removed). A message is known by:
- its Message-ID, normalised (angle brackets, spaces and letter case dropped), when it has one;
- the hash of its body as the judge reads it (the text parts, whitespace and case normalised),
  with the address it is answered at and the reply address it came to. Every message records this
  key, so a copy with its Message-ID stripped is caught too; but a message is only looked up by it
  when it has no Message-ID, since a player may well send the same orders again in a new mail.
A copy of a message seen before is not applied: the sender is told which mail it repeats.

Older mail never replaces newer orders: the games layer's submissions name the inbound message
they came from, and orders from a message that arrived (in the archive's order, the inbound id)
before the one whose orders stand are not used (`newer_orders_stand`). The Date header is not
used for this: anyone can write any date, and clocks are wrong.
"""
from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable
from email.message import EmailMessage, Message

import sqlite_utils

from ...storage.db import transaction
from .dispatch_store import prepare

_SPACE = re.compile(r"\s+")


def normal_message_id(value: str | None) -> str | None:
    if not value:
        return None
    found = re.sub(r"\s+", "", str(value)).strip("<>").lower()
    return found or None


def body_text(mail: Message) -> str:
    """Every text part's decoded content, in order: the body whatever the headers say."""
    parts = []
    for part in mail.walk():
        if part.get_content_maintype() != "text":
            continue
        if not isinstance(part, EmailMessage):     # (the judge parses mail with policy.default: never so)
            parts.append(str(part.get_payload()))
            continue
        try:
            parts.append(part.get_content())
        except (LookupError, ValueError, AssertionError):
            parts.append(str(part.get_payload()))
    return _SPACE.sub(" ", "\n".join(parts)).strip().lower()


def keys_of(mail: Message, sender: str, recipients: Iterable[str]) -> tuple[str | None, str]:
    """(the Message-ID key or None, the body key)."""
    mid = normal_message_id(mail.get("Message-ID"))
    digest = hashlib.sha256("\n".join([sender.lower(), ",".join(sorted(r.lower() for r in recipients)),
                                       body_text(mail)]).encode("utf-8", "surrogatepass")).hexdigest()
    return (f"mid:{mid}" if mid else None), f"body:{digest}"


def first_copy(db: sqlite_utils.Database, inbound_id: int, mail: Message, sender: str,
               recipients: Iterable[str]) -> int | None:
    """The inbound id of the earlier message this one repeats, or None (then its keys are recorded as
    this message's, in one transaction: two copies cannot both be first)."""
    prepare(db)
    mid_key, body_key = keys_of(mail, sender, recipients)
    look = [mid_key] if mid_key else [body_key]
    with transaction(db):
        for key in look:
            row = db.conn.execute("SELECT inbound_id FROM applied_messages WHERE key = ?", [key]).fetchone()
            if row and row[0] != inbound_id:
                return int(row[0])
        keys = [k for k in (mid_key, body_key) if k]      # (one statement for both)
        db.conn.execute("INSERT OR IGNORE INTO applied_messages (key, inbound_id, at) VALUES "
                        + ", ".join(["(?, ?, ?)"] * len(keys)), [v for k in keys for v in (k, inbound_id, time.time())])
    return None


def inbound_of(source: str | None) -> int | None:
    """The inbound id in a submission's source ("mail:<id>:<item>:<power>"), if it came by mail."""
    if not source or not source.startswith("mail:"):
        return None
    head = source.split(":")[1]
    return int(head) if head.isdigit() else None

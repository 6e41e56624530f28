"""A mail the judge keeps failing on is set aside (quarantined): its sender hears so in a short
reply when the mail may be answered at all, and the judge's keeper is alerted with the error.

Everything here reads the raw mail as cautiously as possible (headers only, no MIME walk),
because the mail is by definition one the judge cannot handle.
"""
from __future__ import annotations

import logging
from email.parser import BytesHeaderParser

import sqlite_utils

from ...config import Config
from . import outgoing
from ..screening.addresses import header_text, reply_address
from ..intake.archive import StoredMessage
from ..screening.own_addresses import OwnAddresses
from ..screening.robot_mail import UTF8_HEADERS, classify
from .compose import reply_subject
from ..words.reports import Reports

log = logging.getLogger("judge.quarantine")


def answerable_sender(message: StoredMessage, config: Config) -> tuple[str | None, str]:
    """(the address to tell, '') or (None, why nobody is told)."""
    try:
        verdict = classify(message.raw, message.mail_from, OwnAddresses.configured(config))
    except Exception:   # a mail that cannot even be classified is not answered
        return None, "its headers cannot be read"
    if not verdict.reply_allowed:
        return None, verdict.reason
    headers = BytesHeaderParser(policy=UTF8_HEADERS).parsebytes(message.raw)
    address = reply_address(headers, message.mail_from)
    return (address, "") if address else (None, "no address to answer")


def set_aside(config: Config, db: sqlite_utils.Database, message: StoredMessage, attempts: int, error: str) -> str:
    """Queue the sender's note and the keeper's alert; return what was done, in words."""
    said = []
    headers = BytesHeaderParser(policy=UTF8_HEADERS).parsebytes(message.raw)
    subject = header_text(headers.get("Subject")).strip()[:200] or "(no subject)"
    sender, why_not = answerable_sender(message, config)
    reports = Reports()
    if sender is not None:
        outgoing.send(
            db,
            config,
            reports.render(
                "reply_set_aside.j2", subject=subject, reply_subject=reply_subject(subject), attempts=attempts
            ),
            key=f"set-aside:{message.id}:{message.content_hash}",
            to=[sender],
            in_reply_to=headers,
        )
        said.append(f"{sender} told")
    else:
        said.append(f"sender not told ({why_not})")
    if config.master_address:
        rendered = reports.render("keeper_set_aside.j2", inbound_id=message.id, attempts=attempts,
                                  mail_from=message.mail_from, subject=subject, via=message.via,
                                  peer=message.peer, error=error)
        outgoing.send(db, config, rendered, key=f"set-aside-alert:{message.id}:{message.content_hash}",
                      to=[config.master_address])
        said.append("keeper alerted")
    else:
        log.warning("message #%d set aside: no master_address configured, so the keeper is not alerted", message.id)
        said.append("no master_address to alert")
    return "; ".join(said)

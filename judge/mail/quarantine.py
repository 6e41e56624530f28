"""A mail the judge keeps failing on is set aside (quarantined): its sender hears so in a short
reply when the mail may be answered at all, and the judge's keeper is alerted with the error.

Everything here reads the raw mail as cautiously as possible (headers only, no MIME walk),
because the mail is by definition one the judge cannot handle.
"""
from __future__ import annotations

import logging
from email.parser import BytesHeaderParser

from ..config import Config
from . import outbox
from .addresses import header_text, reply_address
from .archive import StoredMessage
from .loops import UTF8_HEADERS, build_message, classify, reply_subject
from .textlayout import fit_lines

log = logging.getLogger("judge.quarantine")


def answerable_sender(message: StoredMessage) -> tuple[str | None, str]:
    """(the address to tell, '') or (None, why nobody is told)."""
    try:
        verdict = classify(message.raw, message.mail_from)
    except Exception:   # noqa: BLE001 - a mail that cannot even be classified is not answered
        return None, "its headers cannot be read"
    if not verdict.reply_allowed:
        return None, verdict.reason
    headers = BytesHeaderParser(policy=UTF8_HEADERS).parsebytes(message.raw)
    address = reply_address(headers, message.mail_from)
    return (address, "") if address else (None, "no address to answer")


def set_aside(config: Config, db, message: StoredMessage, attempts: int, error: str) -> str:
    """Queue the sender's note and the keeper's alert; return what was done, in words."""
    said = []
    headers = BytesHeaderParser(policy=UTF8_HEADERS).parsebytes(message.raw)
    subject = header_text(headers.get("Subject")).strip()[:200] or "(no subject)"
    sender, why_not = answerable_sender(message)
    if sender is not None:
        body = "\n".join([
            "The judge could not handle your mail:",
            "",
            f"  Subject: {subject}",
            "",
            f"It failed {attempts} times on an error of the judge's own, so it has been set aside",
            "for the judge's keeper, who has been told. Some of it may not have been done:",
            "please check what the judge says of your game (SUMMARY), and send again",
            "what is missing.",
        ])
        note = build_message(key=f"set-aside:{message.id}:{message.content_hash}", sender=config.address,
                             to=[sender], subject=reply_subject(subject), body=fit_lines(body), domain=config.domain,
                             in_reply_to=headers)
        outbox.enqueue(db, note["Message-ID"], [sender], bytes(note), envelope_from=config.address)
        said.append(f"{sender} told")
    else:
        said.append(f"sender not told ({why_not})")
    if config.master_address:
        body = "\n".join([
            f"Inbound message #{message.id} was set aside after {attempts} failed attempts.",
            "",
            f"From (envelope): {message.mail_from or '(none)'}",
            f"Subject: {subject}",
            f"Received via {message.via} from {message.peer or '(unknown)'}",
            "",
            f"Last error: {error}",
            "",
            "It stays in the archive (state 'failed'); the log has the traceback.",
        ])
        alert = build_message(key=f"set-aside-alert:{message.id}:{message.content_hash}", sender=config.address,
                              to=[config.master_address], subject=f"Judge: mail #{message.id} set aside",
                              body=fit_lines(body), domain=config.domain)
        outbox.enqueue(db, alert["Message-ID"], [config.master_address], bytes(alert),
                       envelope_from=config.address)
        said.append("keeper alerted")
    else:
        log.warning("message #%d set aside: no master_address configured, so the keeper is not alerted", message.id)
        said.append("no master_address to alert")
    return "; ".join(said)

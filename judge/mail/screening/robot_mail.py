"""Robots and bounces: which inbound mail must never get a reply, and which is a delivery failure
report (the judge's own headers are built in judge.mail.outbound.compose).

RFC 3834 (automatic responses), RFC 2369/2919 (list headers) and RFC 3464 (delivery status
notifications) are the references.

Which addresses failed is read from a delivery status notification's own fields where there are
some (the Original-Recipient first: the address the judge wrote to, not the one a forwarder gave it),
and otherwise by flufl.bounce's detectors (Mailman's, for the free-text reports of older and odder
mail servers). Measured on flufl.bounce's corpus of 118 real reports (tests/data/mail/bounces/), the
judge's own reading alone found the right addresses in 9 of the 101 that name any, and a wrong one in
6 more (a returned mail's To, often a mailing list); with the detectors it agrees on every one
(tests/test_mail_bounces.py). The detectors are heuristics over text anyone can write, and one raises
on a report in the corpus: any exception of theirs reads as "no address found", and what they return
is kept only if it looks like an address.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.header import Header
from email.message import Message
from email.policy import Compat32
from email.utils import collapse_rfc2231_value, getaddresses

from flufl.bounce import all_failures

from .addresses import addresses_in, parsed_address
from .own_addresses import OwnAddresses

LIST_HEADERS = ("List-Id", "List-Post", "List-Unsubscribe", "List-Help", "List-Owner", "Mailing-List")
BULK_PRECEDENCE = frozenset({"bulk", "list", "junk"})
# Local parts that belong to mail systems, not people (RFC 3834 section 2).
ROBOT_LOCAL_PARTS = re.compile(r"^(mailer-daemon|postmaster|listserv|majordomo|owner-.*|.*-request|.*-owner"
                               r"|.*-bounces?|bounces?|no-?reply|do-?not-?reply)$", re.IGNORECASE)


class Utf8Headers(Compat32):
    """compat32, except that a header holding raw 8-bit text (RFC 6532: UTF-8 addresses and names)
    reads as a str decoded as UTF-8, not as an email.header.Header that `parseaddr`, `split` and
    `len` cannot take (a TypeError that once made every internationalised sender's mail fail)."""

    # typeshed has Policy's header_fetch_parse return a str, and Compat32's a str or a Header (as it does)
    def header_fetch_parse(self, name: str, value: str) -> str | Header:  # type: ignore[override]
        if isinstance(value, str) and any("\udc80" <= ch <= "\udcff" for ch in value):
            return value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
        return super().header_fetch_parse(name, value)


UTF8_HEADERS = Utf8Headers()


@dataclass(frozen=True)
class Bounce:
    failed: tuple[str, ...]              # addresses the judge's mail could not reach
    diagnostic: str | None               # the remote server's words, when given
    original_message_id: str | None      # the judge's message that bounced, without <>


@dataclass(frozen=True)
class Classification:
    reply_allowed: bool
    reason: str                          # why not, in words ('' when a reply is allowed)
    bounce: Bounce | None = None


def _local_part(address: str) -> str:
    return address.rpartition("@")[0] if "@" in address else address


def classify(raw: bytes, mail_from: str | None, own: OwnAddresses | None = None) -> Classification:
    """mail_from is the envelope sender: '' for the null sender <>, None when unknown (IMAP); `own`,
    the judge's own addresses (judge.mail.screening.own_addresses), whose mail is never answered."""
    msg = message_from_bytes(raw, policy=UTF8_HEADERS)
    bounce = find_bounce(msg, mail_from)
    if bounce is not None:
        return Classification(False, "a delivery failure report (bounce)", bounce)
    ours = own.in_mail(msg, mail_from) if own is not None else None
    if ours is not None:
        return Classification(False, f"from the judge's own address ({ours})")
    if mail_from is not None and mail_from.strip("<> ") == "":
        return Classification(False, "null envelope sender")
    auto = (msg.get("Auto-Submitted") or "").split(";")[0].strip().lower()
    if auto and auto != "no":
        return Classification(False, f"Auto-Submitted: {auto}")
    precedence = (msg.get("Precedence") or "").strip().lower()
    if precedence in BULK_PRECEDENCE:
        return Classification(False, f"Precedence: {precedence}")
    for name in LIST_HEADERS:
        if msg.get(name) is not None:
            return Classification(False, f"mailing-list mail ({name})")
    if msg.get("X-Autoreply") is not None or msg.get("X-Autorespond") is not None:
        return Classification(False, "an automatic reply (X-Autoreply)")
    # X-Auto-Response-Suppress (Microsoft, [MS-OXCMAIL] 2.2.3.2.20) is deliberately not a reason: it
    # asks robots not to send out-of-office and similar unsolicited answers, and Exchange and Outlook
    # put it on ordinary mail people write. The judge's confirmation is a service's answer to the
    # commands the sender wrote (RFC 3834 section 1: not a personal auto-responder), so such a mail
    # is read and answered like any other; a real robot also says Auto-Submitted, caught above.
    senders = [mail_from or ""] + [a for _, a in addresses_in(msg.get("From", ""), msg.get("Sender", ""))]
    for address in senders:
        if address and ROBOT_LOCAL_PARTS.match(_local_part(address.strip("<>"))):
            return Classification(False, f"sent by a mail system ({address})")
    return Classification(True, "")


def _is_robot_sender(msg: Message, mail_from: str | None) -> bool:
    if mail_from is None:
        # Read from a mailbox (IMAP): the delivering server wrote the envelope sender as Return-Path.
        mail_from = str(msg.get("Return-Path")) if msg.get("Return-Path") is not None else None
    if mail_from is not None and mail_from.strip("<> ") == "":
        return True
    addresses = [parsed_address(msg.get("From", ""))[1], parsed_address(mail_from or "")[1]]
    return any(_local_part(a).lower() in ("mailer-daemon", "postmaster") for a in addresses)


def find_bounce(msg: Message, mail_from: str | None) -> Bounce | None:
    """A delivery failure report, with the addresses that failed; None for any other mail."""
    if msg.get_content_type() == "multipart/report" and \
            collapse_rfc2231_value(msg.get_param("report-type") or "").lower() == "delivery-status":
        bounce = _dsn_bounce(msg)
        if not bounce.failed:
            bounce = Bounce(_detected_failures(msg), bounce.diagnostic, bounce.original_message_id)
        return bounce
    if not _is_robot_sender(msg, mail_from):
        return None
    # A bounce in free text (older MTAs): X-Failed-Recipients (Exim), else what the detectors find,
    # else the returned headers.
    failed = tuple(a for _, a in getaddresses(msg.get_all("X-Failed-Recipients", [])) if a)
    failed = failed or _detected_failures(msg)
    original = _returned_headers(msg)
    if not failed and original is not None and (header_message_id(original) or "").startswith("judge."):
        # The judge's own mail came back: it was written to its To and Cc. (Another's mail returned is
        # often a mailing list's, whose To is the list.)
        failed = tuple(a for _, a in getaddresses(original.get_all("To", []) + original.get_all("Cc", [])) if a)
    subject = (msg.get("Subject") or "").lower()
    if not failed and not any(w in subject for w in ("undeliver", "failure", "returned", "delivery status")):
        return None      # e.g. a postmaster writing in person
    return Bounce(failed, _first_text_line(msg), header_message_id(original))


_PLAIN_ADDRESS = re.compile(r"[^\s<>@,;:\"()\[\]\\]{1,64}@[A-Za-z0-9.-]{1,189}")
MAX_FAILED = 20          # a report naming more is read as naming these; the rest is noise or an attack


def _detected_failures(msg: Message) -> tuple[str, ...]:
    """The permanent failures flufl.bounce's detectors find, as plain addresses."""
    try:
        _temporary, permanent = all_failures(msg)
    except Exception:        # a third-party heuristic over hostile text: no address, never a crash
        logging.getLogger(__name__).info("a bounce detector failed on this report; no address taken from it")
        return ()
    found = {a.decode("utf-8", "replace") if isinstance(a, bytes) else str(a) for a in permanent}
    return tuple(sorted(a for a in found if _PLAIN_ADDRESS.fullmatch(a)))[:MAX_FAILED]


def _dsn_bounce(msg: Message) -> Bounce:
    failed: list[str] = []
    diagnostic = None
    original = None
    for part in msg.walk():
        kind = part.get_content_type()
        if kind in ("message/delivery-status", "message/global-delivery-status"):
            for block in _status_blocks(part):
                action = block.get("action", "").lower()
                if action != "failed":
                    continue      # delayed, delivered, relayed, expanded: not a failure
                recipient = block.get("original-recipient") or block.get("final-recipient") or ""
                address = recipient.split(";", 1)[-1].strip().strip("<>")
                if address and address not in failed:
                    failed.append(address)
                diagnostic = diagnostic or block.get("diagnostic-code", "").split(";", 1)[-1].strip() or None
        elif kind in ("message/rfc822", "message/global", "text/rfc822-headers", "message/rfc822-headers") \
                and original is None:
            original = _part_as_message(part)
    return Bounce(tuple(failed), diagnostic, header_message_id(original))


def _status_blocks(part: Message) -> list[dict[str, str]]:
    """The per-message and per-recipient field groups of a delivery-status part, keys lower-cased."""
    payload = part.get_payload()
    if isinstance(payload, list):          # the email package parses it into header blocks
        return [{k.lower(): str(v) for k, v in block.items()} for block in payload if isinstance(block, Message)]
    text = payload if isinstance(payload, str) else ""
    blocks = []
    for chunk in re.split(r"\r?\n\s*\r?\n", text):
        fields = message_from_bytes(chunk.encode("utf-8", "replace"), policy=UTF8_HEADERS)
        blocks.append({k.lower(): str(v) for k, v in fields.items()})
    return blocks


def _part_as_message(part: Message) -> Message | None:
    payload = part.get_payload()
    if isinstance(payload, list) and payload and isinstance(payload[0], Message):
        return payload[0]
    if isinstance(payload, str):
        return message_from_bytes(payload.encode("utf-8", "replace"), policy=UTF8_HEADERS)
    return None


def _returned_headers(msg: Message) -> Message | None:
    for part in msg.walk():
        if part.get_content_type() in ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers"):
            return _part_as_message(part)
    # Inline: the returned message follows a separator line in the body.
    body = msg.get_payload(decode=True) if not msg.is_multipart() else None
    if isinstance(body, bytes) and body:
        match = re.search(rb"\n(?:Return-Path|Received|Message-ID|From|To):.*", body, re.IGNORECASE)
        if match:
            return message_from_bytes(body[match.start() + 1:], policy=UTF8_HEADERS)
    return None


def header_message_id(msg: Message | None) -> str | None:
    if msg is None or msg.get("Message-ID") is None:
        return None
    return str(msg.get("Message-ID")).strip().strip("<>").strip() or None


def _first_text_line(msg: Message) -> str | None:
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            text = part.get_payload(decode=True) or b""
            if not isinstance(text, bytes):     # (a text part's decoded payload is always bytes)
                continue
            for line in text.decode("utf-8", "replace").splitlines():
                if line.strip():
                    return line.strip()[:300]
    return None

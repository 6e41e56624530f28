"""The judge's own mail as built before it is queued: RFC 3834 headers so that other robots do not
answer it, a Message-ID stable per key, and threading headers so that clients thread it."""
from __future__ import annotations

import hashlib
import re
import time
from datetime import datetime, timezone
from email.message import EmailMessage, Message
from email.utils import format_datetime, formataddr

from ..screening.robot_mail import header_message_id
from . import plain_headers


def stable_message_id(key: str, domain: str) -> str:
    """The same key always gives the same Message-ID, so a resent report is seen to be a duplicate."""
    return f"judge.{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}@{domain}"


_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|vs|antw|ref|r)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*)+", re.IGNORECASE)


def reply_subject(subject: str | None, default: str = "your mail to the judge") -> str:
    """"Re: " and the subject, once: a thread's "Re: Re: AW: orders" becomes "Re: orders"."""
    rest = _REPLY_PREFIX.sub("", " ".join(str(subject or "").split()))
    return f"Re: {rest or default}"


def build_message(*, key: str, sender: str, to: list[str] | tuple[str, ...], subject: str, body: str,
                  domain: str, sender_name: str = "Diplomacy judge", in_reply_to: Message | None = None,
                  date: float | None = None) -> EmailMessage:
    """The judge's own mail: RFC 3834 marked, with a stable Message-ID and threading headers.

    A reply is `Auto-Submitted: auto-replied`; mail the judge sends on its own (deadline reports)
    is `auto-generated`, as RFC 3834 section 5 distinguishes them.
    """
    # To an internationalised address (RFC 6532) the headers are raw UTF-8: an encoded word is not
    # allowed in an address, and the outbox sends such mail only with SMTPUTF8.
    international = not all(address.isascii() for address in (sender, *to))
    # (policy.SMTP's, with the plain headers stored as they are: judge.mail.outbound.plain_headers)
    msg = EmailMessage(policy=plain_headers.SMTPUTF8 if international else plain_headers.SMTP)
    msg["From"] = formataddr((sender_name, sender))
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    # "+0000", as the standard path wrote "GMT" back anyway
    msg["Date"] = format_datetime(datetime.fromtimestamp(time.time() if date is None else date, timezone.utc))
    msg["Message-ID"] = f"<{stable_message_id(key, domain)}>"
    msg["Auto-Submitted"] = "auto-replied" if in_reply_to is not None else "auto-generated"
    # Microsoft's auto-responders do not read RFC 3834; this asks them not to answer either.
    msg["X-Auto-Response-Suppress"] = "All"
    if in_reply_to is not None:
        parent = header_message_id(in_reply_to)
        references = (str(in_reply_to.get("References") or "")).split()
        if parent:
            msg["In-Reply-To"] = f"<{parent}>"
            references = [r for r in references if r.strip("<>") != parent][-20:] + [f"<{parent}>"]
        if references:
            msg["References"] = " ".join(references)
    msg.set_content(body)
    return msg

"""The keeper (master_address) hears of every outbound mail that failed for good, once per mail.

The outbox's sender calls `keeper_told` in the same transaction that marks the mail failed, so a crash
cannot lose the news nor send it twice (its key is the failed mail's Message-ID). A mail to the keeper
that fails is not reported by mail again: that would only fail in turn, and loop.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from email.parser import BytesHeaderParser

import sqlite_utils

from ...config import Config
from ..screening.addresses import header_text
from ..screening.robot_mail import UTF8_HEADERS
from ..words.reports import Reports
from . import outgoing

log = logging.getLogger("judge.outbox")
KEY = "undelivered:"


def keeper_told(config: Config,
                reports: Reports | None = None) -> Callable[[sqlite_utils.Database, str, str, int], None]:
    """The sender's `on_failed` hook for this configuration."""
    def on_failed(db: sqlite_utils.Database, message_id: str, error: str, attempts: int) -> None:
        tell_keeper(config, db, message_id, error, attempts, reports)
    return on_failed


def tell_keeper(config: Config, db: sqlite_utils.Database, message_id: str, error: str, attempts: int,
                reports: Reports | None = None) -> bool:
    """Queue the keeper's note about the failed mail `message_id`. True if queued now."""
    keeper = config.master_address
    row = db.conn.execute("SELECT recipients, raw FROM outbox WHERE message_id = ?", [message_id]).fetchone()
    if not keeper or row is None:
        log.warning("outbox: <%s> failed for good and no master_address is configured to tell", message_id)
        return False
    recipients = json.loads(row[0])
    if keeper.lower() in (r.lower() for r in recipients):
        return False        # the keeper's own mail: telling them by mail would fail as well
    headers = BytesHeaderParser(policy=UTF8_HEADERS).parsebytes(bytes(row[1] or b""))
    subject = header_text(headers.get("Subject")).strip()[:200] or "(not kept)"
    rendered = (reports or Reports()).render("keeper_undelivered.j2", message_id=message_id, recipients=recipients,
                                             subject=subject, error=error[:500], attempts=attempts)
    return outgoing.send(db, config, rendered, key=f"{KEY}{message_id}", to=[keeper])

"""Notices the courier fails on: tried again with a growing pause, then set aside, keeper alerted.

A notice that cannot be rendered (a defect, bad data in its payload) once stayed pending for
ever, failing at every tick. Now each failure is counted in judge.sqlite (table notice_failures,
created by the outbox's migrations); after NOTICE_ATTEMPTS the notice is marked queued so it is
no longer tried, and the keeper (config.master_address) gets the game, the notice and the error.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

import sqlite_utils

from ...config import Config
from ...games.answers import Notice
from ...storage.db import transaction
from . import outgoing
from ..words.reports import Reports

log = logging.getLogger("judge.courier")

NOTICE_ATTEMPTS = 5
FIRST_RETRY = 60.0       # seconds; doubles after each failure


class NoticeFailures:
    def __init__(self, db: sqlite_utils.Database, config: Config, clock: Callable[[], float] = time.time) -> None:
        self.db, self.config, self.clock = db, config, clock

    def due(self, game: str, notice_id: str) -> bool:
        row = self.db.conn.execute("SELECT retry_at FROM notice_failures WHERE game = ? AND notice_id = ?",
                                   [game, notice_id]).fetchone()
        return row is None or row[0] <= self.clock()

    def failed(self, game: str, notice: Notice, error: Exception) -> bool:
        """Count one failure. True when the notice is now set aside (to be marked queued)."""
        text = f"{type(error).__name__}: {error}"[:500]
        row = self.db.conn.execute("SELECT attempts FROM notice_failures WHERE game = ? AND notice_id = ?",
                                   [game, notice.id]).fetchone()
        attempts = (int(row[0]) if row else 0) + 1
        give_up = attempts >= NOTICE_ATTEMPTS
        with transaction(self.db):
            self.db.conn.execute(
                "INSERT INTO notice_failures (game, notice_id, attempts, retry_at, last_error, set_aside_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(game, notice_id) DO UPDATE SET attempts = excluded.attempts,"
                " retry_at = excluded.retry_at, last_error = excluded.last_error, set_aside_at = excluded.set_aside_at",
                [game, notice.id, attempts, self.clock() + FIRST_RETRY * 2.0 ** (attempts - 1), text,
                 self.clock() if give_up else None])
            if give_up:
                self._alert(game, notice, attempts, text)
        if give_up:
            log.error("notice %s of %s failed %d times; set aside and the keeper alerted", notice.id, game, attempts)
        else:
            log.warning("notice %s of %s failed (attempt %d of %d); trying again later",
                        notice.id, game, attempts, NOTICE_ATTEMPTS)
        return give_up

    def _alert(self, game: str, notice: Notice, attempts: int, error: str) -> None:
        if not self.config.master_address:
            log.warning("notice %s of %s set aside: no master_address configured, so nobody is told", notice.id, game)
            return
        rendered = Reports().render("keeper_notice_set_aside.j2", game=game, notice_id=notice.id, kind=notice.kind,
                                    recipient=notice.recipient, attempts=attempts, error=error)
        outgoing.send(self.db, self.config, rendered, key=f"notice-set-aside:{game}:{notice.id}",
                      to=[self.config.master_address])

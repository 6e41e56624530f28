"""A limit on wrong passwords per account, so that a password cannot be guessed by mail.

After `LIMIT` wrong passwords for one account within `WINDOW` seconds, passwords for it are not
checked until the oldest of those failures leaves the window. The player can still answer the
judge's mail: the secret reply address needs no password.
"""
from __future__ import annotations

import time

import sqlite_utils

from .dispatch_store import prepare

LIMIT = 8
WINDOW = 3600.0


class PasswordGuard:
    def __init__(self, db: sqlite_utils.Database, *, clock=time.time) -> None:
        self.db = db
        self.clock = clock
        prepare(db)

    def recent_failures(self, account: str) -> int:
        return self.db.execute("SELECT count(*) FROM password_failures WHERE account = ? AND at > ?",
                               [account, self.clock() - WINDOW]).fetchone()[0]

    def locked(self, account: str) -> bool:
        return self.recent_failures(account) >= LIMIT

    def failed(self, account: str, sender: str) -> bool:
        """Record a wrong password. True when this one reached the limit (time to tell someone)."""
        now = self.clock()
        with self.db.conn:
            self.db.conn.execute("DELETE FROM password_failures WHERE at <= ?", [now - WINDOW])
            self.db.conn.execute("INSERT INTO password_failures (account, at, sender) VALUES (?, ?, ?)",
                                 [account, now, sender])
        return self.recent_failures(account) == LIMIT

"""The dispatcher's tables in judge.sqlite (component "dispatch"), migrated like every other part.

- reply_tokens: the secret reply addresses (judge.mail.tokens).
- dispatch_steps: which commands that must not run twice (PROCESS, PAUSE, ...) already ran for an
  inbound message, and what they answered, so a message dispatched again after a crash repeats
  the answer instead of the deed.
- password_failures: wrong passwords per account, so that guessing one is soon refused.
"""
from __future__ import annotations

import json
import time

import sqlite_utils

from ..storage.db import migrate

COMPONENT = "dispatch"


def _create_reply_tokens(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE reply_tokens (
            token TEXT PRIMARY KEY,             -- the secret in judge+<token>@domain
            account TEXT NOT NULL,
            game TEXT NOT NULL,                 -- '' for mail about no game in particular
            created_at REAL NOT NULL,
            UNIQUE (account, game)
        )""")


def _create_dispatch_steps(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE dispatch_steps (
            inbound_id INTEGER NOT NULL,        -- the archived message
            item INTEGER NOT NULL,              -- the command's place in the message
            answer TEXT NOT NULL,               -- JSON list of lines told to the player
            done_at REAL NOT NULL,
            PRIMARY KEY (inbound_id, item)
        )""")


def _create_password_failures(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE password_failures (
            account TEXT NOT NULL,
            at REAL NOT NULL,                   -- unix time of the wrong password
            sender TEXT NOT NULL                -- the address it came from
        )""")
    db.execute("CREATE INDEX password_failures_recent ON password_failures(account, at)")


MIGRATIONS = [_create_reply_tokens, _create_dispatch_steps, _create_password_failures]


def prepare(db: sqlite_utils.Database) -> None:
    migrate(db, COMPONENT, MIGRATIONS)


class StepLog:
    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db
        prepare(db)

    def answer(self, inbound_id: int, item: int) -> list[str] | None:
        row = self.db.execute("SELECT answer FROM dispatch_steps WHERE inbound_id = ? AND item = ?",
                              [inbound_id, item]).fetchone()
        return json.loads(row[0]) if row else None

    def record(self, inbound_id: int, item: int, answer: list[str]) -> None:
        with self.db.conn:
            self.db.conn.execute("INSERT OR IGNORE INTO dispatch_steps (inbound_id, item, answer, done_at) "
                                 "VALUES (?, ?, ?, ?)", [inbound_id, item, json.dumps(answer), time.time()])

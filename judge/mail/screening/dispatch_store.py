"""The dispatcher's tables in judge.sqlite (component "dispatch"), migrated like every other part.

- reply_tokens: the secret reply addresses (judge.mail.screening.tokens).
- dispatch_steps: which commands that must not run twice (PROCESS, PAUSE, ...) already ran for an
  inbound message, and what they answered, so a message dispatched again after a crash repeats
  the answer instead of the deed.
- password_failures: (no longer written; kept so old data directories migrate in order.)
- guard_failures: wrong passwords, one row per account and per source they came from (peer IP,
  envelope sender, From), for judge.mail.screening.password_guard's backoff.
- guard_told: when an account's owner was last told of wrong passwords (at most one mail an hour).
- applied_messages: what identifies each message that was applied (its normalised Message-ID, the
  hash of its body with its sender): a copy arriving again, whatever headers it gained, is not
  applied twice (judge.mail.screening.replays).
- dispatched: messages whose handling finished, with what was done, and when their raw copy was
  scrubbed of passwords: a dispatch after a crash after the scrub repeats the outcome.
"""
from __future__ import annotations

import json
import time

import sqlite_utils

from ...storage.db import Schema, create_table, migrate, transaction

COMPONENT = "dispatch"


def _create_reply_tokens(db: sqlite_utils.Database) -> None:
    # Raw SQL: the table API writes no UNIQUE constraint.
    db.execute("""
        CREATE TABLE reply_tokens (
            token TEXT PRIMARY KEY,             -- the secret in judge+<token>@domain
            account TEXT NOT NULL,
            game TEXT NOT NULL,                 -- '' for mail about no game in particular
            created_at REAL NOT NULL,
            UNIQUE (account, game)
        )""")


def _create_dispatch_steps(db: sqlite_utils.Database) -> None:
    # inbound_id: the archived message; item: the command's place in it; answer: JSON list of lines told
    create_table(db, "dispatch_steps", {"inbound_id": int, "item": int, "answer": str, "done_at": float},
                 pk=("inbound_id", "item"))


def _create_password_failures(db: sqlite_utils.Database) -> None:
    # at: unix time of the wrong password; sender: the address it came from
    create_table(db, "password_failures", {"account": str, "at": float, "sender": str}, pk=None)
    db.table("password_failures").create_index(["account", "at"], index_name="password_failures_recent")


def _create_guard_failures(db: sqlite_utils.Database) -> None:
    # subject: 'account:<name>', 'peer:<ip>', 'envelope:<addr>', 'from:<addr>' or 'from:<addr> at <ip>';
    # at: unix time of the wrong password
    create_table(db, "guard_failures", {"subject": str, "at": float}, pk=None)
    db.table("guard_failures").create_index(["subject", "at"], index_name="guard_failures_recent")
    # at: when the account's owner was last told of wrong passwords
    create_table(db, "guard_told", {"account": str, "at": float}, pk="account")


def _create_applied_messages(db: sqlite_utils.Database) -> None:
    # key: 'mid:<message-id>' or 'body:<sha256>'; inbound_id: the first message that had it
    create_table(db, "applied_messages", {"key": str, "inbound_id": int, "at": float}, pk="key")
    # outcome: what the dispatcher answered the daemon; scrubbed_at: when the raw copy lost its passwords
    create_table(db, "dispatched", {"inbound_id": int, "outcome": str, "scrubbed_at": float}, pk="inbound_id")


def _current(db: sqlite_utils.Database) -> None:
    """The dispatcher's tables in a new judge file, as the steps above leave them."""
    for step in MIGRATIONS:       # no table has changed since its step made it
        step(db)


MIGRATIONS = [_create_reply_tokens, _create_dispatch_steps, _create_password_failures, _create_guard_failures,
              _create_applied_messages]
SCHEMA = Schema(COMPONENT, MIGRATIONS, current=_current)


def prepare(db: sqlite_utils.Database) -> None:
    migrate(db, SCHEMA)


class StepLog:
    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db
        prepare(db)

    def answer(self, inbound_id: int, item: int) -> list[str] | None:
        row = self.db.execute("SELECT answer FROM dispatch_steps WHERE inbound_id = ? AND item = ?",
                              [inbound_id, item]).fetchone()
        return json.loads(row[0]) if row else None

    def record(self, inbound_id: int, item: int, answer: list[str]) -> None:
        with transaction(self.db):
            self.db.conn.execute("INSERT OR IGNORE INTO dispatch_steps (inbound_id, item, answer, done_at) "
                                 "VALUES (?, ?, ?, ?)", [inbound_id, item, json.dumps(answer), time.time()])


def finished(db: sqlite_utils.Database, inbound_id: int) -> str | None:
    """What dispatching this message did, if it finished (and its raw copy was scrubbed)."""
    prepare(db)
    row = db.execute("SELECT outcome FROM dispatched WHERE inbound_id = ?", [inbound_id]).fetchone()
    return row[0] if row else None


def mark_finished(db: sqlite_utils.Database, inbound_id: int, outcome: str) -> None:
    """Inside the caller's transaction, with the scrub of the raw copy."""
    db.conn.execute("INSERT OR IGNORE INTO dispatched (inbound_id, outcome, scrubbed_at) VALUES (?, ?, ?)",
                    [inbound_id, outcome, time.time()])

"""SMTP intake's spool: arrivals committed to a small SQLite file of their own before the 250.

Why a file of its own: judge.sqlite's write lock is held for a whole mail's dispatch, and its
archive keeps de-duplication indexes; a 250 that waited for those would wait tens of milliseconds.
The spool has no index but its key's and nobody else writes it, so its commit is one append and
one fsync. `Archive.drain_spool` then moves the rows into the archive (de-duplicated there) exactly
once: each archive row records its spool key, and spool rows are deleted only after the archive's
commit, so a crash in between leaves rows the next drain recognises and deletes without inserting.

Only intake's archive thread uses a `Spool` (one connection, never shared between threads).
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ..storage.db import Schema, migrate, open_db, synchronous, transaction
from .archive import Arrival, content_hash, message_id_of

COMPONENT = "spool"
FILE_NAME = "spool.sqlite"


def spool_path(archive_path: str | Path) -> Path:
    """The spool beside the judge file it drains into (<data>/spool.sqlite)."""
    return Path(archive_path).with_name(FILE_NAME)


def _create_spooled(db: sqlite_utils.Database) -> None:
    # Raw SQL: the key's UNIQUE is the only index (a repeated random key must fail, not pass).
    db.execute("""
        CREATE TABLE spooled (
            id INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused: the 250's numbers keep rising
            key TEXT NOT NULL UNIQUE,           -- random; the archive row records it (exactly once)
            received_at REAL NOT NULL,          -- unix time of the spool's commit (the 250)
            via TEXT NOT NULL,
            peer TEXT,
            mail_from TEXT,
            rcpt_tos TEXT NOT NULL,             -- JSON list of envelope recipients
            message_id TEXT,                    -- read at intake: a message that cannot be read gets 554, not 250
            content_hash TEXT NOT NULL,
            raw BLOB NOT NULL
        )""")


SCHEMA = Schema(COMPONENT, [_create_spooled], current=_create_spooled)


@dataclass(frozen=True)
class Spooled:
    """An arrival committed to the spool: its number there (the 250's) and its key."""
    id: int
    key: str
    received_at: float


class Spool:
    def __init__(self, path: str | Path, *, synchronous: str = "FULL", clock=time.time):
        self.path = Path(path)
        self.db = open_db(self.path, synchronous=synchronous)
        migrate(self.db, SCHEMA)
        self.clock = clock

    def close(self) -> None:
        self.db.conn.close()

    def add_many(self, arrivals: list[Arrival]) -> list[Spooled | Exception]:
        """Commit the arrivals in one transaction; when this returns each `Spooled` may be acknowledged.
        An arrival whose Message-ID cannot be read comes back as its exception (not stored: 554)."""
        now = self.clock()
        rows: list[tuple] = []
        outcomes: list[Spooled | Exception | None] = []
        # Each row's random key: the batch's 16 random bytes, then the row's place in it. (One draw from
        # the system's randomness: each is a system call that lets go of the interpreter's lock, which
        # the event loop then holds while this commit, and every 250 in it, waits to take it back.)
        batch = secrets.token_hex(16)
        for n, a in enumerate(arrivals):
            try:
                mid, digest = message_id_of(a.raw), content_hash(a.raw)
            except Exception as e:   # noqa: BLE001 - the caller answers 554: the same bytes fail the same way
                outcomes.append(e)
                continue
            outcomes.append(None)
            rows.append((f"{batch}.{n}", now, a.via, a.peer, a.mail_from, json.dumps(list(a.rcpt_tos)),
                         mid, digest, a.raw))
        ids: list[int] = []
        if rows:
            # One statement, its own transaction: committed (FULL) when it returns. Not `RETURNING`: that
            # steps once per row, and each step hands the interpreter's lock to the event loop and back.
            # This file's one writer numbers the rows max + 1 in turn (AUTOINCREMENT): the last one's
            # number gives them all.
            values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(rows))
            last = self.db.conn.execute(
                "INSERT INTO spooled (key, received_at, via, peer, mail_from, rcpt_tos, message_id, content_hash,"
                f" raw) VALUES {values}", [p for row in rows for p in row]).lastrowid
            assert last is not None
            ids = list(range(last - len(rows) + 1, last + 1))
        made = iter(zip(ids, rows))
        return [outcome if outcome is not None else _spooled(*next(made)) for outcome in outcomes]

    def forget_through(self, last: int) -> None:
        """Delete the rows up to number `last`, once the archive has them (judge.mail.spool_drain). NORMAL
        sync is enough: a delete lost in a crash only leaves rows the archive already has, which the
        next drain skips (their keys are there) and deletes again."""
        with synchronous(self.db, "NORMAL"), transaction(self.db):
            self.db.conn.execute("DELETE FROM spooled WHERE id <= ?", [last])

    def count(self) -> int:
        return self.db.conn.execute("SELECT count(*) FROM spooled").fetchone()[0]


def _spooled(id_: int, row: tuple) -> Spooled:
    return Spooled(id_, row[0], row[1])

"""The inbound archive: every message the judge accepts, raw, in the judge file (component "mail").

Intake calls `store` and acknowledges (SMTP 250, IMAP \\Seen) only after it returns: the row is
committed with FULL sync by then. Processing works from this table alone. A redelivered message
(the same Message-ID and the same content, whatever trace headers relays added) is recorded as a
duplicate of the first copy and is never handed out for processing.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from ...storage.db import Schema, create_table, durable, migrate, open_db, synchronous, transaction, write_statement
from . import spool_drain
from .message_keys import content_hash, message_id_of
from .reading_policy import READING

if TYPE_CHECKING:
    from .spool_drain import SpoolReader

COMPONENT = "mail"



def _create_inbound(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE inbound (
            id INTEGER PRIMARY KEY,
            received_at REAL NOT NULL,          -- unix time the judge committed it
            via TEXT NOT NULL,                  -- smtp, lmtp or imap
            peer TEXT,                          -- client address, or the IMAP server and UID
            mail_from TEXT,                     -- envelope sender; '' is the null sender
            rcpt_tos TEXT NOT NULL,             -- JSON list of envelope recipients
            message_id TEXT,                    -- the Message-ID header, without <>
            content_hash TEXT NOT NULL,         -- sha256 of the message without trace headers
            raw BLOB NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('new', 'claimed', 'processed', 'failed', 'duplicate')),
            duplicate_of INTEGER REFERENCES inbound(id),
            claimed_at REAL,
            processed_at REAL,
            outcome TEXT                        -- what processing did, in words
        )""")
    # Only one first copy per (Message-ID, content); later copies point at it.
    db.execute("""CREATE UNIQUE INDEX inbound_first_copy ON inbound(ifnull(message_id, ''), content_hash)
                  WHERE duplicate_of IS NULL""")
    db.execute("CREATE INDEX inbound_pending ON inbound(state, id) WHERE state IN ('new', 'claimed')")


def _create_address_status(db: sqlite_utils.Database) -> None:
    # address: lower-cased for lookup only
    create_table(db, "address_status", {"address": str, "failing": int, "bounces": int, "last_bounce_at": float,
                                        "last_diagnostic": str, "last_inbound_id": int}, pk="address",
                 nullable={"last_bounce_at", "last_diagnostic", "last_inbound_id"},
                 foreign_keys=[("last_inbound_id", "inbound", "id")])


def _add_retries(db: sqlite_utils.Database) -> None:
    """A message whose processing failed waits (state 'new', retry_at) and is tried again a few times."""
    db.table("inbound").add_column("attempts", int, not_null_default=0)
    db.table("inbound").add_column("retry_at", float)


def _add_spool_key(db: sqlite_utils.Database) -> None:
    """A message drained from intake's spool (judge.mail.intake.spool) records its spool key: drained once."""
    db.table("inbound").add_column("spool_key", str)
    db.execute("CREATE UNIQUE INDEX inbound_spool_key ON inbound(spool_key) WHERE spool_key IS NOT NULL")


def _current(db: sqlite_utils.Database) -> None:
    """The archive in a new judge file, as the steps above leave it."""
    # Raw SQL: the table API writes no CHECK, no expression index and no partial index.
    db.executescript("""
        CREATE TABLE inbound (
            id INTEGER PRIMARY KEY, received_at REAL NOT NULL, via TEXT NOT NULL, peer TEXT, mail_from TEXT,
            rcpt_tos TEXT NOT NULL, message_id TEXT, content_hash TEXT NOT NULL, raw BLOB NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('new', 'claimed', 'processed', 'failed', 'duplicate')),
            duplicate_of INTEGER REFERENCES inbound(id), claimed_at REAL, processed_at REAL, outcome TEXT,
            attempts INTEGER NOT NULL DEFAULT 0, retry_at REAL, spool_key TEXT
        );
        CREATE UNIQUE INDEX inbound_first_copy ON inbound(ifnull(message_id, ''), content_hash)
            WHERE duplicate_of IS NULL;
        CREATE INDEX inbound_pending ON inbound(state, id) WHERE state IN ('new', 'claimed');
        CREATE UNIQUE INDEX inbound_spool_key ON inbound(spool_key) WHERE spool_key IS NOT NULL;
    """)
    _create_address_status(db)


MIGRATIONS = [_create_inbound, _create_address_status, _add_retries, _add_spool_key]
SCHEMA = Schema(COMPONENT, MIGRATIONS, current=_current)


@dataclass(frozen=True)
class Arrival:
    """A message as intake received it, before it is stored."""
    raw: bytes
    mail_from: str | None
    rcpt_tos: tuple[str, ...]
    via: str
    peer: str | None = None


@dataclass(frozen=True)
class StoredMessage:
    id: int
    raw: bytes
    mail_from: str | None
    rcpt_tos: tuple[str, ...]
    via: str
    peer: str | None
    message_id: str | None
    content_hash: str
    received_at: float
    duplicate_of: int | None = None

    @property
    def is_duplicate(self) -> bool:
        return self.duplicate_of is not None

    def parsed(self) -> Message:
        """The mail read with policy.default's answers, at less cost (reading_policy)."""
        return message_from_bytes(self.raw, policy=READING)


def _insert_sql(count: int) -> str:
    """One INSERT for `count` messages, each row read from its 9 parameters (received_at, via, peer,
    mail_from, rcpt_tos, message_id, content_hash, raw, spool_key). A redelivery (the same Message-ID
    and content as a first copy already stored) points at that first copy and keeps its bytes: once those
    are scrubbed of passwords (replace_raw), the redelivery holds none either. The rows come back with
    their ids (in no set order: matched by Message-ID and content, unique within one statement)."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * count)
    return f"""
        WITH arriving(received_at, via, peer, mail_from, rcpt_tos, message_id, content_hash, raw, spool_key)
             AS (VALUES {values})
        INSERT INTO inbound (received_at, via, peer, mail_from, rcpt_tos, message_id, content_hash, raw, state,
                             duplicate_of, outcome, spool_key)
        SELECT a.received_at, a.via, a.peer, a.mail_from, a.rcpt_tos, a.message_id, a.content_hash,
               ifnull(first.raw, a.raw), CASE WHEN first.id IS NULL THEN 'new' ELSE 'duplicate' END, first.id,
               'redelivery of #' || first.id || '; not processed again', a.spool_key
        FROM arriving AS a LEFT JOIN inbound AS first
             ON ifnull(first.message_id, '') = ifnull(a.message_id, '') AND first.content_hash = a.content_hash
                AND first.duplicate_of IS NULL
        RETURNING id, message_id, content_hash, duplicate_of"""


class Archive:
    """One connection to the judge file. Not shared between threads at the same time."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL", clock: Callable[[], float] = time.time,
                 db: sqlite_utils.Database | None = None):
        """`db`: a connection to this file that another part owns and closes (the daemon's worker
        shares its games service's, so a mail is handled on one connection in one transaction)."""
        self.path = Path(path)
        self._owned = db is None
        self.db = open_db(self.path, synchronous=synchronous) if db is None else db
        migrate(self.db, SCHEMA)
        self.clock = clock

    def close(self) -> None:
        if self._owned:
            self.db.conn.close()

    def store(self, raw: bytes, *, mail_from: str | None, rcpt_tos: list[str] | tuple[str, ...],
              via: str, peer: str | None = None) -> StoredMessage:
        """Commit the raw message; when this returns, the message may be acknowledged."""
        return self.store_many([Arrival(raw, mail_from, tuple(rcpt_tos), via, peer)])[0]

    def store_many(self, arrivals: list[Arrival]) -> list[StoredMessage]:
        """Commit several messages at once (one fsync: intake's group commit); when this returns, every
        one of them may be acknowledged. Later ones may be redeliveries of earlier ones."""
        now = self.clock()
        rows = [(now, a.via, a.peer, a.mail_from, json.dumps(list(a.rcpt_tos)), message_id_of(a.raw),
                 content_hash(a.raw), a.raw, None) for a in arrivals]
        made = self._insert_all(rows)
        return [StoredMessage(id_, a.raw, a.mail_from, a.rcpt_tos, a.via, a.peer, row[5], row[6], now, first)
                for a, row, (id_, first) in zip(arrivals, rows, made, strict=True)]

    def _insert_all(self, rows: Sequence[tuple[object, ...]]) -> list[tuple[int, int | None]]:
        if len({(row[5] or "", row[6]) for row in rows}) == len(rows):
            # One statement for the whole batch, its own transaction (or the caller's): committed (with the
            # connection's sync, FULL for intake) as its last row is read, before this returns.
            return self._insert(rows)
        with transaction(self.db):      # a redelivery within the batch must find its first copy: row by row
            return [id_and_first for row in rows for id_and_first in self._insert([row])]

    def drain_spool(self, reader: SpoolReader) -> list[StoredMessage]:
        """Move intake's spooled messages into the archive exactly once, de-duplicated as `store_many`
        does, and delete the segments read whole (judge.mail.intake.spool_drain). Returns the messages it stored."""
        stored: list[StoredMessage] = []
        while True:
            moved = spool_drain.move(self.db, reader)
            stored += [self.get(id_) for id_ in range(moved.first, moved.last + 1)]
            if not moved.more:
                return stored

    def _insert(self, rows: Sequence[tuple[object, ...]]) -> list[tuple[int, int | None]]:
        """Insert rows whose (Message-ID, content) differ; their (id, first copy's id) in their order."""
        returned = self.db.conn.execute(_insert_sql(len(rows)), [p for row in rows for p in row]).fetchall()
        made = {(mid or "", digest): (id_, first) for id_, mid, digest, first in returned}
        return [made[(row[5] or "", row[6])] for row in rows]

    def release_claims(self) -> int:
        """At start-up: messages claimed by a judge that stopped before finishing them are pending again."""
        with transaction(self.db):
            return self.db.conn.execute(
                "UPDATE inbound SET state = 'new', claimed_at = NULL WHERE state = 'claimed'").rowcount

    def claim_next(self) -> StoredMessage | None:
        """The oldest unprocessed message, marked claimed so no second worker takes it."""
        now = self.clock()
        row = write_statement(   # found and claimed in one statement (a transaction of its own, or the caller's)
            self.db, "UPDATE inbound SET state = 'claimed', claimed_at = ? WHERE id = (SELECT id FROM inbound"
            " WHERE state = 'new' AND (retry_at IS NULL OR retry_at <= ?) ORDER BY id LIMIT 1) RETURNING id",
            [now, now]).rows
        return self.get(row[0][0]) if row else None

    def mark_processed(self, message_id: int, outcome: str) -> None:
        """With FULL sync whatever the connection's setting: what handling the message wrote is on disk.
        Inside the caller's transaction (the daemon's, from the claim on), it commits with that."""
        with synchronous(self.db, "FULL"):
            updated = write_statement(
                self.db, "UPDATE inbound SET state = 'processed', processed_at = ?, outcome = ? "
                "WHERE id = ? AND state = 'claimed'", [self.clock(), outcome, message_id]).count
        if updated != 1:
            raise RuntimeError(f"inbound message #{message_id} was not claimed; refusing to mark it processed")

    def retry_later(self, message_id: int, error: str, delay: float) -> int:
        """Processing raised: pending again after `delay` seconds. Returns the attempts made so far."""
        with transaction(self.db):
            self.db.conn.execute(
                "UPDATE inbound SET state = 'new', claimed_at = NULL, attempts = attempts + 1, retry_at = ?,"
                " outcome = ? WHERE id = ? AND state IN ('new', 'claimed')",     # (new: its claim rolled back)
                [self.clock() + delay, error, message_id])
        return self.attempts_of(message_id)

    def attempts_of(self, message_id: int) -> int:
        row = self.db.conn.execute("SELECT attempts FROM inbound WHERE id = ?", [message_id]).fetchone()
        if row is None:
            raise KeyError(message_id)
        return int(row[0])

    def mark_failed(self, message_id: int, error: str) -> None:
        """Processing kept failing: set aside with the error for the judge's keeper, not retried in a loop."""
        with durable(self.db):
            self.db.conn.execute(
                "UPDATE inbound SET state = 'failed', processed_at = ?, outcome = ?, attempts = attempts + 1"
                " WHERE id = ? AND state IN ('new', 'claimed')", [self.clock(), error, message_id])

    def get(self, message_id: int) -> StoredMessage:
        row = self.db.conn.execute(
            "SELECT id, raw, mail_from, rcpt_tos, via, peer, message_id, content_hash, received_at, duplicate_of"
            " FROM inbound WHERE id = ?", [message_id]).fetchone()
        if row is None:
            raise KeyError(message_id)
        return StoredMessage(row[0], bytes(row[1]), row[2], tuple(json.loads(row[3])), row[4], row[5], row[6],
                             row[7], row[8], row[9])

    def state_of(self, message_id: int) -> tuple[str, str | None]:
        row = self.db.conn.execute("SELECT state, outcome FROM inbound WHERE id = ?", [message_id]).fetchone()
        if row is None:
            raise KeyError(message_id)
        return row[0], row[1]

    def counts(self) -> dict[str, int]:
        return dict(self.db.conn.execute("SELECT state, count(*) FROM inbound GROUP BY state").fetchall())

    def record_bounce(self, address: str, diagnostic: str | None, inbound_id: int) -> None:
        """Mark an address failing: the judge's mail to it came back. The same bounce counts once."""
        with transaction(self.db):
            self.db.conn.execute(
                "INSERT INTO address_status (address, failing, bounces, last_bounce_at, last_diagnostic,"
                " last_inbound_id) VALUES (?, 1, 1, ?, ?, ?) ON CONFLICT(address) DO UPDATE SET failing = 1,"
                " bounces = bounces + (last_inbound_id IS NOT excluded.last_inbound_id),"
                " last_bounce_at = excluded.last_bounce_at,"
                " last_diagnostic = excluded.last_diagnostic, last_inbound_id = excluded.last_inbound_id",
                [address.lower(), self.clock(), diagnostic, inbound_id],
            )

    def is_failing(self, address: str) -> bool:
        row = self.db.conn.execute("SELECT failing FROM address_status WHERE address = ?",
                                   [address.lower()]).fetchone()
        return bool(row and row[0])

    def clear_failing(self, address: str) -> None:
        clear_failing(self.db, address)


def replace_raw(db: sqlite_utils.Database, message_id: int, raw: bytes) -> None:
    """Rewrite a handled message's stored copy, and its redeliveries', e.g. with its passwords masked.
    The caller holds the transaction (so the rewrite and what records it commit together). The
    Message-ID and content hash stay those of the copy as received: a redelivery is still known.
    secure_delete: the old bytes are overwritten in the file, not left in its free pages."""
    db.conn.execute("PRAGMA secure_delete = ON")
    # the redeliveries are found by a small index made here once (not a migration: only this needs it)
    db.conn.execute("CREATE INDEX IF NOT EXISTS inbound_redeliveries ON inbound(duplicate_of) "
                    "WHERE duplicate_of IS NOT NULL")
    db.conn.execute("UPDATE inbound SET raw = ? WHERE id = ?", [raw, message_id])
    db.conn.execute("UPDATE inbound SET raw = ? WHERE duplicate_of = ?", [raw, message_id])


def clear_failing(db: sqlite_utils.Database, address: str) -> None:
    """The address worked again (for example its owner wrote to the judge from it)."""
    write_statement(db, "UPDATE address_status SET failing = 0 WHERE address = ?", [address.lower()])

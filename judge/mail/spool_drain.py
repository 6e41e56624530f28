"""Intake's spool moved into the archive by SQLite itself: the spool file attached to the archive's
connection, one `INSERT ... SELECT` from it (row by row when a drain holds a redelivery of its own
message).

Why in SQL: the drain runs in the judge's process beside the event loop that answers SMTP. Read into
Python and written back row by row, a drain cost the loop about as much CPU as the SMTP exchange
itself, most of it in handing the interpreter's lock (GIL) back and forth: Python's sqlite3 lets go
of it for every row it steps. Here a drain steps a handful of statements whatever its size.

Exactly once, as before: each archive row records its spool key (a unique index); a spool row whose
key the archive has is skipped, not inserted again; the spool rows are deleted only after the
archive's durable commit, by the spool's own writer, up to the highest row number this drain saw.
Rows are numbered in commit order by one writer, so every row up to that number was in the drain's
snapshot of the spool and is in the archive now.

De-duplication, as `Archive.store_many` does it: a message with the Message-ID and content of a first
copy already stored is recorded as its redelivery, keeping the first copy's bytes. One statement
stores the first copy of each (Message-ID, content) in the drain, finding any earlier copy in the
archive. If rows are left (a redelivery of a message in the same drain, which the statement cannot
see: SQLite reads its rows before it inserts any), that statement is undone and the rows are stored
one by one, so that each finds its first copy and the archive's numbers keep the order of arrival.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ..storage.db import durable

SCHEMA_NAME = "intake_spool"     # the attached spool's name on the archive's connection

# (the rows not yet in the archive, each with its copy number among the same Message-ID and content; the
# numbering sorts only these columns, not the raw bytes, which are read by row number afterwards)
_FRESH = f"""
    SELECT s.id, row_number() OVER (PARTITION BY ifnull(s.message_id, ''), s.content_hash ORDER BY s.id) AS copy
    FROM {SCHEMA_NAME}.spooled AS s
    WHERE NOT EXISTS (SELECT 1 FROM main.inbound AS i WHERE i.spool_key = s.key)"""


_INSERT = """
    INSERT INTO main.inbound (received_at, via, peer, mail_from, rcpt_tos, message_id, content_hash, raw, state,
                              duplicate_of, outcome, spool_key)
    SELECT a.received_at, a.via, a.peer, a.mail_from, a.rcpt_tos, a.message_id, a.content_hash,
           ifnull(first.raw, a.raw), CASE WHEN first.id IS NULL THEN 'new' ELSE 'duplicate' END, first.id,
           'redelivery of #' || first.id || '; not processed again', a.key"""
_FIRST_COPY_OF = """
    LEFT JOIN main.inbound AS first
         ON ifnull(first.message_id, '') = ifnull(a.message_id, '') AND first.content_hash = a.content_hash
            AND first.duplicate_of IS NULL"""
# every first copy of the drain, in the order of arrival
_FIRST_COPIES = f"""{_INSERT}
    FROM ({_FRESH}) AS fresh JOIN {SCHEMA_NAME}.spooled AS a ON a.id = fresh.id {_FIRST_COPY_OF}
    WHERE fresh.copy = 1
    ORDER BY a.id"""
# one row, by its number in the spool
_ONE = f"""{_INSERT}
    FROM {SCHEMA_NAME}.spooled AS a {_FIRST_COPY_OF}
    WHERE a.id = ? AND NOT EXISTS (SELECT 1 FROM main.inbound AS i WHERE i.spool_key = a.key)"""
_FRESH_IDS = f"SELECT id FROM ({_FRESH}) ORDER BY id"


@dataclass(frozen=True)
class Moved:
    """What one drain did. `through`: the spool's rows up to this number are in the archive (None: the
    spool was empty); `first`..`last`: the archive's rows it stored (none when last < first), first
    copies in arrival order, then any redeliveries of those; `redeliveries`: (row, first copy's row)."""
    through: int | None
    first: int
    last: int
    redeliveries: tuple[tuple[int, int], ...] = ()

    @property
    def count(self) -> int:
        return max(0, self.last - self.first + 1)


def attach(db: sqlite_utils.Database, spool_file: Path) -> None:
    """The spool file (a resolved path) attached to this connection, once (outside a transaction)."""
    conn = db.conn
    attached = {name: file for _, name, file in conn.execute("PRAGMA database_list")}
    if attached.get(SCHEMA_NAME) == str(spool_file):
        return
    if SCHEMA_NAME in attached:
        conn.execute(f"DETACH DATABASE {SCHEMA_NAME}")
    conn.execute(f"ATTACH DATABASE ? AS {SCHEMA_NAME}", [str(spool_file)])


def move(db: sqlite_utils.Database, spool_file: Path) -> Moved:
    """Move every spooled row into the archive of `db` in one durable transaction (`spool_file`: a
    resolved path). The caller deletes the spool's rows up to `Moved.through` afterwards, on the
    spool's writer."""
    attach(db, spool_file)
    conn = db.conn
    # Deferred: BEGIN IMMEDIATE would start a write on every attached file, the spool's too, and make
    # intake's commits wait; here the first INSERT takes the archive's lock alone and only reads the spool.
    with durable(db, deferred=True):
        conn.execute("SAVEPOINT spool_drain")
        stored = conn.execute(_FIRST_COPIES).rowcount       # (a write first: the archive's lock taken)
        if conn.execute(f"{_FRESH_IDS} LIMIT 1").fetchone():
            # redeliveries of messages in this drain: all stored again, row by row, in order
            conn.execute("ROLLBACK TO spool_drain")
            stored = sum(conn.execute(_ONE, [id_]).rowcount for id_ in
                         [id_ for (id_,) in conn.execute(_FRESH_IDS)])
        conn.execute("RELEASE spool_drain")
        # (the same snapshot of the spool as the INSERTs read: it lasts until the commit)
        through = conn.execute(f"SELECT max(id) FROM {SCHEMA_NAME}.spooled").fetchone()[0]
        last = conn.execute("SELECT last_insert_rowid()").fetchone()[0] if stored else 0
        first = last - stored + 1       # (one writer, rows numbered max + 1 in turn: consecutive)
        redeliveries = tuple(conn.execute(
            "SELECT id, duplicate_of FROM main.inbound WHERE id BETWEEN ? AND ? AND duplicate_of IS NOT NULL",
            [first, last]).fetchall()) if stored else ()
    return Moved(through, first, last, redeliveries)

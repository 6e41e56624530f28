"""Intake's spool moved into the archive: the records not yet moved read from the segments
(judge.mail.intake.spool_format), put in a table of the connection's own (TEMP, never synced), and stored
from there by one `INSERT ... SELECT` (row by row when a drain holds a redelivery of its own message).

Why in SQL once read: the drain runs in the judge's process beside the event loop that answers
SMTP, and Python's sqlite3 lets go of the interpreter's lock (GIL) at every row it steps; the loop,
busy with SMTP, takes it each time. The records go into the temporary table in a few multi-row
statements and the archive takes them in one, whatever the drain's size.

Exactly once: each archive row records its spool key (the segment's random token and the record's
number; a unique index), and a record whose key the archive has is skipped, not stored again. A
segment is deleted only after the archive's durable commit holds every record in it, and never the
one being written (`Spool.synced` says how far that one is synced, and the drain reads no further).
A crash between the commit and the delete leaves a segment whose records the next drain skips.
Where it has got to in each segment is kept in memory (`SpoolReader`): after a restart, the drain
begins at each segment's start and the keys do the rest.

De-duplication, as `Archive.store_many` does it: a message with the Message-ID and content of a first
copy already stored is recorded as its redelivery, keeping the first copy's bytes. One statement
stores the first copy of each (Message-ID, content) in the drain, finding any earlier copy in the
archive. If rows are left (a redelivery of a message in the same drain, which the statement cannot
see: SQLite reads its rows before it inserts any), that statement is undone and the rows are stored
one by one, so that each finds its first copy and the archive's numbers keep the order of arrival.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from ...storage.db import durable
from . import spool_format as fmt
from .message_keys import content_hash

log = logging.getLogger("judge.intake")

_COLUMNS = "key, received_at, via, peer, mail_from, rcpt_tos, message_id, content_hash, raw"
_MAKE_TABLE = f"""CREATE TEMP TABLE IF NOT EXISTS spooled (id INTEGER PRIMARY KEY, {_COLUMNS})"""
_CHUNK = 1000       # records a statement fills the table with (9 parameters each; SQLite allows 32,766)
DRAIN_BYTES = 32 << 20      # a drain reads segments until it holds this much mail: a backlog left by a long
                            # stop is taken in by several drains, not all at once into memory

# (the rows not yet in the archive, each with its copy number among the same Message-ID and content; the
# numbering sorts only these columns, not the raw bytes, which are read by row number afterwards)
_FRESH = """
    SELECT s.id, row_number() OVER (PARTITION BY ifnull(s.message_id, ''), s.content_hash ORDER BY s.id) AS copy
    FROM temp.spooled AS s
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
    FROM ({_FRESH}) AS fresh JOIN temp.spooled AS a ON a.id = fresh.id {_FIRST_COPY_OF}
    WHERE fresh.copy = 1
    ORDER BY a.id"""
# one row, by its number in the drain
_ONE = f"""{_INSERT}
    FROM temp.spooled AS a {_FIRST_COPY_OF}
    WHERE a.id = ? AND NOT EXISTS (SELECT 1 FROM main.inbound AS i WHERE i.spool_key = a.key)"""
_FRESH_IDS = f"SELECT id FROM ({_FRESH}) ORDER BY id"


@dataclass(frozen=True)
class Moved:
    """What one drain did. `through`: the highest spool number it read (None: nothing to read);
    `first`..`last`: the archive's rows it stored (none when last < first), first copies in arrival
    order, then any redeliveries of those; `redeliveries`: (row, first copy's row); `more`: it stopped
    at DRAIN_BYTES with segments left to read (the next drain's)."""
    through: int | None
    first: int
    last: int
    redeliveries: tuple[tuple[int, int], ...] = ()
    more: bool = False

    @property
    def count(self) -> int:
        return max(0, self.last - self.first + 1)


@dataclass
class SpoolReader:
    """The drain's side of the spool directory: how far it has read each segment (in memory).
    `writing`: the writer's `synced` (segment, offset), read at each drain; None when no writer runs
    (a segment then may be read whole and deleted)."""
    directory: Path
    writing: Callable[[], tuple[int, int] | None] = lambda: None
    _read_to: dict[int, tuple[int, int]] = field(default_factory=dict)   # segment -> (offset, last number)
    _foreign: set[Path] = field(default_factory=set)    # files named as segments whose head is not one

    def unread(self, limit: int = DRAIN_BYTES) -> tuple[list[fmt.Record], dict[int, tuple[int, int]], list[Path],
                                                        bool]:
        """The records not yet moved, in the order they were spooled, from whole segments until they hold
        `limit` bytes; where each segment is then read to; the segments read whole (to delete once the
        archive has them); whether segments were left for the next drain."""
        current = self.writing()
        records: list[fmt.Record] = []
        read_to: dict[int, tuple[int, int]] = {}
        finished: list[Path] = []
        held = 0
        for number, path in fmt.segments(self.directory):
            if current is not None and number > current[0]:
                break       # (made by the writer after `current` was read: the next drain's)
            if held >= limit:
                return records, read_to, finished, True
            end = current[1] if current is not None and number == current[0] else None
            offset, after = self._read_to.get(number, (fmt.HEAD_SIZE, None))
            with fmt.opened_segment(path) as opened:
                if opened is None:      # (gone meanwhile)
                    continue
                fd, token = opened
                if token is None:
                    if path not in self._foreign:       # (said once, not at every drain)
                        self._foreign.add(path)
                        log.error("intake: %s is not a spool segment; left where it is", path)
                    continue
                found = list(fmt.scan(fd, number, token, start=offset, end=end, after=after))
            records += found
            held += sum(len(r.raw) for r in found)
            if found:
                read_to[number] = (found[-1].end, found[-1].seq)
            if end is None:
                finished.append(path)
        return records, read_to, finished, False

    def has_read(self, place: tuple[int, int]) -> bool:
        """Whether this drain has read segment `place[0]` up to offset `place[1]` (what the writer has synced)."""
        number, offset = place
        return self._read_to.get(number, (fmt.HEAD_SIZE, None))[0] == offset

    def moved(self, read_to: dict[int, tuple[int, int]], finished: list[Path]) -> None:
        """After the archive's commit: remember how far each segment is read, delete those read whole."""
        self._read_to.update(read_to)
        for path in finished:
            path.unlink(missing_ok=True)
            number = fmt.segment_number(path)
            if number is not None:
                self._read_to.pop(number, None)


def move(db: sqlite_utils.Database, reader: SpoolReader, limit: int = DRAIN_BYTES) -> Moved:
    """Move the spooled records not yet moved (whole segments, until they hold `limit` bytes: `Moved.more`
    says when segments are left) into the archive of `db` in one durable transaction, then delete the
    segments read whole. A spool left by an older judge (spool.sqlite) goes first."""
    legacy = reader.directory.with_name(fmt.LEGACY_FILE)
    conn = db.conn
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute(_MAKE_TABLE)
    conn.execute("DELETE FROM temp.spooled")
    if legacy.is_file():
        _load_legacy(db, legacy)
    records, read_to, finished, more = reader.unread(limit)
    for at in range(0, len(records), _CHUNK):
        chunk = records[at:at + _CHUNK]
        values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
        conn.execute(f"INSERT INTO temp.spooled ({_COLUMNS}) VALUES {values}",
                     [v for r in chunk for v in (r.key, r.received_at, r.via, r.peer, r.mail_from, r.rcpt_tos,
                                                r.message_id, content_hash(r.raw), r.raw)])
    try:
        moved = _store(db, through=records[-1].seq if records else None, more=more)
    finally:
        conn.execute("DELETE FROM temp.spooled")
    reader.moved(read_to, finished)
    if legacy.is_file():
        for name in (fmt.LEGACY_FILE, fmt.LEGACY_FILE + "-wal", fmt.LEGACY_FILE + "-shm"):
            legacy.with_name(name).unlink(missing_ok=True)
    return moved


def _store(db: sqlite_utils.Database, through: int | None, more: bool) -> Moved:
    conn = db.conn
    with durable(db):
        conn.execute("SAVEPOINT spool_drain")
        stored = conn.execute(_FIRST_COPIES).rowcount
        if conn.execute(f"{_FRESH_IDS} LIMIT 1").fetchone():
            # redeliveries of messages in this drain: all stored again, row by row, in order
            conn.execute("ROLLBACK TO spool_drain")
            stored = sum(conn.execute(_ONE, [id_]).rowcount for id_ in
                         [id_ for (id_,) in conn.execute(_FRESH_IDS)])
        conn.execute("RELEASE spool_drain")
        last = conn.execute("SELECT last_insert_rowid()").fetchone()[0] if stored else 0
        first = last - stored + 1       # (one writer, rows numbered max + 1 in turn: consecutive)
        redeliveries = tuple(conn.execute(
            "SELECT id, duplicate_of FROM main.inbound WHERE id BETWEEN ? AND ? AND duplicate_of IS NOT NULL",
            [first, last]).fetchall()) if stored else ()
    return Moved(through, first, last, redeliveries, more)


def _load_legacy(db: sqlite_utils.Database, legacy: Path) -> None:
    """The rows of an older judge's spool.sqlite, first (they were acknowledged first)."""
    conn = db.conn
    conn.execute("ATTACH DATABASE ? AS legacy_spool", [str(legacy)])
    try:
        if conn.execute("SELECT 1 FROM legacy_spool.sqlite_master WHERE name = 'spooled'").fetchone():
            conn.execute(f"INSERT INTO temp.spooled ({_COLUMNS})"
                         f" SELECT {_COLUMNS} FROM legacy_spool.spooled ORDER BY id")
    finally:
        conn.execute("DETACH DATABASE legacy_spool")

"""Intake's spool (judge.mail.spool) and its drain into the archive (Archive.drain_spool), on real
SQLite files: every spooled message reaches the archive once, de-duplicated as intake did it before,
whatever point a crash cut the drain at."""
from __future__ import annotations

import dataclasses
import sqlite3

from judge.mail.archive import Archive, Arrival
from judge.mail import spool_drain
from judge.mail.spool import Spool, Spooled


def arrival(n: int, *, message_id: str | None = None, body: str = "help") -> Arrival:
    raw = (f"From: p{n}@players.test\r\nTo: judge@dip.test\r\nMessage-ID: <{message_id or f'm{n}@players.test'}>\r\n"
           f"Subject: {n}\r\n\r\n{body}\r\n").encode()
    return Arrival(raw, f"p{n}@players.test", ("judge@dip.test",), "smtp", "127.0.0.1:2525")


def inbound(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT message_id, state, duplicate_of, spool_key, raw FROM inbound"
                            " ORDER BY id").fetchall()


def copy_of(spool: Spool, path) -> None:
    """A consistent copy of the spool file as it is now (SQLite's backup API)."""
    with sqlite3.connect(path) as target:
        spool.db.conn.backup(target)


def put_back(copy, spool: Spool) -> None:
    with sqlite3.connect(copy) as source:
        source.backup(spool.db.conn)


def test_spooled_messages_reach_the_archive_with_their_bytes_and_the_spool_empties(tmp_path):
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    arrivals = [arrival(n) for n in range(3)]
    spooled = spool.add_many(arrivals)
    assert all(isinstance(s, Spooled) for s in spooled) and spool.count() == 3
    stored = archive.drain_spool(spool)
    assert [s.raw for s in stored] == [a.raw for a in arrivals]
    assert [(m, st, d, k) for m, st, d, k, _ in inbound(tmp_path / "judge.sqlite")] == \
        [(f"m{n}@players.test", "new", None, s.key) for n, s in enumerate(spooled)]
    assert spool.count() == 0 and archive.drain_spool(spool) == []


def test_a_crash_between_the_archive_commit_and_the_spool_delete_does_not_double_a_message(tmp_path):
    """The drain commits the archive, then deletes the spool rows: a crash between leaves rows the
    archive has. Here the spool is put back as it was before the drain (the delete lost); the next
    drain deletes them without storing them again, and stores a row spooled since."""
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    spool.add_many([arrival(1), arrival(2)])
    copy_of(spool, tmp_path / "before-drain.sqlite")
    archive.drain_spool(spool)
    put_back(tmp_path / "before-drain.sqlite", spool)
    assert spool.count() == 2
    spool.add_many([arrival(3)])
    stored = archive.drain_spool(spool)
    assert [s.message_id for s in stored] == ["m3@players.test"]
    assert [m for m, *_ in inbound(tmp_path / "judge.sqlite")] == [f"m{n}@players.test" for n in (1, 2, 3)]
    assert spool.count() == 0


def test_redeliveries_are_recorded_as_before_within_a_drain_and_across_drains(tmp_path):
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    first = arrival(1)
    relayed = dataclasses.replace(first, raw=b"Received: from relay.example\r\n" + first.raw)   # a trace header more
    spool.add_many([first, relayed])
    archive.drain_spool(spool)
    spool.add_many([first])
    archive.drain_spool(spool)
    rows = inbound(tmp_path / "judge.sqlite")
    assert [(st, d) for _, st, d, _, _ in rows] == [("new", None), ("duplicate", 1), ("duplicate", 1)]
    assert len({k for _, _, _, k, _ in rows}) == 3


def test_a_drain_reads_the_spool_without_its_lock_so_intake_commits_meanwhile(tmp_path):
    """The drain only reads the spool (attached to the archive's connection): while intake's writer holds
    the spool's write lock, a drain still moves what was committed, and the rows committed after its
    snapshot stay for the next drain (the delete goes up to the drain's last number). The archive's
    connection waits for no lock here: one it needed would fail the drain at once."""
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    archive.db.conn.execute("PRAGMA busy_timeout=0")
    spool.add_many([arrival(1), arrival(2)])
    writer = sqlite3.connect(tmp_path / "spool.sqlite", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO spooled (key, received_at, via, rcpt_tos, content_hash, raw)"
                   " VALUES ('k-late', 0, 'smtp', '[]', 'h', x'00')")
    try:
        moved = spool_drain.move(archive.db, spool.path.resolve())
    finally:
        writer.execute("COMMIT")
        writer.close()
    assert moved.count == 2 and moved.through == 2
    spool.forget_through(moved.through)
    assert [key for (key,) in spool.db.conn.execute("SELECT key FROM spooled")] == ["k-late"]
    assert [m for m, *_ in inbound(tmp_path / "judge.sqlite")] == ["m1@players.test", "m2@players.test"]


def test_a_drain_repeated_before_its_delete_stores_nothing_twice(tmp_path):
    """Intake's delete runs later, on the spool's writer: a second drain before it finds the same rows,
    skips them (their keys are in the archive) and stores only what came since."""
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    spool.add_many([arrival(1), arrival(2)])
    first = spool_drain.move(archive.db, spool.path.resolve())
    spool.add_many([arrival(3)])
    second = spool_drain.move(archive.db, spool.path.resolve())
    assert (first.count, first.through, second.count, second.through) == (2, 2, 1, 3)
    assert [archive.get(i).message_id for i in range(second.first, second.last + 1)] == ["m3@players.test"]
    spool.forget_through(first.through)
    spool.forget_through(second.through)
    assert spool.count() == 0 and len(inbound(tmp_path / "judge.sqlite")) == 3


def test_a_batch_of_arrivals_gets_distinct_keys_and_numbers_in_order(tmp_path):
    spool = Spool(tmp_path / "spool.sqlite")
    spooled = spool.add_many([arrival(n) for n in range(5)]) + spool.add_many([arrival(9)])
    assert [s.id for s in spooled] == [1, 2, 3, 4, 5, 6]
    assert len({s.key for s in spooled}) == 6
    assert [row for row in spool.db.conn.execute("SELECT id, key FROM spooled ORDER BY id")] == \
        [(s.id, s.key) for s in spooled]


def test_a_drain_holding_a_redelivery_of_its_own_message_keeps_the_order_of_arrival(tmp_path):
    """The archive's numbers are the processing order: a redelivery that arrived between two messages
    gets the number between theirs, and points at the first copy drained with it."""
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    first = arrival(1)
    spool.add_many([first])
    spool.add_many([dataclasses.replace(first, raw=b"Received: from relay.example\r\n" + first.raw)])
    spool.add_many([arrival(3), arrival(4, message_id="m3@players.test", body="other")])
    moved = spool_drain.move(archive.db, spool.path.resolve())
    assert (moved.first, moved.last, moved.redeliveries) == (1, 4, ((2, 1),))
    assert [(m, st, d) for m, st, d, _, _ in inbound(tmp_path / "judge.sqlite")] == [
        ("m1@players.test", "new", None), ("m1@players.test", "duplicate", 1),
        ("m3@players.test", "new", None), ("m3@players.test", "new", None)]

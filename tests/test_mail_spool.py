"""Intake's spool (judge.mail.spool) and its drain into the archive (Archive.drain_spool), on real
SQLite files: every spooled message reaches the archive once, de-duplicated as intake did it before,
whatever point a crash cut the drain at."""
from __future__ import annotations

import dataclasses
import sqlite3

from judge.mail.archive import Archive, Arrival
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


def test_a_drain_that_must_not_wait_gives_way_to_a_writer_and_the_next_drain_catches_up(tmp_path):
    """Intake drains without waiting: while a mail's dispatch holds judge.sqlite's write lock the
    drain answers None at once and the rows stay spooled, for the processor's drain afterwards."""
    spool, archive = Spool(tmp_path / "spool.sqlite"), Archive(tmp_path / "judge.sqlite")
    spool.add_many([arrival(1)])
    writer = sqlite3.connect(tmp_path / "judge.sqlite", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        assert archive.drain_spool(spool, wait=False) is None
        assert spool.count() == 1 and inbound(tmp_path / "judge.sqlite") == []
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert [s.message_id for s in archive.drain_spool(spool, wait=False)] == ["m1@players.test"]
    assert spool.count() == 0

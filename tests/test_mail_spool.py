"""Intake's spool (judge.mail.intake.spool, its format judge.mail.intake.spool_format) and its drain into the archive
(judge.mail.intake.spool_drain), on real files: every acknowledged message reaches the archive once,
de-duplicated as intake did it before, whatever point a crash cut the writing or the drain at."""
from __future__ import annotations

import dataclasses
import os
import random
import shutil
import sqlite3

import pytest

from judge.mail.intake import spool_format
from judge.mail.intake.archive import Archive, Arrival
from judge.mail.intake.spool import Spool, Spooled
from judge.mail.intake.spool_drain import SpoolReader, move


def arrival(n: int, *, message_id: str | None = None, body: str = "help") -> Arrival:
    raw = (f"From: p{n}@players.test\r\nTo: judge@dip.test\r\nMessage-ID: <{message_id or f'm{n}@players.test'}>\r\n"
           f"Subject: {n}\r\n\r\n{body}\r\n").encode()
    return Arrival(raw, f"p{n}@players.test", ("judge@dip.test",), "smtp", "127.0.0.1:2525")


def inbound(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT message_id, state, duplicate_of, spool_key, raw FROM inbound"
                            " ORDER BY id").fetchall()


def ids(path) -> list[str]:
    return [m for m, *_ in inbound(path)]


def opened(tmp_path, **options) -> tuple[Spool, SpoolReader, Archive]:
    spool = Spool(tmp_path / "spool", **options)
    return spool, SpoolReader(tmp_path / "spool", writing=lambda: spool.synced), Archive(tmp_path / "judge.sqlite")


def files(tmp_path) -> list[str]:
    """The spool's segments (not the spare being made for the writer)."""
    return sorted(f for f in os.listdir(tmp_path / "spool") if f.endswith(".log"))


def test_spooled_messages_reach_the_archive_with_their_bytes_and_the_spool_empties(tmp_path):
    spool, reader, archive = opened(tmp_path)
    arrivals = [arrival(n) for n in range(3)]
    spooled = spool.add_many(arrivals)
    assert [s.id for s in spooled if isinstance(s, Spooled)] == [1, 2, 3]
    stored = archive.drain_spool(reader)
    assert [s.raw for s in stored] == [a.raw for a in arrivals]
    rows = inbound(tmp_path / "judge.sqlite")
    assert [(m, st, d) for m, st, d, _, _ in rows] == [(f"m{n}@players.test", "new", None) for n in range(3)]
    tokens = {k.split(".")[0] for _, _, _, k, _ in rows}
    assert len(tokens) == 1
    token = tokens.pop()
    assert [k for _, _, _, k, _ in rows] == [f"{token}.{n}" for n in (1, 2, 3)]
    assert archive.drain_spool(reader) == []
    assert files(tmp_path)[:1] == ["000000000001.log"]      # the segment being written stays ...
    spool.close()
    assert archive.drain_spool(reader) == [] and os.listdir(tmp_path / "spool") == []     # ... until it is closed


def test_a_crash_between_the_archive_commit_and_the_segment_delete_does_not_double_a_message(tmp_path):
    """The drain commits the archive, then deletes the segments read whole: a crash between leaves a
    segment the archive has. Here the spool is put back as it was before the drain (the delete lost);
    after a restart the next drain stores none of it again, and stores what was spooled since."""
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(1), arrival(2)])
    spool.close()
    shutil.copytree(tmp_path / "spool", tmp_path / "before-drain")
    archive.drain_spool(reader)
    assert files(tmp_path) == []
    shutil.rmtree(tmp_path / "spool")
    shutil.copytree(tmp_path / "before-drain", tmp_path / "spool")
    spool, reader, _ = opened(tmp_path)        # a restart: a new writer, a reader that has read nothing
    assert spool.add_many([arrival(3)])[0].id == 3      # (the numbers go on from the spool's last)
    stored = archive.drain_spool(reader)
    assert [s.message_id for s in stored] == ["m3@players.test"]
    assert ids(tmp_path / "judge.sqlite") == [f"m{n}@players.test" for n in (1, 2, 3)]
    assert files(tmp_path) == ["000000000002.log"]      # the old segment, read whole, is gone


def test_redeliveries_are_recorded_as_before_within_a_drain_and_across_drains(tmp_path):
    spool, reader, archive = opened(tmp_path)
    first = arrival(1)
    relayed = dataclasses.replace(first, raw=b"Received: from relay.example\r\n" + first.raw)   # a trace header more
    spool.add_many([first, relayed])
    archive.drain_spool(reader)
    spool.add_many([first])
    archive.drain_spool(reader)
    rows = inbound(tmp_path / "judge.sqlite")
    assert [(st, d) for _, st, d, _, _ in rows] == [("new", None), ("duplicate", 1), ("duplicate", 1)]
    assert len({k for _, _, _, k, _ in rows}) == 3


def test_the_drain_reads_the_segment_being_written_only_as_far_as_it_is_synced(tmp_path):
    """Bytes beyond the writer's synced end (a write under way) are not read, even if they would check;
    they are read once the writer says they are synced."""
    spool, reader, archive = opened(tmp_path, sync=False)
    spool.add_many([arrival(1)])
    number, synced = spool.synced
    late = spool_format.encode(2, [0.0, "smtp", None, "x@players.test", [], "late@players.test"], b"x")
    fd = os.open(tmp_path / "spool" / spool_format.segment_name(number), os.O_WRONLY)
    os.pwrite(fd, late, synced)
    os.close(fd)
    assert [m.message_id for m in archive.drain_spool(reader)] == ["m1@players.test"]
    spool.synced = (number, synced + len(late))
    assert [m.message_id for m in archive.drain_spool(reader)] == ["late@players.test"]


def test_a_drain_repeated_or_restarted_stores_nothing_twice(tmp_path):
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(1), arrival(2)])
    first = move(archive.db, reader)
    spool.add_many([arrival(3)])
    second = move(archive.db, reader)
    assert (first.count, first.through, second.count, second.through) == (2, 2, 1, 3)
    again = move(archive.db, SpoolReader(tmp_path / "spool", writing=lambda: spool.synced))   # read from the start
    assert (again.count, again.through) == (0, 3)
    assert ids(tmp_path / "judge.sqlite") == [f"m{n}@players.test" for n in (1, 2, 3)]


def test_segments_roll_over_and_each_read_whole_is_deleted_while_the_writer_goes_on(tmp_path):
    spool, reader, archive = opened(tmp_path, segment_bytes=1024)
    spooled = []
    for n in range(0, 30, 3):
        spooled += spool.add_many([arrival(n), arrival(n + 1, body="x" * 300), arrival(n + 2)])
    assert [s.id for s in spooled] == list(range(1, 31))
    assert len(files(tmp_path)) > 5
    assert ids(tmp_path / "judge.sqlite") == [] and len(archive.drain_spool(reader)) == 30
    assert files(tmp_path) == [spool_format.segment_name(spool.synced[0])]     # the one being written
    big = arrival(99, body="y" * 5000)          # bigger than a segment: one made to fit
    assert isinstance(spool.add_many([big, arrival(100)])[0], Spooled)
    spool.close()
    assert [m.raw for m in archive.drain_spool(reader)] == [big.raw, arrival(100).raw]
    assert files(tmp_path) == []
    assert ids(tmp_path / "judge.sqlite") == [f"m{n}@players.test" for n in [*range(30), 99, 100]]


def test_a_backlog_is_drained_a_part_at_a_time_in_order(tmp_path):
    """After a long stop the spool may hold more than one drain should read into memory: a drain stops
    after whole segments holding its limit, says there is more, and the next takes the rest."""
    spool, reader, archive = opened(tmp_path, segment_bytes=1024)
    for n in range(12):
        spool.add_many([arrival(n, body="x" * 200)])
    spool.close()
    parts = []
    while True:
        moved = move(archive.db, reader, limit=600)
        parts.append(moved.count)
        if not moved.more:
            break
    assert len(parts) > 2 and sum(parts) == 12 and files(tmp_path) == []
    assert ids(tmp_path / "judge.sqlite") == [f"m{n}@players.test" for n in range(12)]


def test_a_torn_record_ends_its_segment_and_nothing_after_it_is_read(tmp_path):
    """A crash in the middle of a write leaves a record that does not check (never acknowledged): the
    drain stops there in that segment, whatever follows, and the next start writes a new segment."""
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(1)])
    spool.add_many([arrival(2)])
    spool.add_many([arrival(3)])
    number, end = spool.synced
    spool.close()
    path = tmp_path / "spool" / spool_format.segment_name(number)
    records = spool_format.read_segment(path, number)
    fd = os.open(path, os.O_WRONLY)
    os.pwrite(fd, b"\xff", records[1].offset + 30)    # the second record torn; the third intact after it
    os.close(fd)
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(4)])
    assert [m.message_id for m in archive.drain_spool(reader)] == ["m1@players.test", "m4@players.test"]


def test_a_failed_write_is_answered_as_such_and_the_next_batch_goes_to_a_new_segment(tmp_path):
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(1)])
    number = spool.synced[0]
    # the disk fails under the writer: its file can no longer be written (the same descriptor, read-only now)
    read_only = os.open(tmp_path / "spool" / spool_format.segment_name(number), os.O_RDONLY)
    os.dup2(read_only, spool._fd)
    os.close(read_only)
    failed = spool.add_many([arrival(2)])
    assert isinstance(failed[0], OSError)
    assert isinstance(spool.add_many([arrival(3)])[0], Spooled) and spool.synced[0] == number + 1
    spool.close()
    assert [m.message_id for m in archive.drain_spool(reader)] == ["m1@players.test", "m3@players.test"]


def test_a_drain_holding_a_redelivery_of_its_own_message_keeps_the_order_of_arrival(tmp_path):
    """The archive's numbers are the processing order: a redelivery that arrived between two messages
    gets the number between theirs, and points at the first copy drained with it."""
    spool, reader, archive = opened(tmp_path)
    first = arrival(1)
    spool.add_many([first])
    spool.add_many([dataclasses.replace(first, raw=b"Received: from relay.example\r\n" + first.raw)])
    spool.add_many([arrival(3), arrival(4, message_id="m3@players.test", body="other")])
    moved = move(archive.db, reader)
    assert (moved.first, moved.last, moved.redeliveries) == (1, 4, ((2, 1),))
    assert [(m, st, d) for m, st, d, _, _ in inbound(tmp_path / "judge.sqlite")] == [
        ("m1@players.test", "new", None), ("m1@players.test", "duplicate", 1),
        ("m3@players.test", "new", None), ("m3@players.test", "new", None)]


def test_an_older_judges_spool_file_is_drained_once_first_then_removed(tmp_path):
    legacy = sqlite3.connect(tmp_path / "spool.sqlite")
    legacy.execute("CREATE TABLE spooled (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,"
                   " received_at REAL NOT NULL, via TEXT NOT NULL, peer TEXT, mail_from TEXT, rcpt_tos TEXT NOT NULL,"
                   " message_id TEXT, content_hash TEXT NOT NULL, raw BLOB NOT NULL)")
    old = arrival(0)
    legacy.execute("INSERT INTO spooled (key, received_at, via, rcpt_tos, message_id, content_hash, raw)"
                   " VALUES ('old.1', 1.0, 'smtp', '[]', 'm0@players.test', 'h0', ?)", [old.raw])
    legacy.commit()
    legacy.close()
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(1)])
    assert [m.raw for m in archive.drain_spool(reader)] == [old.raw, arrival(1).raw]
    assert not (tmp_path / "spool.sqlite").exists() and archive.drain_spool(reader) == []


@pytest.mark.parametrize("seed", range(40))
def test_damage_anywhere_in_a_segment_yields_a_prefix_of_what_was_written(tmp_path, seed):
    """Bytes flipped, zeroed or cut anywhere: the reading returns the records before the damage, as they
    were written, and never a record that was not (each record's CRC and numbering)."""
    rng = random.Random(seed)
    spool = Spool(tmp_path / "spool", sync=False)
    for n in range(6):
        spool.add_many([arrival(n, body="z" * rng.randrange(200))])
    number, end = spool.synced
    spool.close()
    path = tmp_path / "spool" / spool_format.segment_name(number)
    whole = spool_format.read_segment(path, number)
    data = bytearray(path.read_bytes()[:end])
    at = rng.randrange(spool_format.HEAD_SIZE, end)
    damage = rng.choice(["flip", "zero", "cut"])
    if damage == "flip":
        data[at] ^= 1 << rng.randrange(8)
    elif damage == "zero":
        length = rng.randrange(1, 64)
        data[at:at + length] = bytes(len(data[at:at + length]))
    else:
        del data[at:]
    path.write_bytes(bytes(data))
    read = spool_format.read_segment(path, number)
    assert read == whole[:len(read)]
    assert all(r.end <= at for r in read) or damage == "zero" and read == whole


def test_a_segment_read_whole_is_left_for_a_new_one_once_old_enough_and_then_deleted(tmp_path):
    """Mail in the archive (whose copy there is scrubbed of passwords) does not stay in the spool until
    4 MiB more has come: once the drain has read everything written and the segment's first record is
    old enough, the writer moves on and the next drain deletes the segment."""
    spool, reader, archive = opened(tmp_path)
    spool.add_many([arrival(1, body="signon Talpha secret-pw")])
    number, offset = spool.synced
    assert not reader.has_read(spool.synced)
    assert [m.message_id for m in archive.drain_spool(reader)] == ["m1@players.test"]
    assert reader.has_read(spool.synced)
    assert not spool.retire_drained(*spool.synced, older_than=3600.0)      # too young
    spool.add_many([arrival(2)])
    assert not spool.retire_drained(number, offset, older_than=0.0)        # written past what was read
    archive.drain_spool(reader)
    assert spool.retire_drained(*spool.synced, older_than=0.0)
    archive.drain_spool(reader)
    assert spool_format.segment_name(number) not in files(tmp_path)
    assert not any(b"secret-pw" in (tmp_path / "spool" / f).read_bytes() for f in os.listdir(tmp_path / "spool"))
    assert not spool.retire_drained(*spool.synced, older_than=0.0)         # the new one holds nothing yet
    assert ids(tmp_path / "judge.sqlite") == ["m1@players.test", "m2@players.test"]

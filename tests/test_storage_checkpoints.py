"""judge.storage.checkpoints: a WAL file's checkpoints made beside the writing thread, not in it."""
from __future__ import annotations

import os
import time

from judge.storage.checkpoints import checkpoints_aside
from judge.storage.db import open_db, transaction


def test_the_writer_makes_no_checkpoint_and_the_thread_aside_does(tmp_path):
    path = tmp_path / "judge.sqlite"
    db = open_db(path, synchronous="NORMAL")
    db.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")
    with checkpoints_aside([db], every=0.05):
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        for _ in range(40):                       # 40 x 100 KB: past the 1,000 pages a writer would copy at
            with transaction(db):
                db.execute("INSERT INTO blobs (data) VALUES (?)", [os.urandom(100_000)])
        deadline = time.monotonic() + 10
        while os.path.getsize(path) < 3_000_000 and time.monotonic() < deadline:
            time.sleep(0.05)                       # the pages copied into the file by the thread aside
        assert os.path.getsize(path) >= 3_000_000
    assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000     # the writer's own again
    assert db.execute("SELECT count(*), sum(length(data)) FROM blobs").fetchone() == (40, 4_000_000)
    db.close()


def test_without_the_thread_aside_the_log_alone_grows(tmp_path):
    """The test above would pass without its thread if the writer still checkpointed: it does not."""
    path = tmp_path / "judge.sqlite"
    db = open_db(path, synchronous="NORMAL")
    db.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    for _ in range(40):
        with transaction(db):
            db.execute("INSERT INTO blobs (data) VALUES (?)", [os.urandom(100_000)])
    time.sleep(0.2)
    assert os.path.getsize(path) < 1_000_000 and os.path.getsize(f"{path}-wal") >= 4_000_000
    db.close()

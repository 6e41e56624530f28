"""A WAL file's checkpoints made on a thread of their own while one thread writes much to it.

    with checkpoints_aside([db, other_connection_of_this_thread]):
        ...     # a deadline rush: a thousand games' reports and pictures into the outbox

SQLite copies a WAL file's log back into the database (a checkpoint) in whichever connection commits
once the log has grown past 1,000 pages: in a deadline rush that was the courier's own thread, every
few games, copying the pictures it had just stored (125 KB each) a second time and syncing them while
the next games waited (issue 27: about 2 of 36 s). Here the writing connections make none; a thread
of its own checkpoints the file every `every` seconds, PASSIVE, so it never waits for nor blocks a
writer: SQLite and the disk release Python's lock, and the copying runs beside the writing. A log
fully copied is started again from its beginning by the next writer, as ever.

When the block ends the connections checkpoint as before. Nothing here bears on durability: a commit
is durable in the log (the connection's own sync level); a checkpoint only moves pages.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import sqlite_utils

log = logging.getLogger("judge.storage")


@contextmanager
def checkpoints_aside(connections: Sequence[sqlite_utils.Database], every: float = 0.2) -> Iterator[None]:
    """Within the block, `connections` (of one file, used by this thread) leave their checkpoints to a
    thread of their own."""
    first = connections[0].conn
    path = first.execute("PRAGMA database_list").fetchone()[2]
    before = [db.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] for db in connections]
    stop = threading.Event()

    def checkpoint() -> None:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            while not stop.wait(every):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:       # (the writers' own checkpoints resume at the end)
                    log.exception("a checkpoint of %s failed", path)
        finally:
            conn.close()

    for db in connections:
        db.conn.execute("PRAGMA wal_autocheckpoint = 0")
    thread = threading.Thread(target=checkpoint, name="checkpoints", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        for db, pages in zip(connections, before, strict=True):
            db.conn.execute(f"PRAGMA wal_autocheckpoint = {int(pages)}")

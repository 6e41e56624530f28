"""Open SQLite files the one way the judge wants them, run versioned migrations, and hold transactions.

Each component (games, mail archive, outbox, ...) owns an ordered list of migration
steps. `migrate` records per component how many steps a file has seen, so a file
written by an older judge is brought up to date at start-up and never edited by hand.
A process checks each file's schema once (at start-up, or when it first opens the file):
later opens of the same file skip the check, so a mail does not pay for it again and again.

`transaction` is the one way to write: BEGIN IMMEDIATE ... COMMIT, or a SAVEPOINT when the
connection is already in a transaction, so helpers that write can be called inside a larger one.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

Migration = Callable[[sqlite_utils.Database], None]
_LEVELS = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}

# (path, device, inode, component, steps) of every file whose schema this process has brought up to date
_checked: set[tuple[str, int, int, str, int]] = set()
_checked_lock = threading.Lock()


def open_db(path: str | Path, *, synchronous: str = "FULL") -> sqlite_utils.Database:
    """A WAL-mode database with foreign keys on. FULL sync: an acknowledged write survives power loss."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return db


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """BEGIN IMMEDIATE ... COMMIT: the write lock is taken at once, so two writers never interleave.
    Inside a transaction already, a savepoint: the inner part rolls back alone on an error, and
    commits with the outer transaction."""
    conn = db.conn
    if conn.in_transaction:
        with db.atomic():           # sqlite-utils' savepoint
            yield db
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except BaseException:       # (a full disk, an I/O error): not left open for the next writer to join
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def synchronous(db: sqlite_utils.Database, level: str) -> Iterator[sqlite_utils.Database]:
    """The connection's sync level for the block (e.g. FULL for commits that must be on disk before
    something else happens), then back to what it was."""
    before = db.conn.execute("PRAGMA synchronous").fetchone()[0]
    if db.conn.in_transaction:
        # SQLite fixes the level for a transaction once it began: inside one (a mail's, begun
        # durable) the block commits with that transaction, which must already be as safe
        if before < _LEVELS[level.upper()]:
            raise RuntimeError(f"synchronous={level} asked inside a transaction begun at a lower level")
        yield db
        return
    db.conn.execute(f"PRAGMA synchronous={level}")
    try:
        yield db
    finally:
        db.conn.execute(f"PRAGMA synchronous={before}")


@contextmanager
def durable(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A transaction committed with FULL sync on a connection that otherwise runs NORMAL: in WAL
    mode its one fsync also makes every earlier commit in the file durable (the log is written
    in order), so a run of cheap commits ends with one durable point. Inside a transaction begun
    durable, a savepoint that commits with it."""
    with synchronous(db, "FULL"), transaction(db):
        yield db


def schema_version(db: sqlite_utils.Database, component: str) -> int:
    if not db["schema_versions"].exists():
        return 0
    row = db.execute("SELECT version FROM schema_versions WHERE component = ?", [component]).fetchone()
    return row[0] if row else 0


def _identity(path: str | Path) -> tuple[str, int, int] | None:
    """The file at `path` (its path, device and inode: a file put in its place is another file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return str(path), st.st_dev, st.st_ino


def migrate(db: sqlite_utils.Database, component: str, steps: Sequence[Migration]) -> int:
    """Apply the steps this file has not seen yet, each in its own transaction. Returns the version.
    Once a file is up to date, this process does not look again."""
    row = db.execute("PRAGMA database_list").fetchone()
    identity = _identity(os.path.abspath(row[2])) if row and row[2] else None    # None: in memory
    key = (*identity, component, len(steps)) if identity else None
    if key is not None and key in _checked:
        return len(steps)
    db["schema_versions"].create({"component": str, "version": int}, pk="component", not_null={"version"},
                                 if_not_exists=True)
    current = schema_version(db, component)
    if current > len(steps):
        raise RuntimeError(
            f"{component} schema version {current} is newer than this judge knows ({len(steps)}); upgrade the judge")
    for number in range(current, len(steps)):
        with transaction(db):  # one transaction per step
            steps[number](db)
            db["schema_versions"].upsert({"component": component, "version": number + 1}, pk="component")
    # Inside a caller's transaction the steps are savepoints of it, undone if it rolls back (a mail's
    # that failed): the file counts as checked only once they are committed for good.
    if key is not None and not db.conn.in_transaction:
        with _checked_lock:
            _checked.add(key)
    return len(steps)


def mark_checked(path: str | Path, component: str, steps: Sequence[Migration]) -> None:
    """A file known to be up to date by other means (judge.games.store.stale_game_files)."""
    identity = _identity(os.path.abspath(path))
    if identity is not None:
        with _checked_lock:
            _checked.add((*identity, component, len(steps)))


def forget_checked() -> None:
    """For a restore that replaces files under a running process: check every schema again."""
    with _checked_lock:
        _checked.clear()

"""Open SQLite files the one way the judge wants them, run versioned migrations, and hold transactions.

Each component (games, mail archive, outbox, ...) owns a `Schema`: its current tables, made
directly in a new file, and the ordered migration steps that bring an older file up to date.
`migrate` records per component how many steps a file has seen, so a file written by an older
judge is brought up to date at start-up and never edited by hand; a file from before the
component's floor, or from a newer judge, is refused with both versions named.
A process checks each file's schema once (at start-up, or when it first opens the file):
later opens of the same file skip the check, so a mail does not pay for it again and again.

Why not sqlite-utils' own migrations (the `sqlite-migrate` package, 0.2): it records each applied
step by name in one table per file and replays every step on a new file. The judge needs what it
lacks: a new file made at the current schema at once (10,000 game files are created far more often
than upgraded; tests/test_storage_schema.py holds both ways equal), several components' schemas in
one file each with its own count, a floor below which an old file is refused rather than half
migrated, and a file from a newer judge refused by number. The steps themselves are sqlite-utils
calls, as that package's would be.

`transaction` is the one way to write: BEGIN IMMEDIATE ... COMMIT, or a SAVEPOINT when the
connection is already in a transaction, so helpers that write can be called inside a larger one.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

Migration = Callable[[sqlite_utils.Database], None]

BUSY_TIMEOUT_MS = 30_000    # how long a writer waits for another's lock before it gives up
_LEVELS = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}

# (path, device, inode, component, steps) of every file whose schema this process has brought up to date
_checked: set[tuple[str, int, int, str, int]] = set()
_checked_lock = threading.Lock()


# What never changes for an open connection, or changes only through this module, kept beside it so
# that each mail does not ask SQLite again: its file (migrate) and its sync level (synchronous).
_paths: weakref.WeakKeyDictionary[sqlite_utils.Database, str] = weakref.WeakKeyDictionary()
_levels: weakref.WeakKeyDictionary[sqlite_utils.Database, int] = weakref.WeakKeyDictionary()


def open_db(path: str | Path, *, synchronous: str = "FULL") -> sqlite_utils.Database:
    """A WAL-mode database with foreign keys on. FULL sync: an acknowledged write survives power loss."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30, check_same_thread=False)
    # no sqlite-utils plugins: looking for them reads every installed package's entry points (90 ms
    # of `judge status`), and the judge's files are its own
    db = sqlite_utils.Database(conn, execute_plugins=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    _remember_level(db, synchronous)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    # sqlite-utils learns whether SQLite has upsert (3.24+) by creating and dropping a table in the file,
    # once per connection, inside the caller's transaction; the judge's SQLite has it.
    db._supports_on_conflict = sqlite3.sqlite_version_info >= (3, 24, 0)
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


def _remember_level(db: sqlite_utils.Database, level: str | int) -> None:
    known = _LEVELS.get(str(level).upper(), int(level) if str(level).isdigit() else None)
    if known is None:
        _levels.pop(db, None)
    else:
        _levels[db] = known


@contextmanager
def synchronous(db: sqlite_utils.Database, level: str) -> Iterator[sqlite_utils.Database]:
    """The connection's sync level for the block (e.g. FULL for commits that must be on disk before
    something else happens), then back to what it was."""
    before = _levels.get(db)
    if before is None:      # (a connection not opened here: asked)
        before = db.conn.execute("PRAGMA synchronous").fetchone()[0]
    if db.conn.in_transaction:
        # SQLite fixes the level for a transaction once it began: inside one (a mail's, begun
        # durable) the block commits with that transaction, which must already be as safe
        if before < _LEVELS[level.upper()]:
            raise RuntimeError(f"synchronous={level} asked inside a transaction begun at a lower level")
        yield db
        return
    db.conn.execute(f"PRAGMA synchronous={level}")
    _remember_level(db, level)
    try:
        yield db
    finally:
        db.conn.execute(f"PRAGMA synchronous={before}")
        _levels[db] = before


@dataclass(frozen=True)
class Written:
    rows: list[tuple[Any, ...]]         # what it returned (RETURNING)
    count: int                          # rows it changed


def write_statement(db: sqlite_utils.Database, sql: str, args: Sequence[object] = ()) -> Written:
    """One writing statement, as `transaction` would run it, without its savepoint inside a transaction:
    SQLite undoes a failed statement whole by itself, so a savepoint around one adds two statements
    and nothing else. Alone, it runs in a transaction of its own. Run to its end (a RETURNING
    statement is not done until its rows are read)."""
    if db.conn.in_transaction:
        return _run(db, sql, args)
    with transaction(db):
        return _run(db, sql, args)


def _run(db: sqlite_utils.Database, sql: str, args: Sequence[object]) -> Written:
    cur = db.conn.execute(sql, args)
    rows: list[tuple[Any, ...]] = [tuple(r) for r in cur.fetchall()]
    return Written(rows, cur.rowcount)


@contextmanager
def durable(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A transaction committed with FULL sync on a connection that otherwise runs NORMAL: in WAL
    mode its one fsync also makes every earlier commit in the file durable (the log is written
    in order), so a run of cheap commits ends with one durable point. Inside a transaction begun
    durable, a savepoint that commits with it."""
    with synchronous(db, "FULL"), transaction(db):
        yield db


@dataclass(frozen=True)
class Schema:
    """One component's tables and how they came to be.

    `steps[n]` takes a file from version n to n + 1; every step stays, so a file written by any judge
    since the floor still opens. A file without the component gets `current`, today's schema made
    directly, and is stamped at `version` in the same transaction: a new file does not replay history.
    (`current` None: a new file replays the steps, as `as_of` does for tests and fixtures.)
    `floor`: the oldest version this judge still upgrades; a file below it, or above `version`, is refused.
    """
    component: str
    steps: Sequence[Migration]
    current: Migration | None = None
    floor: int = 1

    @property
    def version(self) -> int:
        return len(self.steps)

    def as_of(self, version: int) -> Schema:
        """The schema as the judge with `version` steps made it: built by replaying those steps (the
        floor of that judge is not this one's)."""
        return Schema(self.component, self.steps[:version], None, floor=1)

    def refusal(self, found: int) -> str | None:
        """Why a file at version `found` cannot be opened by this judge, or None if it can."""
        if found > self.version:
            return f"{self.component} schema version {found} is newer than this judge knows ({self.version}); " \
                   "upgrade the judge"
        if 0 < found < self.floor:
            return f"{self.component} schema version {found} is older than the oldest this judge upgrades " \
                   f"({self.floor}); open it with an older judge first, which brings it to {self.floor} or later"
        return None


def schema_version(db: sqlite_utils.Database, component: str) -> int:
    if not db["schema_versions"].exists():
        return 0
    rows = list(db["schema_versions"].rows_where("component = ?", [component], select="version"))
    return rows[0]["version"] if rows else 0


def _identity(path: str | Path) -> tuple[str, int, int] | None:
    """The file at `path` (its path, device and inode: a file put in its place is another file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return str(path), st.st_dev, st.st_ino


def migrate(db: sqlite_utils.Database, schema: Schema) -> int:
    """Bring the file to `schema.version`: a new file gets the current schema at once, an older one
    each step it has not seen, each in its own transaction. Returns the version. Once a file is up
    to date, this process does not look again."""
    path = _paths.get(db)
    if path is None:
        row = db.execute("PRAGMA database_list").fetchone()
        path = _paths[db] = row[2] if row and row[2] else ""
    identity = _identity(os.path.abspath(path)) if path else None    # None: in memory
    key = (*identity, schema.component, schema.version) if identity else None
    if key is not None and key in _checked:
        return schema.version
    found = schema_version(db, schema.component)
    refusal = schema.refusal(found)         # the floor is checked on the version the file comes with
    if refusal:
        raise RuntimeError(refusal)
    while found < schema.version:
        with transaction(db):       # one transaction per step; the version read again under the write lock
            db.table("schema_versions").create({"component": str, "version": int}, pk="component",
                                               not_null={"version"}, if_not_exists=True)
            found = schema_version(db, schema.component)
            if found >= schema.version:
                continue            # another process migrated it meanwhile
            if found == 0 and schema.current is not None:
                schema.current(db)
                found = schema.version
            else:
                schema.steps[found](db)
                found += 1
            db.table("schema_versions").upsert({"component": schema.component, "version": found}, pk="component")
    if found > schema.version:              # a newer judge migrated it meanwhile
        raise RuntimeError(schema.refusal(found))
    # Inside a caller's transaction the steps are savepoints of it, undone if it rolls back (a mail's
    # that failed): the file counts as checked only once they are committed for good.
    if key is not None and not db.conn.in_transaction:
        with _checked_lock:
            _checked.add(key)
    return schema.version


def mark_checked(path: str | Path, schema: Schema) -> None:
    """A file known to be up to date by other means (judge.games.store.stale_game_files)."""
    identity = _identity(os.path.abspath(path))
    if identity is not None:
        with _checked_lock:
            _checked.add((*identity, schema.component, schema.version))


def forget_checked() -> None:
    """For a restore that replaces files under a running process: check every schema again."""
    with _checked_lock:
        _checked.clear()


def create_table(db: sqlite_utils.Database, name: str, columns: dict[str, type], *,
                 pk: str | tuple[str, ...] | None,
                 nullable: Iterable[str] = (), defaults: dict[str, object] | None = None,
                 foreign_keys: Sequence[tuple[str, str, str]] = ()) -> None:
    """A table by sqlite-utils' table API, every column NOT NULL but the `nullable` ones (and a
    one-column primary key, which the judge never writes NULL to). `pk` None: a rowid table.
    For a `Schema.current`."""
    single = {pk} if isinstance(pk, str) else set()
    db.table(name).create(columns, pk=pk, not_null=set(columns) - set(nullable) - single, defaults=defaults or {},
                    foreign_keys=list(foreign_keys))

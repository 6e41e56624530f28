"""Open SQLite files the one way the judge wants them, and run versioned migrations.

Each component (games, mail archive, outbox, ...) owns an ordered list of migration
steps. `migrate` records per component how many steps a file has seen, so a file
written by an older judge is brought up to date at start-up and never edited by hand.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlite_utils

Migration = Callable[[sqlite_utils.Database], None]


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


def schema_version(db: sqlite_utils.Database, component: str) -> int:
    if "schema_versions" not in db.table_names():
        return 0
    row = db.execute("SELECT version FROM schema_versions WHERE component = ?", [component]).fetchone()
    return row[0] if row else 0


def migrate(db: sqlite_utils.Database, component: str, steps: Sequence[Migration]) -> int:
    """Apply the steps this file has not seen yet, each in its own transaction. Returns the version."""
    db.execute("CREATE TABLE IF NOT EXISTS schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
    current = schema_version(db, component)
    if current > len(steps):
        raise RuntimeError(
            f"{component} schema version {current} is newer than this judge knows ({len(steps)}); upgrade the judge")
    for number in range(current, len(steps)):
        with db.conn:  # one transaction per step
            db.conn.execute("BEGIN IMMEDIATE")
            steps[number](db)
            db.conn.execute(
                "INSERT INTO schema_versions (component, version) VALUES (?, ?) "
                "ON CONFLICT(component) DO UPDATE SET version = excluded.version", [component, number + 1])
    return len(steps)

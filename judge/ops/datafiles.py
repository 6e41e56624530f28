"""What a data directory holds, read without changing it: its SQLite files and their schema versions.

Its own module because both `backup` (what to copy) and `upgrade` (what changed) need it, and
`restore` (in backup.py) ends by calling `upgrade`: here, neither imports the other's module back.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from ..mail.intake import spool_format

SPOOL_DIR = "spool"         # intake's spool (judge.mail.intake.spool): mail acknowledged, not yet in judge.sqlite
LEGACY_SPOOL = spool_format.LEGACY_FILE     # an older judge's spool, until the first drain takes it in


def data_files(data_dir: Path) -> list[str]:
    """The SQLite files a backup holds, relative to the data directory: judge.sqlite first, then an
    older judge's spool if one is left, then the games."""
    games = sorted(p.relative_to(data_dir).as_posix() for p in (data_dir / "games").glob("*.sqlite"))
    spool = [LEGACY_SPOOL] if (data_dir / LEGACY_SPOOL).is_file() else []
    return ["judge.sqlite", *spool, *games]


def spool_segments(data_dir: Path) -> list[str]:
    """Intake's spool segments, relative to the data directory, oldest first. A backup copies them
    while judge.sqlite is frozen: a drain deletes a segment only after its judge.sqlite commit, which
    the freeze holds off, so every acknowledged mail is in one copy or the other."""
    return [p.relative_to(data_dir).as_posix() for _, p in spool_format.segments(data_dir / SPOOL_DIR)]


def schema_versions(path: Path) -> dict[str, int]:
    """Component -> migration steps applied, read without changing the file."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        return versions_in(conn)
    finally:
        conn.close()


def versions_in(conn: sqlite3.Connection) -> dict[str, int]:
    """Component -> migration steps applied, on a connection opened read-only (so nothing is created)."""
    table = sqlite_utils.Database(conn, execute_plugins=False)["schema_versions"]
    return {r["component"]: r["version"] for r in table.rows} if table.exists() else {}

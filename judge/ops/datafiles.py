"""What a data directory holds, read without changing it: its SQLite files and their schema versions.

Its own module because both `backup` (what to copy) and `upgrade` (what changed) need it, and
`restore` (in backup.py) ends by calling `upgrade`: here, neither imports the other's module back.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils


SPOOL = "spool.sqlite"      # intake's spool (judge.mail.spool): mail acknowledged, not yet in judge.sqlite


def data_files(data_dir: Path) -> list[str]:
    """The files a backup holds, relative to the data directory; judge.sqlite first, then intake's
    spool when there is one (copied while judge.sqlite is frozen, so no drain can delete a row that
    the judge.sqlite copy lacks: the two copies together hold every acknowledged mail)."""
    games = sorted(p.relative_to(data_dir).as_posix() for p in (data_dir / "games").glob("*.sqlite"))
    spool = [SPOOL] if (data_dir / SPOOL).is_file() else []
    return ["judge.sqlite", *spool, *games]


def schema_versions(path: Path) -> dict[str, int]:
    """Component -> migration steps applied, read without changing the file."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        return versions_in(conn)
    finally:
        conn.close()


def versions_in(conn: sqlite3.Connection) -> dict[str, int]:
    """Component -> migration steps applied, on a connection opened read-only (so nothing is created)."""
    table = sqlite_utils.Database(conn)["schema_versions"]
    return {r["component"]: r["version"] for r in table.rows} if table.exists() else {}

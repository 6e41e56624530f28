"""What a data directory holds, read without changing it: its SQLite files and their schema versions.

Its own module because both `backup` (what to copy) and `upgrade` (what changed) need it, and
`restore` (in backup.py) ends by calling `upgrade`: here, neither imports the other's module back.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path


def data_files(data_dir: Path) -> list[str]:
    """The files a backup holds, relative to the data directory; judge.sqlite first."""
    games = sorted(p.relative_to(data_dir).as_posix() for p in (data_dir / "games").glob("*.sqlite"))
    return ["judge.sqlite", *games]


def schema_versions(path: Path) -> dict[str, int]:
    """Component -> migration steps applied, read without changing the file."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        has = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'").fetchone()
        return dict(conn.execute("SELECT component, version FROM schema_versions").fetchall()) if has else {}
    finally:
        conn.close()

"""`judge backup` and `judge restore`: consistent copies of the judge file and every game file.

The copies are taken with SQLite's online backup API while `judge serve` keeps running. Files
cannot share one transaction, so the backup freezes judge.sqlite (holds its write lock) from
before its copy until every game file is copied. Whatever a game copy holds beyond the judge copy
then came from mail that the judge copy still has as unprocessed, and mail is dispatched
idempotently by its inbound id; and no game copy can mark a notice as mailed whose outbox row is
missing, because the outbox could not be written meanwhile. Writers of judge.sqlite (intake, the
outbox) wait while the files are copied, without syncs; they retry for 30 seconds (busy_timeout).
bench/backup.py measured that wait at about 0.5 s for 100 games and 2.5 s for 1,000 on a slow disk.
Syncing, hashing and the manifest come after the freeze.

Intake's spool (spool/: mail acknowledged but not yet drained into judge.sqlite) is copied during
the freeze too: a drain deletes a segment only after its judge.sqlite commit, which the freeze
holds off, so every acknowledged mail is in one copy or the other (in both, it is drained once).

A backup is a directory: judge.sqlite, spool/<segments>, games/<name>.sqlite and manifest.json (sizes,
sha256 and schema versions). It is written under DIR.partial and renamed to DIR when complete, so a
directory named DIR is always a whole backup.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..mail.intake import spool_format
from .datafiles import LEGACY_SPOOL, SPOOL_DIR, data_files, schema_versions, spool_segments
from ..index_look import forget_mark
from ..storage.db import forget_checked
from ..storage.files import fsync_dir

MANIFEST = "manifest.json"
FORMAT = 1


class BackupError(Exception):
    pass


@dataclass(frozen=True)
class Copied:
    name: str            # relative to the data (or backup) directory: judge.sqlite, games/alpha.sqlite
    size: int
    sha256: str
    schema: dict[str, int]


def backup(data_dir: Path, target: Path, *, clock: Callable[[], float] = time.time) -> list[Copied]:
    """Copy every SQLite file and spool segment of a (possibly running) judge into the new directory `target`."""
    data_dir, target = Path(data_dir), Path(target)
    judge_file = data_dir / "judge.sqlite"
    if not judge_file.is_file():
        raise BackupError(f"{data_dir} holds no judge.sqlite: is it the judge's data directory?")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise BackupError(f"{target} already exists and is not empty; name a new directory for the backup")
    partial = target.with_name(target.name + ".partial")
    if partial.exists():
        shutil.rmtree(partial)       # left by a backup that was interrupted
    (partial / "games").mkdir(parents=True)
    (partial / SPOOL_DIR).mkdir()

    freeze = sqlite3.connect(str(judge_file), isolation_level=None, timeout=60)
    try:
        freeze.execute("PRAGMA busy_timeout=60000")
        freeze.execute("BEGIN IMMEDIATE")      # judge.sqlite stays as it is until every copy is taken
        try:
            names = data_files(data_dir)
            for name in names:
                _snapshot(data_dir / name, partial / name)
            # (a segment gone meanwhile was drained before the freeze: its mail is in the judge.sqlite copy)
            # (its records already in judge.sqlite are left out: their raw copies there are scrubbed of passwords)
            segments = [name for name in spool_segments(data_dir)
                        if spool_format.copy_segment(data_dir / name, partial / name,
                                                     _not_archived(freeze))]
        finally:
            freeze.execute("ROLLBACK")
    finally:
        freeze.close()
    # Made durable and described after the freeze: intake waits only for the copying itself.
    copied = [_seal(partial / name, name) for name in names] + [_seal_plain(partial / name, name)
                                                                 for name in segments]

    manifest = {"format": FORMAT, "taken_at": clock(), "source": str(data_dir.resolve()),
                "files": [c.__dict__ for c in copied]}
    _write_durably(partial / MANIFEST, json.dumps(manifest, indent=2).encode())
    fsync_dir(partial / "games")
    fsync_dir(partial / SPOOL_DIR)
    fsync_dir(partial)
    if target.exists():
        target.rmdir()               # the empty directory the keeper made for it
    os.replace(partial, target)
    fsync_dir(target.parent)
    return copied


def _not_archived(judge: sqlite3.Connection) -> Callable[[str], bool]:
    """Whether the archive lacks the spool record of a key (its drain not committed). (A judge file made by
    the games service alone has no archive yet: it lacks them all.)"""
    if not judge.execute("SELECT 1 FROM sqlite_master WHERE name = 'inbound'").fetchone():
        return lambda key: True
    return lambda key: judge.execute("SELECT 1 FROM inbound WHERE spool_key = ?", [key]).fetchone() is None


def _snapshot(source: Path, destination: Path) -> None:
    """One consistent copy by the backup API, written without syncs: _seal makes it durable."""
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
    try:
        dst = sqlite3.connect(str(destination))
        try:
            dst.execute("PRAGMA synchronous=OFF")
            dst.execute("PRAGMA journal_mode=OFF")
            src.backup(dst)          # one step: a single read transaction, so one consistent snapshot
        finally:
            dst.close()
    finally:
        src.close()


def _seal(path: Path, name: str) -> Copied:
    conn = sqlite3.connect(str(path))
    try:
        conn.execute("PRAGMA journal_mode=DELETE")     # a backup is one self-contained file: no -wal beside it
    finally:
        conn.close()
    with open(path, "rb+") as f:
        os.fsync(f.fileno())
    return Copied(name, path.stat().st_size, _sha256(path), schema_versions(path))


def _seal_plain(path: Path, name: str) -> Copied:
    """A spool segment's copy (not SQLite: no schema)."""
    with open(path, "rb+") as f:
        os.fsync(f.fileno())
    return Copied(name, path.stat().st_size, _sha256(path), {})


def read_manifest(backup_dir: Path) -> dict[str, Any]:
    path = Path(backup_dir) / MANIFEST
    try:
        manifest: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        raise BackupError(f"{backup_dir} has no {MANIFEST}: not a complete judge backup") from None
    except (OSError, json.JSONDecodeError) as e:
        raise BackupError(f"cannot read {path}: {e}") from e
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{path}: backup format {manifest.get('format')!r} is not one this judge reads ({FORMAT})")
    return manifest


def verify(backup_dir: Path) -> list[Copied]:
    """Every file the manifest names is there, unchanged, and passes SQLite's integrity check."""
    backup_dir = Path(backup_dir)
    files = [Copied(f["name"], f["size"], f["sha256"], f["schema"]) for f in read_manifest(backup_dir)["files"]]
    for f in files:
        path = backup_dir / f.name
        if not path.is_file():
            raise BackupError(f"{path} is missing from the backup")
        if _sha256(path) != f.sha256:
            raise BackupError(f"{path} is not the file that was backed up (its sha256 differs)")
        if spool_format.segment_number(path) is not None:
            if spool_format.read_segment(path, 0) is None:
                raise BackupError(f"{path} is not a spool segment")
            continue
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            conn.close()
        if result != "ok":
            raise BackupError(f"{path} fails SQLite's integrity check: {result}")
    return files


def restore(backup_dir: Path, data_dir: Path) -> list[Copied]:
    """Put a verified backup into an empty data directory, then bring every file up to this judge's schema."""
    backup_dir, data_dir = Path(backup_dir), Path(data_dir)
    files = verify(backup_dir)
    for existing in ("judge.sqlite", LEGACY_SPOOL, SPOOL_DIR, "games"):
        if (data_dir / existing).exists():
            raise BackupError(f"{data_dir / existing} exists: restore only into an empty data directory "
                              "(stop the judge and move the old one aside first)")
    (data_dir / "games").mkdir(parents=True, exist_ok=True)
    (data_dir / SPOOL_DIR).mkdir()
    # judge.sqlite goes in last: until it is there, the directory is visibly not a judge's.
    for f in sorted(files, key=lambda f: f.name == "judge.sqlite"):
        destination = data_dir / f.name
        temporary = destination.with_name("." + destination.name + ".restoring")
        shutil.copyfile(backup_dir / f.name, temporary)
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, destination)
    fsync_dir(data_dir / "games")
    fsync_dir(data_dir / SPOOL_DIR)
    fsync_dir(data_dir)
    from .upgrade import upgrade       # imports the games and mail layers; backup itself does not need them
    forget_checked()                   # files put in place of others: every schema is checked again
    forget_mark(data_dir)              # and every file by `judge list` (judge.index_look)
    upgrade(data_dir)
    return files


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_durably(path: Path, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())

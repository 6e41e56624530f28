"""Plain files made durable: what SQLite does for its own files, for the few the judge writes itself."""
from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """A directory's entries (a file made, renamed or removed in it) on disk."""
    fsync_path(path)


def fsync_path(path: Path) -> None:
    """What was written to a file (through any of its descriptors: the sync is the file's), or a
    directory's entries, on disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fingerprint(path: Path) -> str | None:
    """Size and modification time of an SQLite file and of its write-ahead log; None if there is no
    such file. A commit changes the log (or, once checkpointed, the file): an unchanged fingerprint
    means unchanged content."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    try:
        wal = os.stat(f"{path}-wal")
        log = f"{wal.st_size}:{wal.st_mtime_ns}"
    except FileNotFoundError:
        log = "-"
    return f"{st.st_size}:{st.st_mtime_ns}:{log}"


def fingerprints(directory: Path, suffix: str) -> dict[str, str]:
    """`fingerprint` of every file in `directory` whose name ends in `suffix`, by name without it."""
    return {name[:-len(suffix)]: print_ for name, print_ in fingerprinted(directory, suffix)}


def fingerprinted(directory: Path, suffix: str) -> Iterator[tuple[str, str]]:
    """(name, `fingerprint`) of each regular file in `directory` whose name ends in `suffix`, the
    name whole. One listing of the directory, which also says which logs exist: a file without one
    (most, when no judge has it open) costs one stat, not two; each stat is made relative to the
    directory, and nothing else is made per file but its fingerprint's string (`judge list` with
    10,000 games: the stats are most of its time, bench/cli_start.py)."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        return
    try:
        names = os.listdir(fd)
        logs = {name for name in names if name.endswith("-wal")}
        for name in names:
            if not name.endswith(suffix):
                continue
            try:
                st = os.stat(name, dir_fd=fd)
                log = "-"
                if name + "-wal" in logs:
                    wal = os.stat(name + "-wal", dir_fd=fd)
                    log = f"{wal.st_size}:{wal.st_mtime_ns}"
            except FileNotFoundError:   # gone since the listing: as if it had never been there
                continue
            if stat.S_ISREG(st.st_mode):
                yield name, f"{st.st_size}:{st.st_mtime_ns}:{log}"
    finally:
        os.close(fd)

"""Plain files made durable: what SQLite does for its own files, for the few the judge writes itself."""
from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """A directory's entries (a file made, renamed or removed in it) on disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

"""One judge per data directory: an flock on <data>/judge.lock, held while `judge serve` runs.

Two judges on one directory would each release the other's claims and process the same mail.
The lock is the kernel's (flock), so it goes when the process goes, SIGKILL included: no stale
lock to clean up by hand. The file holds the holder's pid, so a second start can say who it is.
Within one process the lock is re-entrant (the CLI takes it before migrating, the daemon again).
"""
from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

LOCK_NAME = "judge.lock"


class DataDirLocked(OSError):
    """Another process holds the data directory."""


class DataDirLock:
    def __init__(self, path: Path, fd: int):
        self.path, self.fd, self.holders = path, fd, 1

    def release(self) -> None:
        with _guard:
            self.holders -= 1
            if self.holders:
                return
            del _held[self.path]
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)


_held: dict[Path, DataDirLock] = {}
_guard = threading.Lock()


def hold(data_dir: str | Path) -> DataDirLock:
    """Take the data directory's lock, or raise DataDirLocked naming the process that has it."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    path = (data_dir / LOCK_NAME).resolve()
    with _guard:
        if path in _held:
            _held[path].holders += 1
            return _held[path]
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o640)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise DataDirLocked(f"{data_dir} is in use by another judge (pid {holder}); "
                                f"stop it first (its lock is {path})") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        lock = _held[path] = DataDirLock(path, fd)
        return lock

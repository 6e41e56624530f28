"""WAL files synced on a thread of their own, for commits made without waiting for the disk.

    with Syncer() as syncer:
        ...commit without a sync (synchronous=NORMAL)...
        syncer.hand(path)           # its log synced soon, beside the caller's work
        ...
        syncer.wait([path])         # before anything says the commit happened (the mail about it)

A commit at SQLite's FULL level waits for its log's sync, about 2 ms on this machine: in a deadline
rush the thread playing the games waited so for every game (issue 27: 2-3 s of 30). A commit at
NORMAL is the same log written without the sync: it survives the process's death, not the machine's.
Here each such file's log is synced on a thread of its own (fsync of the `-wal` file: the one inode
SQLite writes to, whatever descriptor syncs it), and `wait` returns once every file named was synced
after its commit: the caller tells nothing of a commit before (a mail about it is queued only after
this), so a power cut before the sync loses only what nobody was told, which is done again. A log
no longer there was copied into its file and synced by SQLite itself when its last connection closed.
A sync that fails is raised by `wait` for that file, and nothing about it is told.
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from .files import fsync_path


class SyncFailed(OSError):
    """A log could not be synced: what was committed to it is not known to be on disk."""


class Syncer:
    def __init__(self) -> None:
        self._handed: deque[tuple[int, Path]] = deque()
        self._changed = threading.Condition()
        self._next = 1            # the number the next file handed gets
        self._done = 0            # every file handed up to this number has been synced (or failed)
        self._latest: dict[Path, int] = {}     # each file's latest number
        self._failed: dict[Path, OSError] = {}
        self._stop = False
        self._thread = threading.Thread(target=self._work, name="log-syncer", daemon=True)
        self._thread.start()

    def hand(self, path: Path) -> None:
        """Sync `path`'s log (a commit to it was made without waiting for the disk)."""
        with self._changed:
            number = self._next
            self._next += 1
            self._latest[path] = number
            self._handed.append((number, path))
            self._changed.notify_all()

    def handed(self) -> list[Path]:
        """Every file handed so far."""
        with self._changed:
            return list(self._latest)

    def wait(self, paths: Iterable[Path]) -> None:
        """Return once each of `paths` handed so far has been synced; raise SyncFailed if one could not be."""
        paths = list(paths)
        with self._changed:
            numbers = [self._latest[p] for p in paths if p in self._latest]
            self._changed.wait_for(lambda: not numbers or self._done >= max(numbers))
            for p in paths:
                if p in self._failed:
                    raise SyncFailed(f"{p.name}: its log could not be synced: {self._failed[p]}")

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._handed or self._stop)
                if not self._handed:
                    return
                batch = list(self._handed)
                self._handed.clear()
            failed = {}
            for directory in {path.parent for _, path in batch}:    # a log made anew: its name on disk
                try:
                    fsync_path(directory)
                except OSError as e:
                    failed.update({path: e for _, path in batch if path.parent == directory})
            for path in dict.fromkeys(path for _, path in batch):      # each file once, however often handed
                try:
                    fsync_path(Path(f"{path}-wal"))
                except FileNotFoundError:     # closed: copied into the file and synced by SQLite
                    pass
                except OSError as e:
                    failed[path] = e
            with self._changed:
                self._failed.update(failed)
                self._done = max(number for number, _ in batch)
                self._changed.notify_all()

    def close(self) -> None:
        """Sync what was handed, then end the thread."""
        with self._changed:
            self._stop = True
            self._changed.notify_all()
        self._thread.join()

    def __enter__(self) -> Syncer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


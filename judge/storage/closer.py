"""Files closed on a thread of their own, while the thread that opened them goes on.

    with Closer(close) as closer:       # close(path, db): how one file is closed, on the closer's thread
        closer.hand(path, db)           # returns at once (or once the closer has room: at most `most` wait)

Closing a WAL file's last connection copies its log back into the file and syncs it (three syncs): in a
deadline rush the thread playing the games closed a file for every game it opened past the ones kept
open, and waited on the disk each time (issue 27). SQLite and the disk release Python's lock, so a
closer on a thread of its own lets the games go on meanwhile. Leaving the block closes what was handed
before it returns. A file that fails to close is logged; the others are still closed.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Generic, TypeVar

log = logging.getLogger("judge.storage")

Handle = TypeVar("Handle")
_END = None


class Closer(Generic[Handle]):
    def __init__(self, close: Callable[[Path, Handle], None], most: int = 32,
                 ended: Callable[[], None] | None = None) -> None:
        """`ended`: called on the closer's thread after its last file (to close what that thread opened)."""
        self._close, self._ended = close, ended
        self._handed: queue.Queue[tuple[Path, Handle] | None] = queue.Queue(maxsize=most)
        self._thread = threading.Thread(target=self._work, name="file-closer", daemon=True)
        self._thread.start()

    def hand(self, path: Path, handle: Handle) -> None:
        """Close `handle` (the file at `path`) on the closer's thread."""
        self._handed.put((path, handle))

    def _work(self) -> None:
        while (item := self._handed.get()) is not _END:
            path, handle = item
            try:
                self._close(path, handle)
            except Exception:       # (a damaged file): the others are closed still
                log.exception("%s could not be closed", path)
        if self._ended is not None:
            self._ended()

    def close(self) -> None:
        """Close every file handed, then end the thread."""
        self._handed.put(_END)
        self._thread.join()

    def __enter__(self) -> Closer[Handle]:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

"""SMTP intake's spool: each arrival appended to a log file of its own and synced before the 250.

Why a file of its own: judge.sqlite's write lock is held for a whole mail's dispatch, and its
archive keeps de-duplication indexes; a 250 that waited for those would wait tens of milliseconds.
Why not SQLite: a commit of a few messages writes about seven pages (the log's frames, the table's
and the index's pages, their headers) before its sync; here a group commit is one `pwrite` of its
records and one `fdatasync`, into a file made in full beforehand (judge.mail.intake.spool_format), which
is cheap enough to run on the event loop itself (issue 15, item 4; bench/intake.py).

The spool is a directory (`var/spool/`) of numbered segments. This `Spool` is their one writer:
it appends to the newest segment, begun anew at each start, and moves to the next (made in full by
a thread of its own, ahead of time) when a batch does not fit or a write failed. The drain
(judge.mail.intake.spool_drain) reads them into the archive and deletes the segments it has read whole,
except the one being written; it reads that one up to `synced`, what has been synced.
"""
from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from ...storage.files import fsync_dir
from . import spool_format as fmt
from .archive import Arrival
from .message_keys import message_id_of

DIR_NAME = "spool"
SEGMENT_BYTES = 4 << 20         # a segment, made in full: 4 MiB of zeros take a few ms, on the spare's thread
SPARE_SUFFIX = ".tmp"           # a segment made in full, not yet named (no head yet)
_ZEROS = bytes(1 << 20)


def spool_dir(archive_path: str | Path) -> Path:
    """The spool beside the judge file it drains into (<data>/spool/)."""
    return Path(archive_path).with_name(DIR_NAME)


@dataclass(frozen=True)
class Spooled:
    """An arrival committed to the spool: its number there (the 250's) and when."""
    id: int
    received_at: float


class Spool:
    def __init__(self, directory: str | Path, *, sync: bool = True, segment_bytes: int = SEGMENT_BYTES,
                 clock: Callable[[], float] = time.time):
        """`sync`: False only where nothing need survive a crash (tests; synchronous=OFF)."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.sync, self.segment_bytes, self.clock = sync, segment_bytes, clock
        found = fmt.segments(self.directory)
        self._number = found[-1][0] if found else 0
        self._seq = _last_seq(found) + 1
        self._remove_spares()          # (maybe half made, when the judge stopped)
        self._fd: int | None = None
        self._offset = self._size = 0
        self._broken = False
        self._first_at: float | None = None    # when the segment being written got its first record (monotonic)
        self._lock = threading.Lock()   # a write and `close` never overlap (the fd could be another file's next)
        self.synced: tuple[int, int] | None = None   # (segment, offset) up to which it is synced; None: closed
        self._spares = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-spool-spare")
        self._spare: Future[Path] = self._spares.submit(self._make_spare)
        self._roll()

    def close(self) -> None:
        """No more writes: the segment being written is then read whole and deleted by the next drain."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            self.synced = None
        with suppress(OSError):
            self._spare.result()
        self._spares.shutdown(wait=True)
        self._remove_spares()

    def add_many(self, arrivals: list[Arrival]) -> list[Spooled | Exception]:
        """Append the arrivals and sync them; when this returns each `Spooled` may be acknowledged. An
        arrival whose Message-ID cannot be read comes back as its exception (not stored: 554); if the
        disk fails, every stored one comes back as the OSError (451: the client tries again)."""
        now = self.clock()
        outcomes: list[Spooled | Exception] = []
        records: list[bytes] = []
        for a in arrivals:
            try:
                envelope = [now, a.via, a.peer, a.mail_from, list(a.rcpt_tos), message_id_of(a.raw)]
            except Exception as e:   # the caller answers 554: the same bytes fail the same way
                outcomes.append(e)
                continue
            seq, self._seq = self._seq, self._seq + 1
            records.append(fmt.encode(seq, envelope, a.raw))
            outcomes.append(Spooled(seq, now))
        if not records:
            return outcomes
        try:
            with self._lock:
                if self.synced is None:
                    raise OSError("the spool is closed")
                self._write(records)
                if self._first_at is None:
                    self._first_at = time.monotonic()
        except OSError as e:
            self._broken = True     # nothing more is written into that segment: the next batch begins a new one
            return [e if isinstance(o, Spooled) else o for o in outcomes]
        return outcomes

    def age(self) -> float | None:
        """Seconds since the segment being written got its first record (None: it holds none)."""
        first = self._first_at
        return None if first is None else time.monotonic() - first

    def retire_drained(self, number: int, offset: int, older_than: float) -> bool:
        """Move on to a new segment if the one being written is segment `number`, written to `offset` and no
        further (the drain has read it all), and got its first record over `older_than` seconds ago; the
        next drain then deletes it. So mail already in the archive, whose copy there has its passwords
        scrubbed, does not stay in the spool until 4 MiB more mail has come. On the writer's thread."""
        with self._lock:
            age = self.age()
            if self.synced is None or (self._number, self._offset) != (number, offset) \
                    or age is None or age < older_than:
                return False
            try:
                self._roll()
            except OSError:
                self._broken = True     # (the next write tries a new segment again)
                raise
            return True

    def _write(self, records: list[bytes]) -> None:
        if self._broken or self._fd is None:
            self._roll()
        at = 0
        while at < len(records):
            room, end = self._size - self._offset, at
            while end < len(records) and room >= len(records[end]):
                room -= len(records[end])
                end += 1
            if end == at:           # the next record does not fit here
                self._roll(need=len(records[at]))
                continue
            data = b"".join(records[at:end])
            assert self._fd is not None     # (`_roll` opened it)
            _pwrite_all(self._fd, data, self._offset)
            self._offset += len(data)
            at = end
        self._sync()

    def _sync(self) -> None:
        assert self._fd is not None
        if self.sync:
            os.fdatasync(self._fd)
        self.synced = (self._number, self._offset)

    def _roll(self, need: int = 0) -> None:
        """Begin the next segment: the spare, or, for a record bigger than a segment, one made to fit."""
        if self._fd is not None:
            try:
                if not self._broken and self.synced != (self._number, self._offset):
                    self._sync()    # what this batch wrote here is synced before anything is answered
            finally:
                fd, self._fd = self._fd, None
                with suppress(OSError):     # (closed already by a failed disk: nothing of it is used again)
                    os.close(fd)
        self._broken = False
        if fmt.HEAD_SIZE + need > self.segment_bytes:
            spare = self._make_spare(fmt.HEAD_SIZE + need)
        else:
            try:
                spare = self._spare.result()
            finally:        # (a spare that could not be made, say on a full disk, is tried again next time)
                self._spare = self._spares.submit(self._make_spare)
        fd = os.open(spare, os.O_RDWR)
        try:
            _pwrite_all(fd, fmt.head(secrets.token_bytes(16)), 0)
            os.fdatasync(fd)
            number = self._number + 1
            os.rename(spare, self.directory / fmt.segment_name(number))
            fsync_dir(self.directory)   # the name is on disk before any record in it is acknowledged
        except BaseException:
            os.close(fd)
            Path(spare).unlink(missing_ok=True)     # not named yet: a spare nobody will use
            raise
        self._fd, self._number = fd, number
        self._offset, self._size, self._first_at = fmt.HEAD_SIZE, os.fstat(fd).st_size, None
        self.synced = (number, self._offset)

    def _remove_spares(self) -> None:
        for spare in self.directory.glob(f"*{SPARE_SUFFIX}"):
            spare.unlink()

    def _make_spare(self, size: int | None = None) -> Path:
        """A file of zeros, its blocks on disk (so later syncs write data alone), not yet a segment."""
        size = size or self.segment_bytes
        path = self.directory / f"{secrets.token_hex(8)}{SPARE_SUFFIX}"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            for at in range(0, size, len(_ZEROS)):
                _pwrite_all(fd, _ZEROS[:min(len(_ZEROS), size - at)], at)
            os.fsync(fd)
        except BaseException:
            # (a full disk): the part made goes, or every retry would leave another and fill it further
            os.close(fd)
            path.unlink(missing_ok=True)
            raise
        os.close(fd)
        return path


def _last_seq(found: list[tuple[int, Path]]) -> int:
    """The highest number already spooled (the 250's numbers go on rising while mail waits in the spool)."""
    for number, path in reversed(found):
        records = fmt.read_segment(path, number)
        if records:
            return records[-1].seq
    return 0


def _pwrite_all(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        view, offset = view[written:], offset + written

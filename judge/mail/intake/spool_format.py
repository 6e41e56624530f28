"""The bytes of intake's spool: segment files of records, each checked by a CRC, read back to the
first one that does not check.

A segment is a file made in full (zeros) before it is used, so that appending a record and
syncing it changes no file size: fdatasync then writes the data blocks alone, not the file's
metadata (on ext4 here: 0.09 ms against 0.24 ms for a growing file). A segment begins with a
head (a magic string and the segment's random token) and holds records one after the other:

    magic "JSR1" | CRC-32 of the rest | sequence number | length of the envelope | length of the raw bytes
    | the envelope (JSON: time, via, peer, MAIL FROM, recipients, Message-ID) | the raw bytes

(The content hash the archive de-duplicates by is the drain's to work out: a pure function of the
raw bytes, it need not cost the 250 anything.)

A record that was being written when the machine stopped was never acknowledged: its CRC fails,
or its sequence number does not rise, or the zeros begin, and the reading stops there. Nothing
is ever written into a segment after such a point (each start of the judge, and each failed write,
begins a new segment), so what lies beyond it is never read.
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

LEGACY_FILE = "spool.sqlite"    # the spool before the log (an SQLite table): drained once, then removed
HEAD_MAGIC = b"judge-spool-v1\n\0"        # 16 bytes, then the segment's 16-byte random token
HEAD_SIZE = 32
RECORD_MAGIC = b"JSR1"
_RECORD = struct.Struct("<4sIQII")       # magic, crc, sequence number, envelope length, raw length
RECORD_HEAD = _RECORD.size
_CHECKED = struct.Struct("<QII")         # the head's part under the CRC
SUFFIX = ".log"


@dataclass(frozen=True)
class Record:
    """One spooled arrival as read back: its place, its key (the segment's token and its number) and
    the columns the archive stores."""
    segment: int
    offset: int          # where the record begins in its segment
    end: int             # where the next one begins
    seq: int
    key: str
    received_at: float
    via: str
    peer: str | None
    mail_from: str | None
    rcpt_tos: str        # JSON list, as the archive stores it
    message_id: str | None
    raw: bytes


def segment_name(number: int) -> str:
    return f"{number:012d}{SUFFIX}"


def segment_number(path: Path) -> int | None:
    """A segment's number from its file name, or None for a file that is not a segment."""
    stem = path.name[:-len(SUFFIX)] if path.name.endswith(SUFFIX) else ""
    return int(stem) if stem.isdigit() and len(stem) == 12 else None


def segments(directory: Path) -> list[tuple[int, Path]]:
    """The directory's segments, oldest first (numbers rise)."""
    try:
        found = [(segment_number(p), p) for p in Path(directory).iterdir()]
    except FileNotFoundError:
        return []
    return sorted((n, p) for n, p in found if n is not None)


def head(token: bytes) -> bytes:
    assert len(token) == 16
    return HEAD_MAGIC + token


_JSON = json.JSONEncoder(separators=(",", ":"))     # (made once: json.dumps with options makes one a call)


def encode(seq: int, envelope: list[object], raw: bytes) -> bytes:
    meta = _JSON.encode(envelope).encode()
    checked = _CHECKED.pack(seq, len(meta), len(raw))
    crc = zlib.crc32(raw, zlib.crc32(meta, zlib.crc32(checked)))
    return b"".join((_RECORD.pack(RECORD_MAGIC, crc, seq, len(meta), len(raw)), meta, raw))


def read_token(fd: int) -> bytes | None:
    """The segment's token, or None when its head is not a spool segment's."""
    first = os.pread(fd, HEAD_SIZE, 0)
    if len(first) < HEAD_SIZE or not first.startswith(HEAD_MAGIC):
        return None
    return first[len(HEAD_MAGIC):HEAD_SIZE]


def scan(fd: int, number: int, token: bytes, *, start: int = HEAD_SIZE, end: int | None = None,
         after: int | None = None) -> Iterator[Record]:
    """The records of segment `number` (open as `fd`) from `start`, up to `end` (the writer's synced end;
    None: the end of the file), stopping at the first that does not check. `after`: the sequence
    number of the record before `start`, when known (the numbers rise: a copy may leave some out)."""
    if end is None:
        end = os.fstat(fd).st_size
    data = os.pread(fd, max(0, end - start), start) if end > start else b""
    view = memoryview(data)
    at, previous = 0, after
    hex_token = token.hex()
    while at + RECORD_HEAD <= len(data):
        magic, crc, seq, meta_len, raw_len = _RECORD.unpack_from(data, at)
        stop = at + RECORD_HEAD + meta_len + raw_len
        if magic != RECORD_MAGIC or stop > len(data) or (previous is not None and seq <= previous):
            return
        meta = view[at + RECORD_HEAD:at + RECORD_HEAD + meta_len]
        raw = view[at + RECORD_HEAD + meta_len:stop]
        if zlib.crc32(raw, zlib.crc32(meta, zlib.crc32(data[at + 4 + 4:at + RECORD_HEAD]))) != crc:
            return
        try:
            received_at, via, peer, mail_from, rcpt_tos, message_id = json.loads(bytes(meta))
        except (ValueError, TypeError):
            return
        yield Record(number, start + at, start + stop, seq, f"{hex_token}.{seq}", received_at, via, peer,
                     mail_from, json.dumps(rcpt_tos), message_id, bytes(raw))
        at, previous = stop, seq


@contextmanager
def opened_segment(path: Path) -> Iterator[tuple[int, bytes | None] | None]:
    """A segment open for reading with its token (None: not a segment's head), or None if it is gone."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        yield None
        return
    try:
        yield fd, read_token(fd)
    finally:
        os.close(fd)


def read_segment(path: Path, number: int) -> list[Record] | None:
    """Every record of a segment written by no one now (None: not a segment, or gone meanwhile)."""
    with opened_segment(path) as opened:
        if opened is None or opened[1] is None:
            return None
        return list(scan(opened[0], number, opened[1]))


def copy_segment(source: Path, destination: Path, wanted: Callable[[str], bool]) -> bool:
    """Copy a segment's head and the records that check and are `wanted` (by key: a backup leaves out
    those its judge.sqlite copy has), without the zeros after them. False: it is gone (drained
    meanwhile). The copy is read as the original is."""
    with opened_segment(source) as opened:
        if opened is None:
            return False
        fd, token = opened
        if token is None:
            raise ValueError(f"{source} is not a spool segment")
        number = segment_number(source)
        kept = [os.pread(fd, r.end - r.offset, r.offset)
                for r in scan(fd, number if number is not None else 0, token) if wanted(r.key)]
    destination.write_bytes(b"".join([head(token), *kept]))
    return True

"""A palette picture as PNG bytes, packed in bands of rows so a picture over a kept board packs only
the bands its units, orders and legend touch and takes the board's packed bytes for the rest.

    kept = unpacked(height)                             # the board's: each band packed when first needed
    png = png_bytes(entries, palette, kept, touched)    # each picture: `touched` bands packed anew

A PNG's pixels are one zlib stream. Each band is packed as deflate data that ends on a full flush:
what follows refers to nothing before it, so bands packed at different times, in one picture or in
the board's, join into one valid stream (closed by an empty final block and the checksum of all the
rows). On a standard board at S1901 about two bands in five are touched: 4 ms against 9 for Pillow's
encoder at the same level, for 86 KB against 82 (measured 2026-11-27 at load 6, the opening drawn).
A board's bands are packed by the first picture that leaves them untouched (its rows there are the
board's), not all at once: a board painted once (every game its own owners) costs no more than
packing its picture whole.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable

import numpy as np

BAND = 16               # rows a band: fewer pack fewer rows anew, more lose more matches across bands
# zlib's level 3: on a standard board 10 ms against 34 ms for the default 6, for 87 KB against 70 KB
# (Pillow's optimize=True costs 70 ms for 10 % fewer bytes still); a picture is drawn at every deadline
# of every game but stored once for all its recipients. zlib's run-length strategy (Z_RLE) takes two
# thirds of level 3's time, as small on the standard board but 80 % larger on Chaos's (181 KB against
# 100: its owners' striped patterns repeat every few pixels, which only level 3's matches find)
LEVEL = 3
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x5e"     # deflate, 32 KB window, a fast level (its check bits make it a multiple of 31)
LAST_BLOCK = b"\x03\x00"      # an empty final block of fixed codes


def _rows(entries: np.ndarray) -> np.ndarray:
    """Each row as PNG stores it: its filter byte (0: none, as for any palette picture), then its entries."""
    rows = np.zeros((entries.shape[0], entries.shape[1] + 1), dtype=np.uint8)
    rows[:, 1:] = entries
    return rows


def _packed(rows: np.ndarray, touched: Iterable[int], kept: list[bytes | None]) -> list[bytes]:
    """Every band's deflate data: the `touched` packed now, the others `kept`'s (packed now and kept
    when not yet: two painting threads may both pack one, to the same bytes)."""
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)

    def pack(band: int) -> bytes:
        return packer.compress(rows[band * BAND:(band + 1) * BAND].tobytes()) + packer.flush(zlib.Z_FULL_FLUSH)
    anew = set(touched)
    out = []
    for band in range(len(kept)):
        if band in anew:
            out.append(pack(band))
        else:
            piece = kept[band]
            if piece is None:
                piece = kept[band] = pack(band)
            out.append(piece)
    return out


def unpacked(height: int) -> list[bytes | None]:
    """A board's packed bands before any is packed (see `png_bytes`)."""
    return [None] * -(-height // BAND)


def touched_bands(changed: np.ndarray, width: int) -> list[int]:
    """The bands holding the pixels at these flat indices (row-major, `width` pixels a row), which are
    in order (np.flatnonzero's): each band where it first appears, with no sort (numpy's unique sorted
    a picture's ~30,000 changed pixels again, a quarter of a millisecond)."""
    bands = changed // (width * BAND)
    return bands[np.flatnonzero(np.diff(bands, prepend=-1))].tolist()


def png_bytes(entries: np.ndarray, palette: bytes, kept: list[bytes | None], touched: Iterable[int]) -> bytes:
    """The PNG of (height, width) palette `entries` (uint8) with `palette` (red, green, blue of each
    entry): the `touched` bands packed anew, the others taken from `kept`, the board's (`unpacked`),
    or packed and put there: outside `touched` the entries must be the board's."""
    height, width = entries.shape
    rows = _rows(entries)
    stream = b"".join([ZLIB_HEADER, *_packed(rows, touched, kept), LAST_BLOCK,
                       struct.pack(">I", zlib.adler32(rows.tobytes()))])
    # 8-bit palette entries, deflate, no interlace
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join([SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette), _chunk(b"IDAT", stream),
                     _chunk(b"IEND", b"")])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

"""png_bands: a picture packed band by band over a kept board's bands is a valid PNG of exactly its
entries (strictly: every chunk's CRC, zlib's own checksum), whichever bands are packed anew, whether
the board's bands were packed before (by another picture) or are packed now."""
from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from judge.pictures.png_bands import BAND, png_bytes, touched_bands, unpacked


def _chunks(png: bytes) -> dict[bytes, bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(png):
        (length,), kind = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        data = png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + data)
        chunks[kind] = data
        at += 12 + length
    return chunks


HEIGHT, WIDTH = 5 * BAND + 3, 37        # (a last band shorter than the others)


def _picture(board: np.ndarray, bands: list[int], rng: np.random.Generator) -> np.ndarray:
    picture = board.copy()
    for band in bands:                                # a few pixels of each touched band differ
        picture[band * BAND + rng.integers(0, min(BAND, HEIGHT - band * BAND)), rng.integers(0, WIDTH)] = 9
    return picture


def _check(png: bytes, picture: np.ndarray, palette: bytes) -> None:
    chunks = _chunks(png)
    rows = zlib.decompress(chunks[b"IDAT"])             # (checks the stream's adler32)
    assert rows == np.hstack([np.zeros((HEIGHT, 1), np.uint8), picture]).tobytes()
    assert chunks[b"PLTE"] == palette
    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "P" and (np.asarray(image) == picture).all()


@pytest.mark.parametrize("touched", [[], [0], [1, 3], "all"])
def test_bands_packed_over_a_kept_board_make_the_pictures_own_png(touched):
    rng = np.random.default_rng(27)
    board = rng.integers(0, 4, (HEIGHT, WIDTH), dtype=np.uint8)
    palette = bytes(rng.integers(0, 256, 3 * 10, dtype=np.uint8))
    kept = unpacked(HEIGHT)
    first = _picture(board, [2, 5], rng)                # packs the board's bands it leaves untouched
    _check(png_bytes(first, palette, kept, touched_bands(np.flatnonzero(first != board), WIDTH)), first, palette)
    assert [piece is None for piece in kept] == [False, False, True, False, False, True]
    bands = list(range(6)) if touched == "all" else touched
    picture = _picture(board, bands, rng)
    changed = np.flatnonzero(picture != board)
    assert touched_bands(changed, WIDTH) == bands
    _check(png_bytes(picture, palette, kept, touched_bands(changed, WIDTH)), picture, palette)
    assert all(piece is not None for band, piece in enumerate(kept) if band not in bands)   # (now packed too)

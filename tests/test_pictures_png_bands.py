"""png_bands: a picture packed band by band over a kept board's bands is a valid PNG of exactly its
entries (strictly: every chunk's CRC, zlib's own checksum), whichever bands are packed anew."""
from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from judge.pictures.png_bands import BAND, pack_bands, png_bytes, touched_bands


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


@pytest.mark.parametrize("touched", [[], [0], [1, 3], "all"])
def test_bands_packed_over_a_kept_board_make_the_pictures_own_png(touched):
    rng = np.random.default_rng(27)
    height, width = 5 * BAND + 3, 37                 # (a last band shorter than the others)
    board = rng.integers(0, 4, (height, width), dtype=np.uint8)
    picture = board.copy()
    bands = list(range(6)) if touched == "all" else touched
    for band in bands:                                # a few pixels of each touched band differ
        picture[band * BAND + rng.integers(0, min(BAND, height - band * BAND)), rng.integers(0, width)] = 9
    changed = np.flatnonzero(picture != board)
    assert touched_bands(changed, width) == bands
    palette = bytes(rng.integers(0, 256, 3 * 10, dtype=np.uint8))
    png = png_bytes(picture, palette, pack_bands(board), touched_bands(changed, width))
    chunks = _chunks(png)
    rows = zlib.decompress(chunks[b"IDAT"])             # (checks the stream's adler32)
    assert rows == np.hstack([np.zeros((height, 1), np.uint8), picture]).tobytes()
    assert chunks[b"PLTE"] == palette
    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "P" and (np.asarray(image) == picture).all()

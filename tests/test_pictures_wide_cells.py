"""Cell grids of more than 254 provinces (Imperial's 356): two bytes a pixel in cells.png, the label
span and the picture's pixel classes widened with them; every other board's grid one byte a pixel as
before; and what the drawing tools read of Imperial's PostScript form. Fast: synthetic grids and
drawings, and the files' headers only."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from judge.pictures import style
from judge.pictures.atlas import Atlas, cells_path, encode_cells
from judge.pictures.background import paint_background, scaled_cells
from judge.pictures.passages import touching_pairs
from judge.pictures.shapes import MOST_PROVINCES, OPEN_WATER, UNPLAYABLE_LAND, grid_dtype, label_span, open_water


@pytest.mark.parametrize(("count", "span", "dtype"), [
    (1, 256, np.uint8), (254, 256, np.uint8), (255, 512, np.uint16), (356, 512, np.uint16),
    (510, 512, np.uint16), (511, 1024, np.uint16), (MOST_PROVINCES, 8192, np.uint16)])
def test_the_label_span_holds_every_province_and_open_water(count, span, dtype):
    assert label_span(count) == span and grid_dtype(count) is dtype
    assert count < open_water(count) == span - 1          # no province's label is open water's
    assert np.iinfo(dtype).max >= open_water(count)
    assert open_water(254) == OPEN_WATER                  # the one-byte boards keep the label they had


def wide_atlas(count: int, seed: int = 5) -> Atlas:
    """An atlas of `count` provinces on a random grid with both grounds, no geometry."""
    rng = np.random.default_rng(seed)
    labels = np.array([UNPLAYABLE_LAND, open_water(count), *range(1, count + 1)])
    # blocks of 3x3 pixels, so that most pixels are inside a cell and not on its border
    grid = np.kron(rng.choice(labels, size=(40, 60)), np.ones((3, 3), dtype=np.int64)).astype(grid_dtype(count))
    grid.setflags(write=False)
    return Atlas("wide", None, tuple(f"p{i}" for i in range(1, count + 1)), grid, {})


@pytest.mark.parametrize("count", [200, 356])
def test_a_grid_survives_cells_png_and_keeps_its_width_of_pixel(count):
    grid = wide_atlas(count).cells
    with Image.open(io.BytesIO(encode_cells(grid, "print"))) as img:
        assert img.text["fingerprint"] == "print"
        assert img.mode == ("L" if count < 255 else "I;16")
        back = np.array(img)
    assert back.dtype == grid.dtype and (back == grid).all()


@pytest.mark.parametrize("count", [200, 356])
def test_every_pixel_inside_a_cell_is_painted_its_own_provinces_colour(count):
    """Each province its own colour: a label past 255 never takes a stripe's or a border's class."""
    atlas = wide_atlas(count)
    colour = {f"p{i}": (i % 251, i // 251 * 80 + 7, 200 - i % 97) for i in range(1, count + 1)}
    water = frozenset({"p3", f"p{count}"})
    rgb, _ = paint_background(atlas, atlas.width, colour, water)
    cells = atlas.cells.astype(np.int64)
    h, w = cells.shape
    inner = np.zeros(cells.shape, dtype=bool)          # pixels whose eight neighbours share their label
    inner[1:-1, 1:-1] = True
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            inner[1:-1, 1:-1] &= cells[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] == cells[1:-1, 1:-1]
    expected = np.zeros((open_water(count) + 1, 3), dtype=np.uint8)
    expected[UNPLAYABLE_LAND] = style.UNPLAYABLE
    expected[open_water(count)] = style.OPEN_WATER
    for i in range(1, count + 1):
        expected[i] = colour[f"p{i}"]
    assert inner.sum() > 1000
    assert (rgb[inner] == expected[cells[inner]]).all()
    assert {int(v) for v in np.unique(cells)} >= {UNPLAYABLE_LAND, open_water(count), count}


def test_touching_labels_past_255_are_told_apart():
    grid = np.array([[300, 300, 356], [1, 511, 356]], dtype=np.uint16)
    assert touching_pairs(grid) == {(300, 356), (1, 300), (300, 511), (1, 511), (356, 511)}


@pytest.mark.parametrize(("variant_id", "mode"), [("standard", "L"), ("youngstown", "L"), ("imperial", "I;16")])
def test_the_checked_in_cells_are_one_byte_a_pixel_but_imperials(variant_id, mode):
    with Image.open(io.BytesIO(cells_path(variant_id).read_bytes())) as img:
        assert img.mode == mode


def test_a_wide_grid_scales_to_another_picture_width_keeping_its_labels():
    """Pictures of other widths scale the grid (nearest pixel): a 16-bit grid stays one of labels."""
    atlas = wide_atlas(356)
    for width in (90, 360):
        scaled = scaled_cells(atlas, width)
        assert scaled.shape[1] == width and scaled.dtype == atlas.cells.dtype
        assert set(np.unique(scaled).tolist()) <= set(np.unique(atlas.cells).tolist())
        assert scaled.max() > 255


# Imperial's form, cut down: a sea background, numbered outlines closed by S, /Seas naming the water ones
NUMBERED_FORM = """
/ContinentalOutline {
*u
0 0 m 10 0 l 10 10 l 0 10 l
S
2 2 m 4 2 l 4 4 l 2 4 l
S
20 0 m 30 0 l 30 10 l
S
*U
} bd
/MapForm <<
  /PaintProc {
    SeaColor clippath fill
    /Seas [ 1 ] def
    /S { fill } bd
    ContinentalOutline
  } bind
>> def
% # 5 5 |lak|---|Lake Land|
% #   25 5 |rm2|---|Rocky Mountains 2|
"""


def test_imperials_numbered_outlines_are_land_but_the_seas_it_lists():
    from judge.pictures.ps_land import fills

    water_first, painted = fills(NUMBERED_FORM)
    assert water_first
    assert [(water, outline[0], len(outline)) for water, outline in painted] == [
        (False, (0.0, 0.0), 4), (True, (2.0, 2.0), 4), (False, (20.0, 0.0), 3)]


def test_the_map_blocks_places_of_provinces_that_hold_no_unit_are_read():
    from judge.pictures.ps_layout import read_map_places

    assert read_map_places(NUMBERED_FORM) == [(5.0, 5.0, "lak", "Lake Land"), (25.0, 5.0, "rm2", "Rocky Mountains 2")]

"""The map under the units: each province filled, every border drawn, as an RGB array.

Borders come from the cell grid: a pixel is on a border when a neighbour (right or below) has another
label. Land borders and coastlines are drawn two pixels wide, borders between seas one pixel, lighter.

Where the borders and stripes go never changes for a variant at one width, so it is worked out once
(`pixel_classes`, kept in the atlas's cache) as one class per pixel; a picture then only looks up each
class's colour for its position (who owns what, what is frozen): one table lookup per pixel.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from PIL import Image

from . import style
from .atlas import Atlas
from .owners import Pattern
from .shapes import UNPLAYABLE_LAND

# Pixel classes, in blocks of the grid's label span (256 on all but the largest boards, Atlas.span):
# block 0 a cell's label (its fill); block STRIPE a pixel of that cell on a stripe rising to the right
# (its hatch colour when hatched, else its fill), BACK one on a stripe falling to the right, CROSSING
# one on both (an owner's pattern, owners.Pattern, picks which of them take its colour); then the
# three kinds of border, after the last block.
STRIPE, BACK, CROSSING = 1, 2, 3
BLOCKS = 4
LAND_BORDER, SEA_BORDER, COAST = 0, 1, 2   # after the blocks
BORDERS = 3


def class_count(span: int) -> int:
    """How many classes a grid of `span` labels has (1027 for 256: classes fit in 16 bits up to a span of 16384)."""
    return BLOCKS * span + BORDERS


# Which stripe blocks an owner's pattern colours.
PATTERN_CLASSES = {Pattern.PLAIN: (), Pattern.SLASH: (STRIPE, CROSSING), Pattern.BACKSLASH: (BACK, CROSSING),
                   Pattern.CROSS: (STRIPE, BACK, CROSSING)}


def scaled_cells(atlas: Atlas, width: int) -> np.ndarray:
    if width == atlas.width:
        return atlas.cells
    key = ("cells", width)
    if key not in atlas.cache:
        height = round(atlas.height * width / atlas.width)
        grid = np.array(Image.fromarray(atlas.cells).resize((width, height), Image.Resampling.NEAREST))
        grid.setflags(write=False)
        atlas.cache[key] = grid
    return atlas.cache[key]


def pixel_classes(atlas: Atlas, width: int, water: frozenset[str]) -> np.ndarray:
    """(height, width) uint16: each pixel's class (see class_count); cached per width and set of seas."""
    key = ("classes", width, water)
    if key not in atlas.cache:
        atlas.cache[key] = _classes(atlas, width, water)
    return atlas.cache[key]


def _classes(atlas: Atlas, width: int, water: frozenset[str]) -> np.ndarray:
    cells = scaled_cells(atlas, width)
    span = atlas.span
    is_water = np.zeros(span, dtype=bool)
    is_water[atlas.open_water] = True
    for i, pid in enumerate(atlas.provinces, 1):
        is_water[i] = pid in water
    wet = is_water[cells]
    right = np.zeros_like(wet)
    down = np.zeros_like(wet)
    right[:, :-1] = cells[:, :-1] != cells[:, 1:]
    down[:-1, :] = cells[:-1, :] != cells[1:, :]
    edge = right | down
    # the pixel on the other side of each edge too, so land borders and coasts are two pixels wide
    other = np.zeros_like(edge)
    other[:, 1:] |= right[:, :-1]
    other[1:, :] |= down[:-1, :]
    coast_right = np.zeros_like(wet)
    coast_down = np.zeros_like(wet)
    coast_right[:, :-1] = wet[:, :-1] != wet[:, 1:]
    coast_down[:-1, :] = wet[:-1, :] != wet[1:, :]
    coast = coast_right | coast_down
    coast_other = np.zeros_like(coast)
    coast_other[:, 1:] |= coast_right[:, :-1]
    coast_other[1:, :] |= coast_down[:-1, :]

    classes = cells.astype(np.uint16)
    yy, xx = np.indices(cells.shape)
    period = max(4, round(7 * width / 1200))
    rising, falling = ((xx + yy) % period) == 0, ((xx - yy) % period) == 0
    classes[rising & ~falling] += STRIPE * span
    classes[falling & ~rising] += BACK * span
    classes[rising & falling] += CROSSING * span
    borders = BLOCKS * span
    classes[(edge | other) & ~wet] = borders + LAND_BORDER
    classes[edge & wet & ~(coast | coast_other)] = borders + SEA_BORDER
    classes[coast | coast_other] = borders + COAST
    classes.setflags(write=False)
    return classes


def paint_background(atlas: Atlas, width: int, fills: Mapping[str, style.Rgb],
                     water: frozenset[str], hatches: Mapping[str, style.Rgb] | None = None,
                     patterns: Mapping[str, tuple[style.Rgb, Pattern]] | None = None
                     ) -> tuple[np.ndarray, frozenset[style.Rgb]]:
    """fills: province -> colour; water: the sea provinces; hatches: province -> colour of the diagonal
    stripes over it (frozen spaces, impassable provinces); patterns: province -> its owner's colour and
    pattern (where the province has no hatch). Returns the RGB array and every colour in it."""
    classes, palette, colours = paint_classes(atlas, width, fills, water, hatches, patterns)
    return np.take(palette, classes, axis=0), colours


def paint_classes(atlas: Atlas, width: int, fills: Mapping[str, style.Rgb], water: frozenset[str],
                  hatches: Mapping[str, style.Rgb] | None = None,
                  patterns: Mapping[str, tuple[style.Rgb, Pattern]] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, frozenset[style.Rgb]]:
    """`paint_background` before its last step: each pixel's class, each class's colour, the colours.
    A picture's painter uses the classes to name each background pixel's palette entry at once."""
    span = atlas.span
    palette = np.zeros((class_count(span), 3), dtype=np.uint8)
    palette[UNPLAYABLE_LAND] = style.UNPLAYABLE
    palette[atlas.open_water] = style.OPEN_WATER
    for i, pid in enumerate(atlas.provinces, 1):
        palette[i] = fills[pid]
    for block in (STRIPE, BACK, CROSSING):
        palette[block * span:(block + 1) * span] = palette[:span]
    for pid, (colour, pattern) in (patterns or {}).items():
        label = atlas.label(pid)
        for block in PATTERN_CLASSES[pattern]:
            palette[block * span + label] = colour
    for pid, colour in (hatches or {}).items():
        label = atlas.label(pid)
        palette[STRIPE * span + label] = palette[CROSSING * span + label] = colour
        palette[BACK * span + label] = fills[pid]
    borders = BLOCKS * span
    palette[borders + LAND_BORDER] = style.LAND_BORDER
    palette[borders + SEA_BORDER] = style.SEA_BORDER
    palette[borders + COAST] = style.COAST
    classes = pixel_classes(atlas, width, frozenset(water))
    # each colour once, as one number a colour (numpy's unique by rows sorts the 1,027 rows: twenty times slower)
    keys = np.unique(palette[:, 0].astype(np.uint32) << 16 | palette[:, 1].astype(np.uint32) << 8 | palette[:, 2])
    colours = frozenset((int(k) >> 16, (int(k) >> 8) & 255, int(k) & 255) for k in keys)
    return classes, palette, colours

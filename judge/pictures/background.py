"""The map under the units: each province filled, every border drawn, as an RGB array.

Borders come from the cell grid: a pixel is on a border when a neighbour (right or below) has another
label. Land borders and coastlines are drawn two pixels wide, borders between seas one pixel, lighter.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from PIL import Image

from . import style
from .atlas import Atlas
from .shapes import OPEN_WATER, UNPLAYABLE_LAND


def scaled_cells(atlas: Atlas, width: int) -> np.ndarray:
    if width == atlas.width:
        return atlas.cells
    height = round(atlas.height * width / atlas.width)
    return np.array(Image.fromarray(atlas.cells).resize((width, height), Image.Resampling.NEAREST))


def paint_background(atlas: Atlas, width: int, fills: Mapping[str, style.Rgb],
                     water: frozenset[str], hatches: Mapping[str, style.Rgb] | None = None) -> np.ndarray:
    """fills: province -> colour; water: the sea provinces; hatches: province -> colour of the diagonal
    stripes over it (frozen spaces, impassable provinces)."""
    cells = scaled_cells(atlas, width)
    palette = np.zeros((256, 3), dtype=np.uint8)
    is_water = np.zeros(256, dtype=bool)
    palette[UNPLAYABLE_LAND] = style.UNPLAYABLE
    palette[OPEN_WATER] = style.OPEN_WATER
    is_water[OPEN_WATER] = True
    for i, pid in enumerate(atlas.provinces, 1):
        palette[i] = fills[pid]
        is_water[i] = pid in water
    image = palette[cells]

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

    if hatches:
        yy, xx = np.indices(cells.shape)
        stripes = ((xx + yy) % max(4, round(7 * width / 1200))) == 0
        for colour in set(hatches.values()):
            labels = [atlas.label(p) for p, c in hatches.items() if c == colour]
            image[np.isin(cells, labels) & stripes] = colour

    image[(edge | other) & ~wet] = style.LAND_BORDER
    image[edge & wet & ~(coast | coast_other)] = style.SEA_BORDER
    image[coast & ~wet] = style.COAST
    image[coast_other & ~wet] = style.COAST
    image[(coast | coast_other) & wet] = style.COAST
    return image

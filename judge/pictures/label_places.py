"""Where each province's name is drawn: wholly inside its own cell, clear of every place a unit may
stand and of the names already set, as near under its unit as the cell allows.

Each name is a box (its letters, and the supply-centre mark before them). A box fits where every pixel
it covers is free: in the province's own cell, outside the discs round the unit places, and outside
the names set before (with a gap). Where a box fits is read off a summed-area table of the free
pixels over the cell, so every spot of the cell is tried at once; of those, the one nearest the spot
under the unit wins. A cell too small for its name at the full size gets it with the supply-centre
mark above the letters rather than before them, then smaller, a point at a time down to MIN_SHARE of
the size (Kiel, Rome, Apulia on a map of all Europe), and a name with notes under it (a long passage's
far ends) tries all that with its notes, then without them; a cell too small even for that gets the spot
where the name covers the fewest pixels it should not (units' first), after every name that fits, so
that it never takes the room a neighbour's name needs. Smallest cells are named first, since they have
the fewest spots to choose from. (Where a unit stands, leaving room for its name: atlas.roomy_spot.)
Pure: the grid, the sizes and the places in, the places out.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

# The smallest a name is drawn, as a share of the picture's name size: 11 px names go down to 7 px
# (at 8 px Liverpool's and Venice's names would not fit; smaller than 7 wins no cell on any board).
MIN_SHARE = 0.64
UNIT_CLEAR = 0.75    # pixels more than a unit's radius a name keeps from a unit's place (half a pixel's diagonal)
NAME_GAP = 3         # pixels between two names, so that they read as two
INSET = 0.01         # a box starts this far into a pixel, so that rounding never moves it into the one before
# In a cell with no room for its name at the smallest size: what covering a pixel costs
UNDER_UNIT, UNDER_NAME, ASTRAY = 12, 6, 1


class Label(NamedTuple):
    """A name as drawn, in picture pixels: the centre of its box, its half width (mark and letters, the
    halo not counted), its font size."""
    x: float
    y: float
    half_w: float
    size: float
    stacked: bool = False          # a supply centre's mark above the letters rather than before them


class Box(NamedTuple):
    """A name's box at one size, relative to the Label's point (picture pixels): left == -right; `pad`
    of it on every side the letters' halo."""
    left: float
    top: float
    right: float
    bottom: float
    pad: float = 0.0


class Name(NamedTuple):
    province: str
    cell: int                      # its label in the grid
    place: tuple[float, float]     # its unit's place, picture pixels
    boxes: Callable[[float, bool, bool], Box]  # its box at a font size, stacked or not, with its halo or not
    stackable: bool                # a supply centre: its mark may stand above the letters
    # its box without what `boxes` adds under the name (notes naming a long passage's far ends), tried
    # where the whole fits nowhere in the cell (Imperial's islands): the name at least inside it
    bare: Callable[[float, bool, bool], Box] | None = None


def place_labels(cells: np.ndarray, scale: float, names: Sequence[Name], spots: Sequence[tuple[float, float]],
                 size: float, below: float, unit_r: float,
                 taken: Sequence[tuple[float, float, float, float]] = ()) -> dict[str, Label]:
    """Each name's Label. `cells` is the atlas's grid, `scale` picture pixels per grid pixel, `spots`
    every place a unit may stand (picture pixels), `size` the names' font size, `below` how far under
    its unit's place a name's centre would be, `unit_r` a unit's radius, `taken` the boxes (left, top,
    right, bottom: picture pixels) of words drawn whatever the names (a split coast's `sc`), which
    they keep clear of as of each other."""
    height, width = cells.shape
    by_unit = _unit_discs(cells.shape, [(x / scale, y / scale) for x, y in spots], (unit_r + UNIT_CLEAR) / scale)
    by_name = np.zeros(cells.shape, dtype=bool)
    gap = NAME_GAP / scale
    for x0, y0, x1, y1 in taken:
        by_name[max(int(y0 / scale - gap), 0):max(int(math.ceil(y1 / scale + gap)), 0),
                max(int(x0 / scale - gap), 0):max(int(math.ceil(x1 / scale + gap)), 0)] = True
    bounds = _cell_bounds(cells)
    sizes = list(range(round(size), math.floor(size * MIN_SHARE) - 1, -1)) or [round(size)]
    out: dict[str, Label] = {}

    def set_name(name: Name, box: Box, corner: tuple[float, float], font: int, stacked: bool) -> None:
        left, top = corner         # the box's top left corner, grid pixels
        x, y = left * scale - box.left, top * scale - box.top
        out[name.province] = Label(x, y, (box.right - box.left) / 2 - box.pad, float(font), stacked)
        r0, r1 = max(int(top - gap), 0), min(int(math.ceil(top + (box.bottom - box.top) / scale + gap)), height)
        c0, c1 = max(int(left - gap), 0), min(int(math.ceil(left + (box.right - box.left) / scale + gap)), width)
        by_name[r0:r1, c0:c1] = True

    homeless = []
    for name in sorted(names, key=lambda n: (bounds[n.cell][4], n.province)):
        want = _wanted(name, scale, below)
        arrangements = (False, True) if name.stackable else (False,)
        # at each size the mark before the letters, then above them; at the smallest, the halo may go
        ways = [(font, stacked, True) for font in sizes for stacked in arrangements]
        ways += [(sizes[-1], stacked, False) for stacked in arrangements]
        kinds = (name.boxes,) if name.bare is None else (name.boxes, name.bare)
        for boxes, (font, stacked, halo) in itertools.product(kinds, ways):
            box = boxes(font, stacked, halo)
            found = _fit(cells, name.cell, bounds[name.cell], (by_unit, by_name), box, scale, want)
            if found is not None:
                set_name(name, box, found, font, stacked)
                break
        else:
            homeless.append(name)
    # the names no spot of their cell holds go last, so that none takes the room a neighbour's name fits in
    for name in homeless:
        box = (name.bare or name.boxes)(sizes[-1], False, True)
        want = _wanted(name, scale, below)
        set_name(name, box, _least_bad(cells, name.cell, bounds[name.cell], by_unit, by_name, box, scale, want),
                 sizes[-1], False)
    return out


def _wanted(name: Name, scale: float, below: float) -> tuple[float, float]:
    """Where the middle of a name's box would best be, grid pixels: under its unit's place."""
    return name.place[0] / scale, (name.place[1] + below) / scale


def _unit_discs(shape: tuple[int, int], spots: Sequence[tuple[float, float]], radius: float) -> np.ndarray:
    """The pixels whose centres lie within `radius` of a unit's place."""
    out = np.zeros(shape, dtype=bool)
    reach = int(math.ceil(radius)) + 1
    for sx, sy in spots:
        r0, r1 = max(int(sy) - reach, 0), min(int(sy) + reach + 1, shape[0])
        c0, c1 = max(int(sx) - reach, 0), min(int(sx) + reach + 1, shape[1])
        if r0 >= r1 or c0 >= c1:
            continue
        ys, xs = np.mgrid[r0:r1, c0:c1]
        out[r0:r1, c0:c1] |= np.hypot(xs + 0.5 - sx, ys + 0.5 - sy) < radius
    return out


def _cell_bounds(cells: np.ndarray) -> Mapping[int, tuple[int, int, int, int, int]]:
    """label -> (top, left, bottom, right, pixel count) of each cell in the grid, in one pass."""
    flat = cells.ravel()
    order = np.argsort(flat, kind="stable")          # by label, each label's pixels row by row
    counts = np.bincount(flat)
    labels = np.nonzero(counts)[0]
    starts = np.concatenate([[0], np.cumsum(counts[labels])[:-1]])
    ends = starts + counts[labels] - 1
    cols = order % cells.shape[1]
    left, right = np.minimum.reduceat(cols, starts), np.maximum.reduceat(cols, starts)
    top, bottom = order[starts] // cells.shape[1], order[ends] // cells.shape[1]
    return {int(label): (int(top[i]), int(left[i]), int(bottom[i]) + 1, int(right[i]) + 1, int(counts[label]))
            for i, label in enumerate(labels)}


def _window(box: Box, scale: float) -> tuple[int, int]:
    """The whole grid pixels the box covers, set INSET into its top left pixel: height and width."""
    return (int(math.ceil((box.bottom - box.top) / scale + INSET)),
            int(math.ceil((box.right - box.left) / scale + INSET)))


def _sums(grid: np.ndarray, h: int, w: int) -> np.ndarray:
    """The sum of `grid` over each h x w window, indexed by the window's top left pixel."""
    table = np.pad(grid, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    return table[h:, w:] - table[:-h, w:] - table[h:, :-w] + table[:-h, :-w]


def _nearest(ok: np.ndarray, r0: int, c0: int, h: int, w: int, want: tuple[float, float]) -> tuple[float, float]:
    """Of the windows marked ok, the top left corner (grid pixels, the box's own set INSET into it) of
    the one whose middle is nearest `want`."""
    ys, xs = np.nonzero(ok)
    far = np.hypot(xs + c0 + w / 2 - want[0], ys + r0 + h / 2 - want[1])
    best = int(np.argmin(far))
    return float(xs[best] + c0) + INSET, float(ys[best] + r0) + INSET


def _fit(cells: np.ndarray, label: int, bound: tuple[int, ...], blocked: tuple[np.ndarray, ...], box: Box, scale: float,
         want: tuple[float, float]) -> tuple[float, float] | None:
    h, w = _window(box, scale)
    r0, c0, r1, c1 = bound[:4]
    if r1 - r0 < h or c1 - c0 < w:
        return None
    free = cells[r0:r1, c0:c1] == label
    for mask in blocked:
        free &= ~mask[r0:r1, c0:c1]
    ok = _sums(free.astype(np.int32), h, w) == h * w
    return _nearest(ok, r0, c0, h, w, want) if ok.any() else None


def _least_bad(cells: np.ndarray, label: int, bound: tuple[int, ...], by_unit: np.ndarray, by_name: np.ndarray,
               box: Box, scale: float, want: tuple[float, float]) -> tuple[float, float]:
    """Where the box covers the fewest pixels it should not (a unit's worst, then a name, then another
    cell), near the cell: for a cell too small for its name at any size."""
    h, w = _window(box, scale)
    height, width = cells.shape
    r0, c0 = max(bound[0] - 2 * h, 0), max(bound[1] - 2 * w, 0)
    r1, c1 = min(bound[2] + 2 * h, height), min(bound[3] + 2 * w, width)
    cost = UNDER_UNIT * by_unit[r0:r1, c0:c1].astype(np.int32) + UNDER_NAME * by_name[r0:r1, c0:c1] \
        + ASTRAY * (cells[r0:r1, c0:c1] != label)
    sums = _sums(cost, min(h, r1 - r0), min(w, c1 - c0))
    return _nearest(sums == sums.min(), r0, c0, min(h, r1 - r0), min(w, c1 - c0), want)

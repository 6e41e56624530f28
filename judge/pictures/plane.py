"""Boards that are not geography (Pure; boards taken from DPjudge's PostScript drawings).

Such a board's layout.json is a `plane`: each province's place is x and y in the drawing's units.
There is no land mask, so land and water come from the board itself: a spot is land when the
nearest place is a land province's (its main place or a coast), water when it is a sea's. The cells
are then grown over that ground as on a map (`shapes.grow_cells`), so a picture shows only borders
the board has; neighbours whose cells do not meet get a passage line.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ..engine.variant import Variant
from .projection import point

CHUNK = 65_536  # pixels compared with every place at once: bounded memory for 200 places


def nearest_ground(variant: Variant, layout: Mapping) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """`is_land(ys, xs)` for `shapes.land_grid`: is the nearest place a land province's?"""
    places, land = [], []
    for pid, entry in layout["positions"].items():
        on_land = not variant.board.provinces[pid].is_sea
        for where in (entry, *entry.get("coasts", {}).values()):
            places.append(point(where))
            land.append(on_land)
    py, px = (np.array(c, dtype=np.float64) for c in zip(*places, strict=True))
    is_land_place = np.array(land, dtype=bool)

    def is_land(ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        flat_y, flat_x = np.ravel(ys), np.ravel(xs)
        out = np.empty(flat_y.shape, dtype=bool)
        for start in range(0, len(flat_y), CHUNK):
            y, x = flat_y[start:start + CHUNK, None], flat_x[start:start + CHUNK, None]
            out[start:start + CHUNK] = is_land_place[np.argmin((y - py) ** 2 + (x - px) ** 2, axis=1)]
        return out.reshape(np.shape(ys))

    return is_land


def on_own_ground(variant: Variant, layout: Mapping, frame, land: np.ndarray, reach: int = 6) -> np.ndarray:
    """A drawn land mask with every place (main and coasts) on its own ground: a square `reach` pixels
    round a land province's place made land, round a sea's made water, so that no province is left
    without ground to grow on where the drawing's coast, moved with the places, misses its place.
    The provinces layout.json's `room` names (islands, capes and narrow seas the drawing makes too
    small for a unit and its name) first get a disc of their own ground of its `pixels` radius round
    their place: drawn larger, as printed boards draw small islands."""
    out = land.copy()
    height, width = out.shape
    room = layout.get("room", {})
    radius = float(room.get("pixels", 0))
    for pid in room.get("provinces", ()):
        x, y = frame.to_pixel(*point(layout["positions"][pid]), width)
        r0, c0 = max(int(y - radius), 0), max(int(x - radius), 0)
        ys, xs = np.ogrid[r0:min(int(y + radius) + 1, height), c0:min(int(x + radius) + 1, width)]
        disc = (xs + 0.5 - x) ** 2 + (ys + 0.5 - y) ** 2 <= radius ** 2
        out[r0:r0 + disc.shape[0], c0:c0 + disc.shape[1]][disc] = not variant.board.provinces[pid].is_sea
    for pid, entry in layout["positions"].items():
        is_land = not variant.board.provinces[pid].is_sea
        for where in (entry, *entry.get("coasts", {}).values()):
            x, y = frame.to_pixel(*point(where), width)
            out[max(int(y) - reach, 0):min(int(y) + reach + 1, height),
                max(int(x) - reach, 0):min(int(x) + reach + 1, width)] = is_land
    return out

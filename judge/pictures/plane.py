"""Boards that are not geography (Pure; boards taken from DPjudge's PostScript drawings).

Such a board's layout.json is a `plane`: each province's place is x and y in the drawing's units.
Land and water come from DPjudge's own drawing where the board has a land.png (judge.pictures.ps_land),
each place given room of its own kind of ground (`on_own_ground`); else from the board itself: a spot
is land when the nearest place is a land province's (its main place or a coast), water when a sea's.
The cells are then grown over that ground as on a map (`shapes.grow_cells`), so a picture shows only
borders the board has; neighbours whose cells do not meet get a passage line.
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


ROOM_RADIUS = 24   # pixels at 1200: a disc holding a unit's disc and a short name under it
ROOM_BELOW = 6     # the disc's centre this far below the place, as the name goes under the unit


def on_own_ground(variant: Variant, layout: Mapping, frame, land: np.ndarray, reach: int = 6) -> np.ndarray:
    """A drawn land mask with every place on its own ground. Each province's place gets a disc of its
    own kind of ground (land for a land province, water for a sea) with room for its unit and name:
    DPjudge's coasts, moved with the spread places, can leave a coastal province a sliver of land
    (Youngstown's Britain, Japan and Italy) where the name has no room though the places do, so the
    name was pushed out of its cell. The disc is at most 0.45 of the way to the nearest other place,
    so two provinces' discs never meet. The provinces layout.json's `room` names (islands, capes and
    narrow seas the drawing makes too small for a unit and its name) then get a disc of their own
    ground of its `pixels` radius round their place (`larger` gives some of them a radius of their own:
    an island with far-end notes beside its name): drawn larger, as printed boards draw small islands.
    A split coast's place gets a square `reach` pixels round."""
    out = land.copy()
    height, width = out.shape
    scale = width / 1200
    mains = [(frame.to_pixel(*point(entry), width), not variant.board.provinces[pid].is_sea)
             for pid, entry in layout["positions"].items()]
    xy = np.array([at for at, _ in mains], dtype=np.float64)
    apart = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    np.fill_diagonal(apart, np.inf)
    for ((x, y), is_land), nearest in zip(mains, apart.min(axis=1), strict=True):
        radius = min(ROOM_RADIUS * scale, 0.45 * nearest)
        cy = y + min(ROOM_BELOW * scale, radius / 4)
        y0, y1 = max(int(cy - radius), 0), min(int(cy + radius) + 1, height)
        x0, x1 = max(int(x - radius), 0), min(int(x + radius) + 1, width)
        ys, xs = np.ogrid[y0:y1, x0:x1]
        out[y0:y1, x0:x1][(ys - cy) ** 2 + (xs - x) ** 2 <= radius ** 2] = is_land
    room = layout.get("room", {})
    larger = room.get("larger", {})
    for pid in room.get("provinces", ()):
        given = float(larger.get(pid, room.get("pixels", 0)))
        x, y = frame.to_pixel(*point(layout["positions"][pid]), width)
        r0, c0 = max(int(y - given), 0), max(int(x - given), 0)
        ys, xs = np.ogrid[r0:min(int(y + given) + 1, height), c0:min(int(x + given) + 1, width)]
        disc = (xs + 0.5 - x) ** 2 + (ys + 0.5 - y) ** 2 <= given ** 2
        out[r0:r0 + disc.shape[0], c0:c0 + disc.shape[1]][disc] = not variant.board.provinces[pid].is_sea
    for pid, entry in layout["positions"].items():
        is_land = not variant.board.provinces[pid].is_sea
        for where in (entry, *entry.get("coasts", {}).values()):
            x, y = frame.to_pixel(*point(where), width)
            out[max(int(y) - reach, 0):min(int(y) + reach + 1, height),
                max(int(x) - reach, 0):min(int(x) + reach + 1, width)] = is_land
    return out

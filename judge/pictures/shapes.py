"""Province shapes: cells grown over a land mask from every province's points.

Each province grows from its main place, its coasts and its seeds, over its own kind of ground
(land provinces over land, seas over water), nearest first, at most LAND_REACH_KM (or its
layout entry's `reach_km`) from its nearest point. A pixel joins a province only if every
province already touching it (by land or across the shore) is a neighbour on the board, and inland
provinces never take a pixel on the shore: so the picture shows no border the board does not have,
and no coast an inland province lacks. Land no province reaches stays unplayable land (Ireland and
Corsica on the standard map, Arabia beyond LAND_REACH_KM); water no sea reaches is open water.

Pure: the caller passes the land mask; `judge.pictures.build_cells` supplies it from global-land-mask.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Mapping

import numpy as np

from ..engine.geography import Terrain
from ..engine.variant import Variant
from .projection import Frame, layout_points

# Label values in a cell grid: provinces are 1..N in sorted id order, unplayable land 0, open water
# the last label of the grid's span (`label_span`): 255 on every board of up to 254 provinces.
UNPLAYABLE_LAND = 0
OPEN_WATER = 255
# The most provinces a grid holds: a span of 8192 labels, so that a picture's pixel classes (four
# blocks of the span and the borders, judge.pictures.background) still fit in 16 bits.
MOST_PROVINCES = 8190

# How far (km) a land province may reach from its nearest own point: far enough to run off the
# picture's edge, short enough that a far continent (Arabia, Siberia) does not join the board.
LAND_REACH_KM = 2500.0


def label_span(count: int) -> int:
    """How many label values a grid of `count` provinces has (its last is open water): 256, one byte a
    pixel, for up to 254 provinces (so those boards' cells.png and painting stay as they were), else
    the next power of two, two bytes a pixel (Imperial's 356 provinces: 512)."""
    return 256 if count < OPEN_WATER else 1 << (count + 1).bit_length()


def open_water(count: int) -> int:
    """The label of water no sea reaches in a grid of `count` provinces."""
    return label_span(count) - 1


def grid_dtype(count: int) -> type[np.unsignedinteger]:
    """The grid's pixel type for `count` provinces: one byte up to 254, else two."""
    return np.uint8 if label_span(count) <= 256 else np.uint16


def province_order(variant: Variant) -> tuple[str, ...]:
    """The province ids whose labels are 1, 2, ... in a cell grid."""
    ids = tuple(sorted(variant.board.provinces))
    if len(ids) > MOST_PROVINCES:
        raise ValueError(f"{variant.name} has {len(ids)} provinces; a cell grid holds at most {MOST_PROVINCES}")
    return ids


def province_points(layout: Mapping) -> dict[str, list[tuple[float, float]]]:
    """Every lat/lon point of each province (y/x on a plane): main place, coasts, seeds."""
    return layout_points(layout)


def land_grid(frame: Frame, width: int, is_land) -> np.ndarray:
    """Sample `is_land(lats, lons)` (arrays of degrees) at every pixel centre of the frame."""
    height = frame.height_for(width)
    px, py = np.meshgrid(np.arange(width) + 0.5, np.arange(height) + 0.5)
    lat, lon = frame.projection.inverse_arrays(frame.west_km + px * frame.width_km / width,
                                               frame.north_km - py * frame.width_km / width)
    return np.asarray(is_land(lat, lon), dtype=bool)


def _shore(land: np.ndarray) -> np.ndarray:
    """Land pixels with water among their eight neighbours."""
    padded = np.pad(land, 1, mode="edge")
    h, w = land.shape
    water_near = np.zeros_like(land)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            water_near |= ~padded[dy:dy + h, dx:dx + w]
    return land & water_near


def _nearest_of_ground(ground: np.ndarray, want: bool, x: int, y: int, limit: int = 40) -> tuple[int, int] | None:
    h, w = ground.shape
    for r in range(limit + 1):
        best = None
        for yy in range(max(0, y - r), min(h, y + r + 1)):
            for xx in range(max(0, x - r), min(w, x + r + 1)):
                if max(abs(yy - y), abs(xx - x)) == r and ground[yy, xx] == want:
                    d = (yy - y) ** 2 + (xx - x) ** 2
                    if best is None or d < best[0]:
                        best = (d, xx, yy)
        if best:
            return best[1], best[2]
    return None


def grow_cells(variant: Variant, layout: Mapping, frame: Frame, land: np.ndarray) -> np.ndarray:
    """The cell grid (the land mask's shape; `grid_dtype`): each pixel's province label, or one of the two grounds."""
    board = variant.board
    h, w = land.shape
    order = province_order(variant)
    label_of = {pid: i + 1 for i, pid in enumerate(order)}
    km = frame.km_per_pixel(w)
    points = province_points(layout)
    pixels = {pid: [frame.to_pixel(la, lo, w) for la, lo in pts] for pid, pts in points.items()}

    # Seas fill all the water they reach; land stops at LAND_REACH_KM.
    reach = {label_of[p]: (math.inf if prov.is_sea else LAND_REACH_KM / km) for p, prov in board.provinces.items()}
    # A province may be kept smaller than its land (Switzerland, so Burgundy keeps the Jura)
    for pid, entry in layout["positions"].items():
        if "reach_km" in entry:
            reach[label_of[pid]] = entry["reach_km"] / km
    allowed = {label_of[p]: frozenset(label_of[n] for n in board.neighbours(p)) for p in board.provinces}
    inland = {label_of[p] for p, prov in board.provinces.items() if prov.terrain is Terrain.LAND}
    is_sea = {label_of[p] for p, prov in board.provinces.items() if prov.is_sea}

    flat_land = land.ravel().tolist()
    flat_shore = _shore(land).ravel().tolist()
    labels = [0] * (h * w)  # 0: nobody yet
    heap: list[tuple[float, int, int]] = []
    for pid, pts in pixels.items():
        lab = label_of[pid]
        want_land = lab not in is_sea
        for fx, fy in pts:
            x, y = min(max(int(fx), 0), w - 1), min(max(int(fy), 0), h - 1)
            spot = _nearest_of_ground(land, want_land, x, y)
            if spot is not None:
                heapq.heappush(heap, (0.0, spot[1] * w + spot[0], lab))

    near = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    # Knight's moves too: sixteen directions make round fronts and straight borders, not octagons.
    steps = [(dx, dy, math.hypot(dx, dy)) for dx in range(-2, 3) for dy in range(-2, 3)
             if (dx or dy) and math.gcd(dx, dy) == 1]
    while heap:
        dist, p, lab = heapq.heappop(heap)
        if labels[p]:
            continue
        y, x = divmod(p, w)
        if lab in inland and flat_shore[p]:
            continue
        ok = True
        mine = allowed[lab]
        ground = flat_land[p]
        # Across the shore too: a sea touches only the coasts it borders, and a coast only its seas.
        for dx, dy in near:
            xx, yy = x + dx, y + dy
            if 0 <= xx < w and 0 <= yy < h:
                q = yy * w + xx
                other = labels[q]
                if other and other != lab and other not in mine:
                    ok = False
                    break
        if not ok:
            continue
        labels[p] = lab
        limit = reach[lab]
        for dx, dy, cost in steps:
            xx, yy = x + dx, y + dy
            if 0 <= xx < w and 0 <= yy < h:
                q = yy * w + xx
                nd = dist + cost
                if not labels[q] and flat_land[q] == ground and nd <= limit:
                    heapq.heappush(heap, (nd, q, lab))

    grid = np.array(labels, dtype=grid_dtype(len(order))).reshape(h, w)
    nobody = grid == 0
    grid[nobody & ~land] = open_water(len(order))
    grid[nobody & land] = UNPLAYABLE_LAND
    return grid


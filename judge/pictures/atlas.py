"""A variant's picture geometry, loaded once and then only read: frame, cell grid, where things go.

The cell grid is precomputed by `python -m judge.pictures.build_cells VARIANT` into
`judge/variants/<id>/cells.png` (labels, see `shapes`: 8-bit grey for up to 254 provinces, 16-bit
grey beyond, Imperial's 356). It carries a fingerprint of the data it was grown from; if the file is
missing or stale the grid is grown again here, from the variant's own data and the land mask, so a
new variant gets pictures without any extra step (slowly: the land mask takes seconds and a gigabyte
to load, hence the file).
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Mapping

import numpy as np
from PIL import Image, PngImagePlugin

from ..engine.geography import Terrain
from ..engine.variant import Variant
from .owners import Pattern, distinct_owners
from .passages import Passage, find_passages
from .projection import Frame, is_plane, point
from .shapes import grid_dtype, label_span, open_water, province_order

log = logging.getLogger("judge.pictures")

CELLS_WIDTH = 1200  # the grid's width in pixels; pictures of other widths scale it
# Raise when the way cells are grown or framed changes, so that every cells.png counts as stale.
CELLS_VERSION = 2
# A unit stands this far (pixels at CELLS_WIDTH) inside its province's cell where the cell has room:
# a unit's disc (style.UNIT_RADIUS) and a little more.
ROOM = 11
UNIT_ROOM = 9  # the depth (half a square's side) that holds a unit's disc, style.UNIT_RADIUS
# A fleet on a shore stands this many pixels (at CELLS_WIDTH) from its sea: its hull's middle on land,
# its bow over the water.
SHORE = (5, 9)
# Room a unit leaves in its cell for its name (pixels at CELLS_WIDTH): a three-letter supply centre's
# name at its smallest (label_places.MIN_SHARE of style.LABEL_SIZE, 7 px), its halo counted, with the
# centre's mark before the letters (wide) or above them (tall); another province's name, its letters
# alone; and how far from the unit's place it must lie (style.UNIT_RADIUS and label_places.UNIT_CLEAR).
NAME_ROOM = ((31, 11), (20, 17))
PLAIN_NAME_ROOM = ((23, 7),)
NAME_CLEAR = 9.75


# A picture's width when none is asked for, and the share of their size units, marks and names are
# drawn at: layout.json's `picture` may say otherwise for its board (`picture_size`).
PICTURE_WIDTH = 1200
SYMBOLS = 1.0


# layout.json's `owners` for a board with more powers than colours that stand apart (judge.pictures.owners)
COLOUR_AND_PATTERN = "colour and pattern"


class NoLayout(ValueError):
    """The variant has no layout.json, so it cannot be drawn."""


def _own_layout(variant_id: str) -> dict | None:
    path = resources.files("judge") / "variants" / variant_id / "layout.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def board_home(variant_id: str) -> str:
    """The variant whose layout.json and cells.png draw this one: itself, or the one its layout.json
    names as `board_of` (the standard map's, for Chaos, Fleet Rome, 1898 and the absent-power games:
    the same board, so the same cells and the same fingerprint)."""
    own = _own_layout(variant_id)
    return own["board_of"] if own and "board_of" in own else variant_id


def has_layout(variant_id: str) -> bool:
    return (resources.files("judge") / "variants" / variant_id / "layout.json").is_file()


def load_layout(variant_id: str) -> dict:
    own = _own_layout(variant_id)
    if own is None:
        raise NoLayout(f"the {variant_id} variant has no layout.json (each province's latitude and longitude), "
                       f"so it cannot be drawn; add judge/variants/{variant_id}/layout.json")
    if "board_of" in own:  # the other board's geometry; this variant's own colours, owners, picture size if any
        base = load_layout(own["board_of"])
        return {**base, "colours": {**base.get("colours", {}), **own.get("colours", {})},
                **{k: own[k] for k in ("owners", "picture") if k in own}}
    return own


def power_colours(variant: Variant, layout: Mapping | None = None) -> Mapping[str, tuple[int, int, int]]:
    """Each power's colour in pictures: the variant's own, unless the layout names another because
    the variant's would not stand apart from land, sea or another power (white Russia, sky-blue France
    on a sky-blue sea)."""
    from .style import hex_rgb

    if layout is None:
        layout = load_layout(variant.id) if has_layout(variant.id) else {}
    if layout.get("owners") == COLOUR_AND_PATTERN:
        return distinct_owners(variant)[0]
    named = layout.get("colours", {})
    return MappingProxyType({p.id: hex_rgb(named.get(p.id, p.colour)) for p in variant.powers})


def picture_size(layout: Mapping) -> tuple[int, float]:
    """(width, symbols): how wide the board's pictures are drawn unless a width is asked for, and the
    share of their usual size (style's, scaled with the width) its units, centres and names take.
    A world of 356 provinces (Imperial) is drawn wider with smaller symbols, so that its cells, grown
    at CELLS_WIDTH and scaled up with the picture, hold a unit and its name at sizes still read easily."""
    own = layout.get("picture", {})
    return int(own.get("width", PICTURE_WIDTH)), float(own.get("symbols", SYMBOLS))


def power_patterns(variant: Variant, layout: Mapping) -> Mapping[str, Pattern]:
    """Each power's pattern over the land it owns: only for a layout whose `owners` is "colour and
    pattern" (more powers than colours that stand apart: Chaos); else none."""
    if layout.get("owners") == COLOUR_AND_PATTERN:
        return distinct_owners(variant)[1]
    return MappingProxyType({})


def fingerprint(variant: Variant, layout: Mapping) -> str:
    """Everything a cell grid depends on: the layout, and each province's kind of ground and neighbours."""
    board = variant.board
    data = {
        "layout": {k: layout[k] for k in ("projection", "positions")},
        "width": CELLS_WIDTH,
        "version": CELLS_VERSION,
        "board": {p: [prov.terrain.value, sorted(board.neighbours(p))] for p, prov in sorted(board.provinces.items())},
    }
    drawn = land_path(variant.id)
    if drawn.is_file():   # the ground DPjudge's drawing gives (else the places give it: nothing more to add)
        data["land"] = hashlib.sha256(drawn.read_bytes()).hexdigest()
    if "room" in layout:  # small provinces drawn larger (judge.pictures.plane.on_own_ground)
        data["room"] = layout["room"]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def land_path(variant_id: str):
    """A plane board's land and water as DPjudge draws them (judge.pictures.ps_land), if it has them."""
    return resources.files("judge") / "variants" / board_home(variant_id) / "land.png"


def cells_path(variant_id: str):
    return resources.files("judge") / "variants" / board_home(variant_id) / "cells.png"


def encode_cells(grid: np.ndarray, print_: str) -> bytes:
    info = PngImagePlugin.PngInfo()
    info.add_text("fingerprint", print_)
    out = io.BytesIO()
    # one byte a pixel ("L") or two ("I;16", Imperial's 356 provinces): PNG's grey of 8 or 16 bits
    image = Image.fromarray(grid, mode="L") if grid.dtype == np.uint8 else Image.fromarray(grid.astype("<u2"))
    image.save(out, format="PNG", optimize=True, pnginfo=info)
    return out.getvalue()


def grow_from_mask(variant: Variant, layout: Mapping, frame: Frame) -> np.ndarray:
    from .shapes import grow_cells, land_grid

    if is_plane(layout):  # no geography: land and water from DPjudge's drawing, else the board's own points
        from .plane import nearest_ground, on_own_ground

        drawn = land_path(variant.id)
        if drawn.is_file():
            with Image.open(io.BytesIO(drawn.read_bytes())) as img:
                land = on_own_ground(variant, layout, frame, np.array(img.convert("1"), dtype=bool))
        else:
            land = land_grid(frame, CELLS_WIDTH, nearest_ground(variant, layout))
        return grow_cells(variant, layout, frame, land)
    from global_land_mask import globe  # loads the 1 km world mask: seconds and about a gigabyte

    land = land_grid(frame, CELLS_WIDTH, globe.is_land)
    return grow_cells(variant, layout, frame, land)


@dataclass(frozen=True, eq=False)
class Atlas:
    """Read-only geometry of one variant's pictures, at the grid's own width."""
    variant_id: str
    frame: Frame
    provinces: tuple[str, ...]           # province with label i + 1
    cells: np.ndarray                    # (height, width) labels (shapes.grid_dtype), read-only
    # Where to draw at CELLS_WIDTH: a province's unit and name (its main place, moved inside the cell
    # when that is near the cell's edge), and each split coast's place ("spa/nc").
    places: Mapping[str, tuple[float, float]]
    passages: tuple[Passage, ...] = ()   # neighbours whose cells do not touch: straits and canals
    colours: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)  # power -> its colour (`power_colours`)
    # Where a fleet stands in a coastal province with one coast: on the shore nearest its place
    # (Ankara's fleet on the Black Sea, not in Ankara); missing where the place is on the shore already.
    fleet_places: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    # power -> the pattern over the land it owns (a board of many powers, `power_patterns`); else empty
    patterns: Mapping[str, Pattern] = field(default_factory=dict)
    picture_width: int = PICTURE_WIDTH   # the pictures' width unless one is asked for (`picture_size`)
    symbols: float = SYMBOLS             # the share of their usual size units, centres and names are drawn at
    # What every picture at one width shares, made on first use (the background's pixel classes, where
    # names go): key -> value, never changed once set, so threads may fill it side by side.
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def width(self) -> int:
        return self.cells.shape[1]

    @property
    def height(self) -> int:
        return self.cells.shape[0]

    def label(self, province: str) -> int:
        return self.provinces.index(province) + 1

    @property
    def span(self) -> int:
        """How many label values the grid has (shapes.label_span): 256 on all but the largest boards."""
        return label_span(len(self.provinces))

    @property
    def open_water(self) -> int:
        """The label of water no sea reaches (shapes.open_water)."""
        return open_water(len(self.provinces))


def load_atlas(variant: Variant) -> Atlas:
    layout = load_layout(variant.id)
    frame = Frame.from_layout(layout)
    wanted = fingerprint(variant, layout)
    path = cells_path(variant.id)
    grid = None
    if path.is_file():
        with Image.open(io.BytesIO(path.read_bytes())) as img:
            if img.text.get("fingerprint") == wanted:
                grid = np.array(img).astype(grid_dtype(len(province_order(variant))), copy=False)
            else:
                log.warning("%s is stale (map data changed): growing the cells again; "
                            "run python -m judge.pictures.build_cells %s", path, variant.id)
    if grid is None:
        grid = grow_from_mask(variant, layout, frame)
    grid.setflags(write=False)
    places: dict[str, tuple[float, float]] = {}
    order = province_order(variant)
    # every label's pixels in one pass: flat indices sorted by label, cut at each label's count
    flat = np.argsort(grid, axis=None, kind="stable")
    ends = np.cumsum(np.bincount(grid.ravel(), minlength=label_span(len(order))))
    for pid, entry in layout["positions"].items():
        label = order.index(pid) + 1
        ys, xs = np.divmod(flat[ends[label - 1]:ends[label]], grid.shape[1])
        rooms = NAME_ROOM if variant.board.provinces[pid].supply_centre else PLAIN_NAME_ROOM
        places[pid] = roomy_spot(ys, xs, frame.to_pixel(*point(entry), CELLS_WIDTH), rooms)
        for coast, where in entry.get("coasts", {}).items():
            places[f"{pid}/{coast}"] = frame.to_pixel(*point(where), CELLS_WIDTH)
    fleets = {}
    for pid, province in variant.board.provinces.items():
        if province.terrain is Terrain.COAST and not province.coasts:
            label = order.index(pid) + 1
            ys, xs = np.divmod(flat[ends[label - 1]:ends[label]], grid.shape[1])
            seas = [order.index(n) + 1 for n in variant.board.neighbours(pid) if variant.board.provinces[n].is_sea]
            spot = shore_spot(grid, ys, xs, label, seas, places[pid])
            if spot is not None:
                fleets[pid] = spot
    return Atlas(variant.id, frame, order, grid, MappingProxyType(places), find_passages(variant, grid, order),
                 power_colours(variant, layout), MappingProxyType(fleets), power_patterns(variant, layout),
                 *picture_size(layout))


def shore_spot(grid: np.ndarray, ys: np.ndarray, xs: np.ndarray, label: int, seas: list[int],
               place: tuple[float, float]) -> tuple[float, float] | None:
    """Where a fleet of the cell made of pixels (ys, xs) stands: the pixel nearest `place` that is
    SHORE[0] to SHORE[1] pixels from one of its seas and at least SHORE[0] from any other land; None
    when `place` is that near its seas already (or the cell has no such pixel)."""
    if len(xs) == 0 or not seas:
        return None
    near, far = SHORE
    margin = far + 2
    y0, x0 = max(int(ys.min()) - margin, 0), max(int(xs.min()) - margin, 0)
    box = grid[y0:int(ys.max()) + margin + 1, x0:int(xs.max()) + margin + 1]
    to_sea = _steps_to(np.isin(box, seas), far + 1)
    to_land = _steps_to((box != label) & ~np.isin(box, seas), near)
    px, py = int(place[0]) - x0, int(place[1]) - y0
    if 0 <= py < box.shape[0] and 0 <= px < box.shape[1] and to_sea[py, px] <= far:
        return None
    good = (box == label) & (to_sea >= near) & (to_sea <= far) & (to_land >= near)
    if not good.any():
        good = (box == label) & (to_sea <= far)
    gy, gx = np.nonzero(good)
    if len(gx) == 0:
        return None
    best = int(np.argmin(np.hypot(gx + 0.5 - px, gy + 0.5 - py)))
    return float(gx[best] + x0 + 0.5), float(gy[best] + y0 + 0.5)


def _steps_to(mask: np.ndarray, limit: int) -> np.ndarray:
    """Each pixel's distance in 8-neighbour steps to `mask`, capped at `limit`."""
    steps = np.full(mask.shape, limit, dtype=np.int16)
    reached = mask.copy()
    for step in range(limit):
        steps[reached & (steps == limit)] = step
        grown = reached.copy()
        grown[1:, :] |= reached[:-1, :]
        grown[:-1, :] |= reached[1:, :]
        grown[:, 1:] |= grown[:, :-1].copy()
        grown[:, :-1] |= grown[:, 1:].copy()
        reached = grown
    return steps


def roomy_spot(ys: np.ndarray, xs: np.ndarray, place: tuple[float, float],
               rooms: tuple[tuple[int, int], ...] = NAME_ROOM) -> tuple[float, float]:
    """Where a unit of the cell made of pixels (ys, xs) stands: near `place`, but inside the cell by
    up to ROOM pixels. Each pixel scores its depth in the cell (the half side of the square round it
    inside the cell, capped at ROOM) less a third of its distance from `place`: a unit on the shore at
    Edinburgh or Constantinople moves inland, clear of the borders; Naples's stays out of Sicily.
    Pixels deep enough for a unit (UNIT_ROOM, or nearly the cell's deepest) come first; where the
    unit would leave no room for its name there (`rooms`, each a box's width and height: NAME_ROOM for
    a supply centre's, PLAIN_NAME_ROOM for another's), the spots that leave it come before them
    (Constantinople's army moves up its Asian shore, its name goes under it)."""
    if len(xs) == 0:
        return place
    y0, x0 = ys.min() - 1, xs.min() - 1
    inside = np.zeros((ys.max() - y0 + 2, xs.max() - x0 + 2), dtype=bool)
    inside[ys - y0, xs - x0] = True
    depth = np.zeros(inside.shape, dtype=np.int16)
    for _ in range(ROOM):
        depth += inside
        shrunk = inside.copy()
        shrunk[1:, :] &= inside[:-1, :]
        shrunk[:-1, :] &= inside[1:, :]
        shrunk[:, 1:] &= shrunk[:, :-1].copy()
        shrunk[:, :-1] &= shrunk[:, 1:].copy()
        if not shrunk.any():
            break
        inside = shrunk
    py, px = np.nonzero(depth)
    cx, cy = px + x0 + 0.5, py + y0 + 0.5
    score = depth[py, px] - np.hypot(cx - place[0], cy - place[1]) / 3
    # where the cell has room for a unit's disc somewhere, the unit stands in such room (Athens is
    # on a cape too narrow for it); in a cell too small for it, near the most room there is
    room = min(UNIT_ROOM, int(depth.max()) - 1)
    score[depth[py, px] >= room] += 10_000
    best = int(np.argmax(score))
    cell = depth > 0
    if _leaves_name_room(cell, cx[best] - x0, cy[best] - y0, rooms):
        return float(cx[best]), float(cy[best])
    # no room there for the name beside the unit (Edinburgh, Constantinople): a spot deep enough, or a
    # pixel less, that leaves room comes first (the unit moves along its cell, its name takes the room)
    enough = np.flatnonzero(depth[py, px] >= min(UNIT_ROOM, int(depth.max())) - 1)
    enough = enough[np.argsort(-score[enough], kind="stable")]
    windows = _name_windows(cell, rooms)
    for start in range(0, len(enough) if windows else 0, 256):   # best first: the first block with room
        block = enough[start:start + 256]                         # holds the best
        roomy = _clear_of(windows, cx[block] - x0, cy[block] - y0)
        if roomy.any():
            best = int(block[np.argmax(roomy)])
            break
    return float(cx[best]), float(cy[best])


def _leaves_name_room(cell: np.ndarray, x: float, y: float, rooms: tuple[tuple[int, int], ...]) -> bool:
    """Whether one of the `rooms` boxes fits wholly inside the cell (the grid `cell`, True inside), NAME_CLEAR
    or more from the unit place (x, y) and beside it: one place, so its disc is taken out of the cell
    round it (cheap on a wide sea's cell)."""
    reach = int(NAME_CLEAR + max(max(w, h) for w, h in rooms)) + 1    # a name beside the unit, not far off
    r0, c0 = max(int(y) - reach, 0), max(int(x) - reach, 0)
    cell = cell[r0:int(y) + reach + 1, c0:int(x) + reach + 1]
    ys, xs = np.mgrid[r0:r0 + cell.shape[0], c0:c0 + cell.shape[1]]
    free = cell & (np.hypot(xs + 0.5 - x, ys + 0.5 - y) >= NAME_CLEAR)
    table = np.pad(free.astype(np.int32), ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    return any(table.shape[0] > h and table.shape[1] > w
               and bool(((table[h:, w:] - table[:-h, w:] - table[h:, :-w] + table[:-h, :-w]) == w * h).any())
               for w, h in rooms)


Windows = list[tuple[np.ndarray, np.ndarray, int, int]]     # per box: its spots' tops and lefts, its width and height


def _name_windows(cell: np.ndarray, rooms: tuple[tuple[int, int], ...]) -> Windows:
    """Every one of the `rooms` boxes wholly inside the cell (the grid `cell`, True inside): per box, the top
    and left pixels of each spot it fits, and its width and height."""
    table = np.pad(cell.astype(np.int32), ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    out = []
    for w, h in rooms:
        if table.shape[0] > h and table.shape[1] > w:
            top, left = np.nonzero(table[h:, w:] - table[:-h, w:] - table[h:, :-w] + table[:-h, :-w] == w * h)
            if len(top):
                out.append((top, left, w, h))
    return out


def _clear_of(windows: Windows, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """For each unit place (xs, ys), whether one of the windows lies NAME_CLEAR or more from it."""
    out = np.zeros(len(xs), dtype=bool)
    for top, left, w, h in windows:
        dx = np.maximum(np.maximum(left - xs[:, None], xs[:, None] - (left + w)), 0)
        dy = np.maximum(np.maximum(top - ys[:, None], ys[:, None] - (top + h)), 0)
        out |= ((dx * dx + dy * dy) >= NAME_CLEAR ** 2).any(axis=1)
    return out

"""judge.pictures.ps_land on small drawings: coasts moved with the spread places (a cluster pushed
apart takes its coast with it, rather than leaving it as small as drawn), round islands read from
PostScript arcs, and stroked rays read as lanes (Pure's drawing). The boards themselves are checked
in test_pictures_variants.py."""
from __future__ import annotations

import numpy as np
import pytest

from judge.engine import load_variant
from judge.pictures.plane import ROOM_RADIUS, on_own_ground
from judge.pictures.projection import Frame
from judge.pictures.ps_land import _outlines, fills, lanes, shifter

# a crowded corner of four places round (10, 10) and three far ones, as ps_layout.spread moves them:
# the corner grown three times about its middle, the far places left where they were
WAS = {"a": (9.0, 9.0), "b": (11.0, 9.0), "c": (9.0, 11.0), "d": (11.0, 11.0),
       "far1": (100.0, 0.0), "far2": (0.0, 100.0), "far3": (100.0, 100.0)}
NOW = {**{k: (10 + 3 * (x - 10), 10 + 3 * (y - 10)) for k, (x, y) in WAS.items() if k < "e"},
       **{k: WAS[k] for k in ("far1", "far2", "far3")}}


def test_every_place_moves_exactly_where_it_was_spread():
    move = shifter(WAS, NOW)
    names = sorted(WAS)
    moved = move(np.array([WAS[n] for n in names]))
    assert moved == pytest.approx(np.array([NOW[n] for n in names]), abs=1e-6)


def test_a_coast_between_crowded_places_grows_with_them():
    """An island's coast drawn round the corner's four places (a square of side 3 about (10, 10)) is
    moved to a square about as large as theirs now is: the space between the places grows with them
    (a mean of the nearest places' shifts left it nearly as small as drawn)."""
    coast = np.array([(8.5, 8.5), (11.5, 8.5), (11.5, 11.5), (8.5, 11.5)])
    moved = shifter(WAS, NOW)(coast)
    side = np.ptp(moved, axis=0)
    assert side.min() > 0.8 * 3 * 3        # drawn 3 wide; its places now 6 apart where they were 2


def test_round_islands_are_read_from_arcs():
    body = "/ShapeIslands {\n 285 400 m 250 400 35 0 360 a\n 168 344 m 133 344 35 0 360 a\n fk\n} bd"
    islands = _outlines(body, 1.0)
    assert len(islands) == 2
    for (cx, cy), island in zip([(250, 400), (133, 344)], islands, strict=True):
        points = np.array(island)
        assert np.hypot(points[:, 0] - cx, points[:, 1] - cy) == pytest.approx(35, abs=0.5)


PURE_LIKE = """
/MapForm <<
\t/PaintProc {
\t\tSeaBlue 22 25 472 435 rectfill
\t\tIncludeRays
\t\tIncludeIslands
\t} bind
>> def
/IncludeRays {
\ts
\t/fk { k } bd
\tShapeRays
\tr
} bd
/IncludeIslands {
\ts
\t/fk {
\t\tp
\t\ts LandBrown f r
\t\tk
\t} bd
\tShapeIslands
\tr
} bd
/ShapeRays {
\t250 250 m
\t250 400 l
\t250 250 m
\t104 217 l
\tfk
} bd
/ShapeIslands {
\t285 400 m 250 400 35 0 360 a
\t139 217 m 104 217 35 0 360 a
\tfk
} bd
"""


def test_a_drawing_of_islands_and_rays_gives_islands_of_land_and_rays_as_lanes():
    water_first, painted = fills(PURE_LIKE)
    assert water_first and [is_water for is_water, _ in painted] == [False, False]   # the rays are no fill
    assert lanes(PURE_LIKE, ["IncludeRays"]) == [[(250.0, 250.0), (250.0, 400.0)], [(250.0, 250.0), (104.0, 217.0)]]


def test_every_place_gets_room_of_its_own_ground_and_no_two_rooms_meet():
    """on_own_ground on an all-water drawing: each of Pure's land provinces gets a disc of land of
    ROOM_RADIUS round its place, and a place crowded by another gets less, never reaching it."""
    variant = load_variant("pure")
    positions = {"ber": {"x": 0.0, "y": 0.0}, "con": {"x": 15.0, "y": 0.0}, "lon": {"x": 300.0, "y": 200.0},
                 **{p: {"x": 300.0 + 60 * i, "y": 0.0} for i, p in enumerate(("mos", "par", "rom", "vie"))}}
    layout = {"projection": {"type": "plane"}, "positions": positions}
    frame = Frame.from_layout(layout)
    water = np.zeros((frame.height_for(1200), 1200), dtype=bool)
    land = on_own_ground(variant, layout, frame, water)
    x, y = (int(v) for v in frame.to_pixel(200.0, 300.0, 1200))       # London's place, alone
    assert land[y, x - ROOM_RADIUS + 2] and land[y, x + ROOM_RADIUS - 2] and not land[y, x + ROOM_RADIUS + 2]
    bx, by = (int(v) for v in frame.to_pixel(0.0, 0.0, 1200))
    cx, _ = (int(v) for v in frame.to_pixel(0.0, 15.0, 1200))
    assert not land[by, (bx + cx) // 2]                                # Berlin's and Constantinople's apart

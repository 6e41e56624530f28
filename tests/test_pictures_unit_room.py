"""judge/pictures/atlas.py's roomy_spot on made-up cells: a unit stands deep enough in its cell for its
disc, near where the layout puts it, and, where its cell is too narrow for a name beside it, where it
leaves room for the name above or below (the real boards are measured by the picture check in
test_pictures_variants.py: Constantinople's name under its army)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from judge.pictures.atlas import NAME_CLEAR, NAME_ROOM, UNIT_ROOM, roomy_spot

TOP, LEFT = 100, 200      # where the made-up cell lies in its grid


def rectangle(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (ys, xs) of a height x width cell at (TOP, LEFT)."""
    ys, xs = np.nonzero(np.ones((height, width), dtype=bool))
    return ys + TOP, xs + LEFT


def room_left(spot: tuple[float, float], height: int, width: int) -> bool:
    """Whether a NAME_ROOM box fits in the rectangle above or below, or beside, the unit's disc."""
    x, y = spot[0] - LEFT, spot[1] - TOP
    rows = max(y - NAME_CLEAR, height - y - NAME_CLEAR)
    cols = max(x - NAME_CLEAR, width - x - NAME_CLEAR)
    return any((rows >= h and width >= w) or (cols >= w and height >= h) for w, h in NAME_ROOM)


def disc_inside(spot: tuple[float, float], height: int, width: int) -> bool:
    x, y = spot[0] - LEFT, spot[1] - TOP
    return min(x, y, width - x, height - y) >= UNIT_ROOM


def test_a_roomy_cell_keeps_its_unit_where_the_layout_puts_it():
    place = (LEFT + 40.0, TOP + 40.0)
    spot = roomy_spot(*rectangle(80, 80), place)
    assert math.dist(spot, place) < 1


@pytest.mark.parametrize("height", [40, 45, 50])
def test_a_narrow_cell_moves_its_unit_along_to_leave_room_for_its_name(height):
    width = 24             # too narrow for a name beside the unit's disc (NAME_ROOM's wide box)
    place = (LEFT + width / 2, TOP + height / 2)
    assert not room_left(place, height, width), "the made-up cell should leave no room where the layout puts it"
    spot = roomy_spot(*rectangle(height, width), place)
    assert room_left(spot, height, width)
    assert disc_inside(spot, height, width)

"""judge/pictures/label_places.py on small made-up grids: a name goes wholly inside its own cell and
clear of units and of the other names, as near under its unit as it can; smaller, or with its mark
above the letters, only where the cell leaves no room at the full size. (The real boards are measured
by the picture check in test_pictures_variants.py.)"""
from __future__ import annotations

import numpy as np
import pytest

from judge.pictures.label_places import Box, Label, Name, place_labels

SIZE, BELOW, UNIT_R = 11.0, 17.25, 9.0    # as the overlay has them at 1200 px


def box(size: float, stacked: bool, halo: bool) -> Box:
    """A made-up name three letters wide: 2 px a point wide and 1 px a point tall; stacked, taller and
    narrower."""
    pad = 1.0 if halo else 0.0
    if stacked:
        return Box(-size - pad, -size - pad, size + pad, size / 2 + pad, pad)
    return Box(-size * 1.5 - pad, -size / 2 - pad, size * 1.5 + pad, size / 2 + pad, pad)


def grid_of(*cells: tuple[int, int, int, int]) -> np.ndarray:
    """A 100 x 200 grid, label 1 everywhere but the rectangles (top, left, bottom, right) given labels 2, 3..."""
    grid = np.ones((100, 200), dtype=np.uint8)
    for i, (t, left, b, r) in enumerate(cells):
        grid[t:b, left:r] = i + 2
    return grid


def drawn_box(label: Label, letters: Box) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a placed name, its letters' box `letters` (no halo)."""
    return label.x - label.half_w, label.y + letters.top, label.x + label.half_w, label.y + letters.bottom


def inside(grid: np.ndarray, cell: int, edges: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = edges
    return bool((grid[int(y0):int(np.ceil(y1)), int(x0):int(np.ceil(x1))] == cell).all())


CASES = {
    # cell (top, left, bottom, right), the unit's place: what size and arrangement the name gets
    "a roomy cell: full size under the unit": ((10, 10, 90, 110), (60.0, 30.0), 11, False),
    "a narrow cell: the mark above the letters": ((10, 10, 90, 36), (23.0, 30.0), 11, True),
    "a small cell: smaller letters": ((20, 20, 55, 45), (32.0, 30.0), 8, True),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_name_lies_in_its_own_cell_clear_of_its_unit(case):
    cell, place, size, stacked = CASES[case]
    grid = grid_of(cell)
    name = Name("abc", 2, place, box, True)
    label = place_labels(grid, 1.0, [name], [place], SIZE, BELOW, UNIT_R)["abc"]
    assert (label.size, label.stacked) == (size, stacked)
    edges = drawn_box(label, box(label.size, label.stacked, False))
    assert inside(grid, 2, edges)
    nearest = (min(max(place[0], edges[0]), edges[2]), min(max(place[1], edges[1]), edges[3]))
    assert np.hypot(nearest[0] - place[0], nearest[1] - place[1]) >= UNIT_R


def test_a_roomy_cell_has_its_name_right_under_its_unit():
    grid = grid_of((10, 10, 90, 110))
    label = place_labels(grid, 1.0, [Name("abc", 2, (60.0, 30.0), box, False)], [(60.0, 30.0)], SIZE, BELOW,
                         UNIT_R)["abc"]
    assert abs(label.x - 60) <= 1 and abs(label.y - 47.25) <= 1


def test_two_names_in_neighbouring_cells_keep_apart():
    """Two cells side by side, each unit near their common border: the names do not touch."""
    grid = grid_of((10, 10, 60, 60), (10, 60, 60, 110))
    names = [Name("abc", 2, (52.0, 20.0), box, False), Name("def", 3, (68.0, 20.0), box, False)]
    labels = place_labels(grid, 1.0, names, [n.place for n in names], SIZE, BELOW, UNIT_R)
    a, b = (drawn_box(labels[p], box(labels[p].size, False, True)) for p in ("abc", "def"))
    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert inside(grid, 2, a) and inside(grid, 3, b)


def test_a_cell_too_small_for_any_size_gets_its_name_beside_rather_than_over_its_unit():
    grid = grid_of((40, 40, 56, 56))
    label = place_labels(grid, 1.0, [Name("abc", 2, (48.0, 48.0), box, True)], [(48.0, 48.0)], SIZE, BELOW,
                         UNIT_R)["abc"]
    edges = drawn_box(label, box(label.size, label.stacked, False))
    nearest = (min(max(48.0, edges[0]), edges[2]), min(max(48.0, edges[1]), edges[3]))
    assert np.hypot(nearest[0] - 48, nearest[1] - 48) >= UNIT_R


def test_a_picture_at_another_width_places_the_names_on_the_scaled_grid():
    grid = grid_of((10, 10, 90, 110))
    half = place_labels(grid, 0.5, [Name("abc", 2, (30.0, 15.0), box, False)], [(30.0, 15.0)], SIZE / 2,
                        BELOW / 2, UNIT_R / 2)["abc"]
    assert abs(half.x - 30) <= 1 and abs(half.y - 23.625) <= 1


def test_a_name_with_no_room_in_its_cell_leaves_a_neighbours_room_alone():
    """A sliver of a cell too small for its name, beside a cell just wide enough for its own: the
    sliver's name, set first by size but placed last, lies outside both rather than in the room the
    neighbour's name needs (Oberrhein's name kept its cell when Zurich's had none on Abstraction II)."""
    grid = grid_of((40, 55, 52, 88), (40, 88, 52, 93))
    names = [Name("abc", 2, (70.0, 20.0), box, False), Name("def", 3, (90.0, 20.0), box, False)]
    labels = place_labels(grid, 1.0, names, [], SIZE, BELOW, UNIT_R)
    assert inside(grid, 2, drawn_box(labels["abc"], box(labels["abc"].size, False, False)))
    assert not inside(grid, 3, drawn_box(labels["def"], box(labels["def"].size, False, False)))

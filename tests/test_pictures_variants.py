"""Every variant has a readable picture: data-driven by tests/data/pictures/boards.json, which says
where each board comes from (its own geography, the standard map's, or a plane board drawn from its
own graph with DPjudge's places). Each variant's start and a phase with orders are drawn (saved
under tests/artefacts/); plane boards are measured as the geographic ones are in
test_pictures_readable.py: room for a unit and its name in every cell, every unit inside its cell,
every arrow ending inside its destination, the cells showing only borders the board has."""
from __future__ import annotations

import io
import itertools
import json
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from judge.engine import FIFTH, load_variant, process_phase, starting_position
from judge.engine.variant import available_variants
from judge.pictures import load_atlas, render_png, style
from judge.pictures.atlas import board_home, cells_path, fingerprint, load_layout
from judge.pictures.projection import is_plane
from judge.pictures.shapes import OPEN_WATER, UNPLAYABLE_LAND

from test_pictures_readable import UNIT_ROOM, arrows_outside, de, depth, fits
from test_variants_play import random_orders

BOARDS = json.loads((Path(__file__).parent / "data" / "pictures" / "boards.json").read_text(encoding="utf-8"))["boards"]
PLANES = sorted(v for v, b in BOARDS.items() if b["from"] == "plane")
ARTEFACTS = Path(__file__).parent / "artefacts"
WIDTH = 1200


@cache
def variant_and_atlas(variant_id: str):
    """Loaded once per test process and shared by this module's tests (an atlas is read-only once
    loaded, as the judge keeps it): a plane board's took seconds, and each variant's was loaded by
    three tests, on whichever worker each ran."""
    variant = load_variant(variant_id)
    return variant, load_atlas(variant)


@pytest.fixture(scope="module", params=PLANES)
def plane(request):
    return variant_and_atlas(request.param)


def test_every_variant_says_where_its_picture_comes_from():
    assert sorted(BOARDS) == available_variants()


@pytest.mark.parametrize("variant_id", sorted(BOARDS))
def test_the_board_comes_from_where_the_data_says_and_its_cells_are_current(variant_id):
    variant, board = load_variant(variant_id), BOARDS[variant_id]
    layout = load_layout(variant_id)
    assert board_home(variant_id) == ("standard" if board["from"] == "standard" else variant_id)
    assert is_plane(layout) == (board["from"] == "plane")
    if board["from"] == "plane":
        assert board["ps"] in layout["projection"]["source"]
    with Image.open(io.BytesIO(cells_path(variant_id).read_bytes())) as img:
        assert img.text.get("fingerprint") == fingerprint(variant, layout), \
            f"run python -m judge.pictures.build_cells {board_home(variant_id)}"


@pytest.mark.parametrize("variant_id", sorted(BOARDS))
def test_the_start_and_a_phase_with_orders_are_drawn(variant_id):
    variant, atlas = variant_and_atlas(variant_id)
    position = starting_position(variant)
    start = render_png(variant, position, atlas=atlas)
    rng = random.Random(17)
    orders = {p.id: random_orders(variant, position, p.id, rng) for p in variant.powers}
    turn = process_phase(variant, position, orders, FIFTH)
    assert turn.result.outcomes
    played = render_png(variant, position, turn.result, atlas=atlas)
    ARTEFACTS.mkdir(exist_ok=True)
    for name, png in (("start", start), ("orders", played)):
        (ARTEFACTS / f"variant_{variant_id}_{name}.png").write_bytes(png)
        with Image.open(io.BytesIO(png)) as img:
            assert img.format == "PNG" and img.width == WIDTH
    assert start != played          # the orders are on it
    with Image.open(io.BytesIO(start)) as img:      # every power's colour is on the board at the start
        pixels = np.asarray(img.convert("RGB")).reshape(-1, 3).astype(np.uint32)
    # each pixel packed into one integer: np.unique over rows (axis=0) took 12 s a picture
    packed = np.unique(pixels[:, 0] << 16 | pixels[:, 1] << 8 | pixels[:, 2]).tolist()
    drawn = {(c >> 16, c >> 8 & 0xFF, c & 0xFF) for c in packed}
    for power in variant.powers:
        if power.starting_units or power.owned_at_start:
            assert atlas.colours[power.id] in drawn, power.id


@pytest.mark.parametrize("variant_id", sorted(v for v, b in BOARDS.items() if b.get("colours") != "repeat"))
def test_power_colours_stand_apart_from_the_ground_and_each_other(variant_id):
    """As test_pictures_readable checks the standard map's (Chaos's 34 powers must share colours)."""
    colours = variant_and_atlas(variant_id)[1].colours
    tints = {p: style.territory_tint(c) for p, c in colours.items()}
    grounds = (style.LAND, style.SEA, style.UNPLAYABLE)
    assert not [p for p, c in colours.items() for g in grounds if de(c, g) < 25]
    assert not [p for p, t in tints.items() for g in grounds if de(t, g) < 15]
    assert not [(a, b) for a, b in itertools.combinations(colours, 2) if de(colours[a], colours[b]) < 20]
    assert not [(a, b) for a, b in itertools.combinations(tints, 2) if de(tints[a], tints[b]) < 12]


def test_every_plane_cell_has_room_for_a_unit_and_its_name(plane):
    variant, atlas = plane
    unit = 2 * style.UNIT_RADIUS
    name_h = style.LABEL_SIZE * 1.2
    small, no_room = [], []
    for pid in sorted(variant.board.provinces):
        ys, xs = np.nonzero(atlas.cells == atlas.label(pid))
        cell = np.pad(atlas.cells[ys.min():ys.max() + 1, xs.min():xs.max() + 1] == atlas.label(pid), 1)
        name_w = style.LABEL_SIZE * 0.68 * len(pid)
        if not (fits(cell, max(unit, name_w), unit + 2 + name_h) or fits(cell, unit + 2 + name_w, max(unit, name_h))):
            small.append(pid)
        if depth(cell).max() < UNIT_ROOM:
            no_room.append(pid)
    assert small == sorted(BOARDS[variant.id]["cramped"]), f"cells too small for a unit and its name: {small}"
    assert no_room == sorted(BOARDS[variant.id]["no_room"]), f"cells too small for a unit: {no_room}"


def test_every_plane_unit_stands_inside_its_cell(plane):
    variant, atlas = plane
    outside = []
    for pid in variant.board.provinces:
        x, y = atlas.places[pid]
        if atlas.cells[int(y), int(x)] != atlas.label(pid):
            outside.append(pid)
    assert not outside


def test_every_plane_arrow_ends_inside_its_destination(plane):
    variant, atlas = plane
    outside = arrows_outside(variant, atlas, occupied=False)
    assert not outside, f"arrows ending outside their destination: {outside}"


def test_plane_cells_show_only_borders_the_board_has(plane):
    variant, atlas = plane
    grid = atlas.cells.astype(np.int32)
    order = atlas.provinces
    met = set()
    for a, b in ((grid[:, :-1], grid[:, 1:]), (grid[:-1, :], grid[1:, :])):
        touching = (a != b) & ~np.isin(a, (UNPLAYABLE_LAND, OPEN_WATER)) & ~np.isin(b, (UNPLAYABLE_LAND, OPEN_WATER))
        met |= {
            tuple(sorted((order[x - 1], order[y - 1])))
            for x, y in set(zip(a[touching].tolist(), b[touching].tolist(), strict=True))
        }
    false = [pair for pair in sorted(met) if pair[1] not in variant.board.neighbours(pair[0])]
    assert not false, f"borders the board does not have: {false}"


def test_spread_pushes_crowded_places_apart_within_the_same_board():
    """ps_layout.spread: a crowded corner (Youngstown's Europe) takes room from the empty rest."""
    from judge.pictures.ps_layout import MIN_GAP, read_info, spread

    crowded = {f"c{i}": (10 + i % 3, 10 + i // 3) for i in range(9)}        # nine places a point apart
    places = {**crowded, "far1": (0.0, 0.0), "far2": (400.0, 300.0), "far3": (400.0, 0.0)}
    out = spread(places)
    xs, ys = zip(*out.values(), strict=True)
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((0, 400, 0, 300))
    gaps = [((out[a][0] - out[b][0]) ** 2 + (out[a][1] - out[b][1]) ** 2) ** 0.5
            for a, b in itertools.combinations(out, 2)]
    assert min(gaps) >= 0.99 * MIN_GAP * 400
    assert out["c8"][0] > out["c0"][0] and out["c8"][1] > out["c0"][1]    # the order of places kept
    ps = "% INFO\n%  250  400 BER    Berlin\n%  205  443 ARA/NC Aragon (north coast)\n% MAP\n%  1 1 XXX Not read\n"
    assert read_info(ps) == [(250.0, 400.0, "ber", "Berlin"), (205.0, 443.0, "ara/nc", "Aragon (north coast)")]

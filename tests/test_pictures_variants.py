"""Every variant has a readable picture: data-driven by tests/data/pictures/boards.json, which says
where each board comes from (its own geography, the standard map's, or a plane board drawn from its
own graph with DPjudge's places). Each variant's start with a phase of orders is drawn once (saved
under tests/artefacts/), and each board's atlas loaded once, for all the checks here. Plane boards
are measured as the geographic ones are in test_pictures_readable.py: room for a unit and its name in
every cell, every unit inside its cell, every arrow ending inside its destination, the cells showing
only borders the board has."""
from __future__ import annotations

import io
import itertools
import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from judge.engine import FIFTH, load_variant, process_phase, starting_position
from judge.engine.geography import Coast, Terrain
from judge.engine.variant import available_variants
from judge.pictures import build_scene, load_atlas, style
from judge.pictures.paint_png import paint_png
from judge.pictures.scene import Circle, Polygon, Scene, Text
from judge.pictures.atlas import CELLS_WIDTH, board_home, cells_path, fingerprint, land_path, load_layout
from judge.pictures.overlay import LONG_PASSAGE, far_note
from judge.pictures.passages import far_ends
from judge.pictures.plane import on_own_ground
from judge.pictures.projection import Frame, is_plane, point
from judge.pictures.shapes import UNPLAYABLE_LAND

from test_pictures_readable import UNIT_ROOM, arrows_outside, de, depth, fits
from test_variants_play import random_orders

BOARDS = json.loads((Path(__file__).parent / "data" / "pictures" / "boards.json").read_text(encoding="utf-8"))["boards"]
PLANES = sorted(v for v, b in BOARDS.items() if b["from"] == "plane" and "board_of" not in b)
ARTEFACTS = Path(__file__).parent / "artefacts"
MAIL_BYTES = 300_000    # a picture a results mail carries: about 400 KB once in base64


pytestmark = pytest.mark.xdist_group("pictures_variants")     # one worker loads each board's atlas once


@cache      # a board's atlas is costly (its cells, passages, places): loaded once for all its checks here
def atlas_of(variant_id: str):
    return load_atlas(load_variant(variant_id))


@dataclass(frozen=True)
class Painted:
    """A board's one picture, shared by its checks: its start with random orders played on it."""
    start: Scene                  # the scene of the start alone, not painted: what the orders add to it
    played: Scene
    png: bytes


@cache
def painted(variant_id: str) -> Painted:
    variant, atlas = load_variant(variant_id), atlas_of(variant_id)
    position = starting_position(variant)
    rng = random.Random(17)
    orders = {p.id: random_orders(variant, position, p.id, rng) for p in variant.powers}
    turn = process_phase(variant, position, orders, FIFTH)
    assert turn.result.outcomes
    # at the board's own width (atlas.picture_width: 1200 px but for Imperial's world), as mailed
    played = build_scene(variant, position, turn.result, atlas=atlas)
    return Painted(build_scene(variant, position, atlas=atlas), played, paint_png(played))


@pytest.fixture(scope="module", params=PLANES)
def plane(request):
    return load_variant(request.param), atlas_of(request.param)


def test_every_variant_says_where_its_picture_comes_from():
    assert sorted(BOARDS) == available_variants()


@pytest.mark.parametrize("variant_id", sorted(BOARDS))
def test_the_board_comes_from_where_the_data_says_and_its_cells_are_current(variant_id):
    variant, board = load_variant(variant_id), BOARDS[variant_id]
    layout = load_layout(variant_id)
    assert board_home(variant_id) == board.get("board_of", "standard" if board["from"] == "standard" else variant_id)
    assert is_plane(layout) == (board["from"] == "plane")
    if board["from"] == "plane":
        assert board["ps"] in layout["projection"]["source"]
    assert land_path(variant_id).is_file() == (board.get("land") == "drawn")    # DPjudge's coasts, or none
    with Image.open(io.BytesIO(cells_path(variant_id).read_bytes())) as img:
        assert img.text.get("fingerprint") == fingerprint(variant, layout), \
            f"run python -m judge.pictures.build_cells {board_home(variant_id)}"


@pytest.mark.parametrize("variant_id", sorted(BOARDS))
def test_the_start_with_a_phase_of_orders_is_drawn(variant_id):
    variant, picture = load_variant(variant_id), painted(variant_id)
    ARTEFACTS.mkdir(exist_ok=True)
    (ARTEFACTS / f"variant_{variant_id}_orders.png").write_bytes(picture.png)
    with Image.open(io.BytesIO(picture.png)) as img:
        # as wide as boards.json says (a world of 356 provinces wider), and small enough to mail
        assert img.format == "PNG"
        assert img.width == atlas_of(variant_id).picture_width == BOARDS[variant_id].get("width", 1200)
        pixels = np.asarray(img.convert("RGB")).astype(np.uint32)
    assert len(picture.png) < MAIL_BYTES
    assert not legend_faults(picture.played)      # the key to the orders' symbols as well as the powers
    assert [s for s in picture.played.shapes if s not in picture.start.shapes]      # the orders are on it
    # every power's colour is on the board (its units and centres at the start): each pixel as one number
    drawn = set(np.unique((pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]).tolist())
    for power in variant.powers:
        if power.starting_units or power.owned_at_start:
            r, g, b = atlas_of(variant_id).colours[power.id]
            assert (r << 16 | g << 8 | b) in drawn, power.id


@pytest.mark.parametrize("variant_id", sorted(v for v, b in BOARDS.items() if b.get("colours") != "repeat"))
def test_power_colours_stand_apart_from_the_ground_and_each_other(variant_id):
    """As test_pictures_readable checks the standard map's (Chaos's 34 powers must share colours)."""
    colours = atlas_of(variant_id).colours
    tints = {p: style.territory_tint(c) for p, c in colours.items()}
    grounds = (style.LAND, style.SEA, style.UNPLAYABLE)
    assert not [p for p, c in colours.items() for g in grounds if de(c, g) < 25]
    assert not [p for p, t in tints.items() for g in grounds if de(t, g) < 15]
    assert not [(a, b) for a, b in itertools.combinations(colours, 2) if de(colours[a], colours[b]) < 20]
    assert not [(a, b) for a, b in itertools.combinations(tints, 2) if de(tints[a], tints[b]) < 12]


@pytest.mark.parametrize("variant_id", ["modern", "youngstown", "void"])
def test_the_legend_keeps_apart_a_power_holding_every_centre(variant_id):
    """The widest counts a legend draws (one power with every centre and a unit on each) run into no
    other power's square or words, whichever column that power is in: ten powers a row would not hold
    "12 centres, 12 units" (Modern), nor nine Void's names of seas. A power of the first row stands for
    its column: every power's words are measured alike."""
    from judge.engine.geography import Location, UnitKind
    from judge.engine.position import Unit
    from judge.pictures.atlas import picture_size, power_colours, power_patterns
    from judge.pictures.legend import legend, legend_height, power_grid

    variant, layout = load_variant(variant_id), load_layout(variant_id)     # the legend needs no cells
    start, width, top = starting_position(variant), picture_size(layout)[0], 100
    centres = [p for p, prov in variant.board.provinces.items() if prov.supply_centre]
    for power in variant.powers[:power_grid(variant, width).per_row]:      # one in each column
        units = tuple(Unit(power.id, UnitKind.ARMY, Location(p)) for p in centres)
        position = start.__class__(start.phase, units, dict.fromkeys(centres, power.id))
        shapes = legend(variant, power_colours(variant, layout), position, "title", top, width, frozen=False,
                        with_orders=True, patterns=power_patterns(variant, layout))
        scene = Scene(width, top + legend_height(variant, width), top, None, style.PAPER, shapes)
        assert not legend_faults(scene), power.id


def test_every_plane_cell_has_room_for_a_unit_and_its_name(plane):
    variant, atlas = plane
    unit = 2 * style.UNIT_RADIUS * atlas.symbols    # grid pixels: the board's symbols at its share of their size
    name_h = style.LABEL_SIZE * atlas.symbols * 1.2
    small, no_room = [], []
    for pid in sorted(variant.board.provinces):
        ys, xs = np.nonzero(atlas.cells == atlas.label(pid))
        cell = np.pad(atlas.cells[ys.min():ys.max() + 1, xs.min():xs.max() + 1] == atlas.label(pid), 1)
        name_w = style.LABEL_SIZE * atlas.symbols * 0.68 * len(pid)
        if not (fits(cell, max(unit, name_w), unit + 2 + name_h) or fits(cell, unit + 2 + name_w, max(unit, name_h))):
            small.append(pid)
        if depth(cell).max() < UNIT_ROOM * atlas.symbols:
            no_room.append(pid)
    assert small == sorted(BOARDS[variant.id]["cramped"]), f"cells too small for a unit and its name: {small}"
    assert no_room == sorted(BOARDS[variant.id]["no_room"]), f"cells too small for a unit: {no_room}"


def test_a_province_given_room_grows_a_disc_of_its_own_ground():
    """layout.json's `room` (plane.on_own_ground): each province it names gets a disc of its own ground
    round its place (an island's land over the sea, a narrow sea's water over land), nothing else."""
    variant, layout = load_variant("imperial"), load_layout("imperial")
    frame = Frame.from_layout(layout)
    radius = layout["room"]["pixels"]
    island = next(p for p in layout["room"]["provinces"] if not variant.board.provinces[p].is_sea)
    sea = next(p for p in layout["room"]["provinces"] if variant.board.provinces[p].is_sea)
    shape = (frame.height_for(CELLS_WIDTH), CELLS_WIDTH)
    for pid, ground in ((island, np.zeros(shape, dtype=bool)), (sea, np.ones(shape, dtype=bool))):
        only, none = {**layout, "room": {"pixels": radius, "provinces": [pid]}}, {**layout, "room": {}}
        given = on_own_ground(variant, only, frame, ground)
        changed = given != on_own_ground(variant, none, frame, ground)
        x, y = frame.to_pixel(*point(layout["positions"][pid]), CELLS_WIDTH)
        ys, xs = np.nonzero(changed)
        assert changed.any() and np.hypot(xs + 0.5 - x, ys + 0.5 - y).max() <= radius  # nothing beyond the disc
        # the whole disc its own ground (every place's smaller disc is drawn first), but where a place's
        # square (its own, a neighbour's) keeps that place's ground
        rows, cols = np.indices(shape)
        disc = np.hypot(cols + 0.5 - x, rows + 0.5 - y) <= radius
        assert (given[disc] == (not variant.board.provinces[pid].is_sea)).mean() > 2 / 3


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
    grounds = (UNPLAYABLE_LAND, atlas.open_water)     # (open water's label is 511 on Imperial's 16-bit grid)
    met = set()
    for a, b in ((grid[:, :-1], grid[:, 1:]), (grid[:-1, :], grid[1:, :])):
        touching = (a != b) & ~np.isin(a, grounds) & ~np.isin(b, grounds)
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


# -- the picture check: names inside their cells, clear of units and of each other; owners told apart --

# Colour distances are CIE76 ΔE (test_pictures_readable.de). Owned land (a power's tint) against the sea
# and against land no one owns, and units against them; the land and units of two powers owning
# neighbouring provinces against each other.
OWNED_FROM_GROUND, UNIT_FROM_GROUND = 15, 25
OWNED_FROM_NEIGHBOUR, UNIT_FROM_NEIGHBOUR = 12, 20
NAME_GAP = 2    # pixels at least between two names, so that they read as two


def name_boxes(variant, scene, symbols: float = 1.0) -> dict[str, tuple[float, float, float, float]]:
    """Each province's name as drawn on the start picture (its supply-centre mark included): the
    box (left, top, right, bottom) of its letters in pixels, measured with the font that draws them,
    joined with the box of the mark drawn just before them (before the letters or above them).
    `symbols`: the share of their usual size the board draws marks at (atlas.symbols)."""
    from judge.pictures.paint_png import load_font

    by_text = {p.upper(): p for p in variant.board.provinces}
    sc_r = style.SC_RADIUS * scene.width / 1200 * symbols
    boxes, fonts = {}, {}
    shapes = scene.shapes[:scene.board]
    for i, shape in enumerate(shapes):
        if not isinstance(shape, Text) or shape.text not in by_text:
            continue
        pid = by_text[shape.text]
        font = fonts.get((round(shape.size), shape.bold)) or fonts.setdefault(
            (round(shape.size), shape.bold), load_font(round(shape.size), shape.bold))
        left, top, right, bottom = font.getbbox(shape.text, anchor=shape.anchor)
        x, y = shape.at
        box = [x + left, y + top, x + right, y + bottom]
        if variant.board.provinces[pid].supply_centre:      # the mark: the circle of its size just before
            (mx, my), = [s.centre for s in shapes[max(i - 2, 0):i]
                         if isinstance(s, Circle) and abs(s.radius - sc_r) < 1e-6]
            box = [min(box[0], mx - sc_r), min(box[1], my - sc_r), max(box[2], mx + sc_r), max(box[3], my + sc_r)]
        boxes[pid] = tuple(box)
    return boxes


def unit_spots(variant, atlas) -> dict[str, tuple[float, float]]:
    """Every place a unit may stand, at the atlas's width: each province's (but one no unit may enter),
    each coast's, each shore's."""
    spots = {pid: atlas.places[pid] for pid, prov in variant.board.provinces.items()
             if prov.terrain is not Terrain.IMPASSABLE}
    spots.update({f"{p}/{c}": atlas.places[f"{p}/{c}"] for p, prov in variant.board.provinces.items()
                  for c in (x.value for x in prov.coasts)})
    spots.update({f"{p} (fleet)": at for p, at in atlas.fleet_places.items()})
    return spots


@cache     # a font loaded once a size (a legend has a hundred words)
def font_of(size: int, bold: bool):
    from judge.pictures.paint_png import load_font
    return load_font(size, bold)


@cache     # each word measured once (the legends of many positions share their words)
def extent(text: str, size: int, bold: bool, anchor: str) -> tuple[float, float, float, float]:
    return font_of(size, bold).getbbox(text, anchor=anchor)


def far_notes(scene: Scene, scale: float) -> list[tuple[str, tuple[float, ...]]]:
    """Each note `↔OBJ` naming a passage's far end (overlay.far_note) and its box in grid pixels,
    measured with the font that draws it."""
    out = []
    for t in scene.shapes[:scene.board]:
        if isinstance(t, Text) and t.text.startswith("↔"):
            left, top, right, bottom = font_of(round(t.size), t.bold).getbbox(t.text, anchor=t.anchor)
            out.append((t.text, tuple(v / scale for v in (t.at[0] + left, t.at[1] + top, t.at[0] + right,
                                                           t.at[1] + bottom))))
    return out


def legend_faults(scene: Scene) -> list[list[str]]:
    """What the legend under the map draws over itself: each pair of its words (measured with the font
    that draws them) that overlap, each of its words over a mark not its own (a power's square or unit,
    a centre's mark: a unit's letter lies on its own mark), and any of them reaching off the picture."""
    def text_box(t: Text) -> tuple[float, ...]:
        left, top, right, bottom = extent(t.text, round(t.size), t.bold, t.anchor)
        return t.at[0] + left, t.at[1] + top, t.at[0] + right, t.at[1] + bottom

    def mark_box(m: Circle | Polygon) -> tuple[float, ...]:
        if isinstance(m, Circle):
            (x, y), r = m.centre, m.radius
            return x - r, y - r, x + r, y + r
        xs, ys = zip(*m.points, strict=True)
        return min(xs), min(ys), max(xs), max(ys)

    def meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    words = [(s.text, text_box(s)) for s in scene.shapes if isinstance(s, Text) and s.at[1] >= scene.map_height]
    marks = [box for s in scene.shapes if isinstance(s, Circle | Polygon) and (s.fill or s.outline)
             and (box := mark_box(s))[1] >= scene.map_height]
    faults = [[a, b] for (a, ba), (b, bb) in itertools.combinations(words, 2) if meet(ba, bb)]
    for text, (x0, y0, x1, y1) in words:
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        faults += [[text, "a mark"] for m in marks if meet((x0, y0, x1, y1), m)
                   and not (m[0] <= middle[0] <= m[2] and m[1] <= middle[1] <= m[3])]
        if x0 < 0 or x1 > scene.width or y1 > scene.height:
            faults.append([text, "off the picture"])
    return faults


def picture_check(variant, atlas, scene) -> dict[str, list]:
    """What the start picture gets wrong, by measure: names not wholly in their own cell, names over a
    unit's place, names overlapping, names over a split coast's letters (`sc`), owners whose colours do
    not stand apart, the legend over itself,
    and notes naming a long passage's far end (under the name of the province at its other end) not
    wholly in that province's cell, or over a unit's place or another province's name."""
    scale = scene.width / atlas.width         # the picture's pixels per grid pixel (1 at 1200 px)
    boxes = {pid: tuple(v / scale for v in box) for pid, box in name_boxes(variant, scene, atlas.symbols).items()}
    spots = unit_spots(variant, atlas)
    sx, sy = np.array(list(spots.values())).T
    unit_r = style.UNIT_RADIUS * atlas.symbols
    outside, over_units, overlapping = [], [], []
    for pid, (x0, y0, x1, y1) in sorted(boxes.items()):
        cut = atlas.cells[max(int(y0), 0):int(np.ceil(y1)), max(int(x0), 0):int(np.ceil(x1))]
        if x0 < 0 or y0 < 0 or x1 > atlas.width or y1 > atlas.height or (cut != atlas.label(pid)).any():
            outside.append(pid)
        under = np.hypot(np.clip(sx, x0, x1) - sx, np.clip(sy, y0, y1) - sy) < unit_r
        over_units += [[pid, spot] for spot, hit in zip(spots, under, strict=True) if hit]
    for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1)) in itertools.combinations(sorted(boxes.items()), 2):
        gap = NAME_GAP / scale
        if ax0 < bx1 + gap and bx0 < ax1 + gap and ay0 < by1 + gap and by0 < ay1 + gap:
            overlapping.append([a, b])
    coast_words = {c.value for c in Coast}
    over_coasts = []
    for t in scene.shapes[:scene.board]:       # a split coast's `sc` beside its ring
        if isinstance(t, Text) and t.text in coast_words:
            left, top, right, bottom = extent(t.text, round(t.size), t.bold, t.anchor)
            x0, y0, x1, y1 = ((t.at[0] + left) / scale, (t.at[1] + top) / scale, (t.at[0] + right) / scale,
                              (t.at[1] + bottom) / scale)
            over_coasts += [[p, t.text] for p, (bx0, by0, bx1, by1) in sorted(boxes.items())
                            if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1]
    notes_astray = []
    far = far_ends(atlas.passages, LONG_PASSAGE * atlas.width / 1200)    # drawn under each end's name, in order
    ends = [(province, other) for province, others in far.items() for other in others]
    notes = far_notes(scene, scale)
    assert [note for note, _ in notes] == [far_note(other) for _, other in ends]
    for (province, other), (x0, y0, x1, y1) in zip(ends, [box for _, box in notes], strict=True):
        cut = atlas.cells[max(int(y0), 0):int(np.ceil(y1)), max(int(x0), 0):int(np.ceil(x1))]
        covered = np.hypot(np.clip(sx, x0, x1) - sx, np.clip(sy, y0, y1) - sy) < unit_r
        named = [p for p, (bx0, by0, bx1, by1) in boxes.items()
                 if p != province and x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1]
        if not cut.size or (cut != atlas.label(province)).any() or covered.any() or named:
            notes_astray.append([province, other])
    position = starting_position(variant)
    colours = atlas.colours
    faint = []
    for power in sorted({*position.owners.values(), *(u.power for u in position.units)}):
        for ground, rgb in (("sea", style.SEA), ("land", style.LAND)):
            if de(style.territory_tint(colours[power]), rgb) < OWNED_FROM_GROUND:
                faint.append([power, f"owned land like {ground}"])
            if de(colours[power], rgb) < UNIT_FROM_GROUND:
                faint.append([power, f"units like {ground}"])
    alike = set()
    for pid, owner in position.owners.items():
        for n in variant.board.neighbours(pid):
            other = position.owners.get(n)
            if other is None or other == owner:
                continue
            a, b = colours[owner], colours[other]
            if de(style.territory_tint(a), style.territory_tint(b)) < OWNED_FROM_NEIGHBOUR \
                    or de(a, b) < UNIT_FROM_NEIGHBOUR:
                alike.add(tuple(sorted((owner, other))))
    return {"names outside their cell": outside, "names over a unit": over_units,
            "names overlapping": overlapping, "names over a coast's letters": over_coasts, "colours too faint": faint,
            "neighbours alike": [list(pair) for pair in sorted(alike)], "legend over itself": legend_faults(scene),
            "far-end notes astray": notes_astray}


@pytest.mark.parametrize("variant_id", sorted(BOARDS))
def test_the_start_picture_passes_the_picture_check(variant_id):
    """Every name wholly inside its own cell and clear of every place a unit may stand and of every
    other name; every owner's land and units apart (ΔE) from sea, unowned land and neighbouring owners.
    A board's known faults are listed in boards.json under `faults` (the test fails when one is added
    or mended: then take it off the list)."""
    variant = load_variant(variant_id)
    found = picture_check(variant, atlas_of(variant_id), painted(variant_id).start)
    known = BOARDS[variant_id].get("faults", {})
    assert {k: v for k, v in found.items() if v} == known

"""Board pictures: the cells, the drawing of positions and orders, `judge map`, and pictures of games.

Every PNG is saved under tests/artefacts/ (git-ignored) to be looked at.
"""
from __future__ import annotations

import io
import math
import json
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
from PIL import Image

from judge.cli import main
from judge.engine import FIFTH, load_variant, process_phase, starting_position
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.geography import Location, UnitKind
from judge.engine.position import Position, Unit
from judge.pictures import build_scene, load_atlas, render_png, render_svg
from judge.pictures import style
from judge.pictures.atlas import cells_path, fingerprint, load_layout, power_colours
from judge.pictures.chart import centre_chart_png
from judge.mail.outbound.shared_part import SharedPicture
from judge.pictures.games import attach_png, picture_of_phase
from judge.pictures.overlay import Overlay, Places
from judge.pictures.scene import Circle, Line, Text
from judge.pictures.shapes import OPEN_WATER, UNPLAYABLE_LAND

from datc_cases import load_cases, position_for, read_order
from test_games_helpers import seven_player_game, service, submit

ARTEFACTS = Path(__file__).parent / "artefacts"
VARIANTS = ["standard", "abstraction2"]
MAX_BYTES = 200_000


@pytest.fixture(scope="module")
def standard():
    variant = load_variant("standard")
    return variant, load_atlas(variant)


@pytest.fixture(scope="module")
def abstraction2():
    variant = load_variant("abstraction2")
    return variant, load_atlas(variant)


def save(name: str, data: bytes) -> Image.Image:
    ARTEFACTS.mkdir(exist_ok=True)
    (ARTEFACTS / name).write_bytes(data)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def near(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 14) -> np.ndarray:
    return (np.abs(pixels.astype(int) - np.array(colour)).max(axis=-1) <= tolerance)


def colour_around(image: Image.Image, at: tuple[float, float], colour, radius: float) -> int:
    """How many pixels of `colour` lie within `radius` of `at`."""
    x, y = at
    box = image.crop((int(x - radius), int(y - radius), int(x + radius) + 1, int(y + radius) + 1))
    return int(near(np.asarray(box), colour).sum())


def check_picture(variant, atlas, position, png: bytes, name: str, width: int = 1200) -> Image.Image:
    assert len(png) < MAX_BYTES, f"{name}: {len(png)} bytes"
    image = save(name, png)
    assert image.width == width
    places = Places(atlas, width)
    r = style.UNIT_RADIUS * width / 1200
    for unit in position.units:
        colour = atlas.colours[unit.power]
        # a unit is a shape of its power's colour on its place (the letter inside is in black or white)
        assert colour_around(image, places.unit(unit), colour, r) >= 25, (name, str(unit), unit.power)
    return image


def labels_of(scene) -> set[str]:
    return {s.text for s in scene.shapes if isinstance(s, Text)}


# -- the cells ------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant_id", VARIANTS)
def test_the_packaged_cells_are_grown_from_the_current_map_data(variant_id):
    variant = load_variant(variant_id)
    with Image.open(io.BytesIO(cells_path(variant_id).read_bytes())) as img:
        stored = img.text.get("fingerprint")
    assert stored == fingerprint(variant, load_layout(variant_id)), \
        f"run python -m judge.pictures.build_cells {variant_id}"


def _touching(cells: np.ndarray) -> set[frozenset[int]]:
    pairs = set()
    for a, b in ((cells[:, :-1], cells[:, 1:]), (cells[:-1, :], cells[1:, :])):
        differ = a != b
        pairs |= {frozenset(p) for p in zip(a[differ].tolist(), b[differ].tolist(), strict=True)}
    return pairs


def _gap(cells: np.ndarray, a: int, b: int, limit: int) -> bool:
    """Do cells a and b come within `limit` pixels of each other?"""
    grown = cells == a
    target = cells == b
    for _ in range(limit):
        more = grown.copy()
        more[1:, :] |= grown[:-1, :]
        more[:-1, :] |= grown[1:, :]
        more[:, 1:] |= grown[:, :-1]
        more[:, :-1] |= grown[:, 1:]
        grown = more
        if (grown & target).any():
            return True
    return False


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_cells_show_every_border_of_the_board_and_no_other(variant_id):
    variant = load_variant(variant_id)
    atlas = load_atlas(variant)
    cells = atlas.cells.astype(np.int16)
    board = variant.board
    label = {p: atlas.label(p) for p in board.provinces}
    touching = _touching(cells)
    for pid in board.provinces:
        assert (cells == label[pid]).sum() > 30, f"{pid} has (almost) no cell"
    wrong = [(a, b) for a in board.provinces for b in board.provinces
             if a < b and frozenset((label[a], label[b])) in touching and b not in board.neighbours(a)]
    assert not wrong, f"cells touch where the board has no border: {wrong}"
    apart = [(a, b) for a in board.provinces for b in board.neighbours(a)
             if a < b and frozenset((label[a], label[b])) not in touching]
    # The board's passages show as cells facing each other over a narrow strait (Denmark-Sweden,
    # Messina), or as two seas on either side of a province that borders both (a canal through Kiel);
    # anything else is a missing border.
    def canal(a: str, b: str) -> bool:
        return any(frozenset((label[a], label[k])) in touching and frozenset((label[b], label[k])) in touching
                   for k in board.neighbours(a) & board.neighbours(b))

    far = [(a, b) for a, b in apart if not _gap(cells, label[a], label[b], 12) and not canal(a, b)]
    assert not far, f"neighbours on the board drawn far apart: {far}"
    assert len(apart) <= 6
    # and each passage is drawn, as a dashed line across it
    assert {(p.a, p.b) for p in atlas.passages} == set(apart)
    scene = build_scene(variant, starting_position(variant), atlas=atlas)
    dashed = [s for s in scene.shapes
              if isinstance(s, Line) and s.dash and s.colour in (style.COAST, style.LAND_BORDER)]
    assert len(dashed) == len(apart)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_unit_place_lies_in_its_own_cell(variant_id):
    variant = load_variant(variant_id)
    atlas = load_atlas(variant)
    for pid in variant.board.provinces:
        x, y = atlas.places[pid]
        assert atlas.cells[int(y), int(x)] == atlas.label(pid), pid
    # islands off the board (Corsica, Cyprus) stay unplayable land; lakes and far seas open water
    assert (atlas.cells == UNPLAYABLE_LAND).sum() > 1000 and (atlas.cells == OPEN_WATER).sum() > 100


# -- positions ------------------------------------------------------------------------------------

def test_standard_opening(standard):
    variant, atlas = standard
    position = starting_position(variant)
    png = render_png(variant, position, atlas=atlas)
    image = check_picture(variant, atlas, position, png, "standard_opening.png")
    scene = build_scene(variant, position, atlas=atlas)
    assert {p.upper() for p in variant.board.provinces} <= labels_of(scene)
    assert "Standard: Spring 1901 Movement" in labels_of(scene)
    for power in variant.powers:
        assert power.name in labels_of(scene)
    # sea and land apart at a glance: both fills cover large parts of the map
    pixels = np.asarray(image)
    assert near(pixels, style.SEA, 2).mean() > 0.2
    assert near(pixels, style.LAND, 2).mean() > 0.2
    # each home centre is tinted in its owner's colour
    places = Places(atlas, 1200)
    for centre, owner in position.owners.items():
        tint = style.territory_tint(atlas.colours[owner])
        assert colour_around(image, places.of(Location(centre)), tint, 24) > 20, centre


def test_a_picture_at_another_width_scales(standard):
    variant, atlas = standard
    position = starting_position(variant)
    check_picture(variant, atlas, position, render_png(variant, position, atlas=atlas, width=800),
                  "standard_opening_800.png", width=800)


def test_opening_orders_are_drawn(standard):
    variant, atlas = standard
    position = starting_position(variant)
    from judge.sample_cli import SAMPLE
    from judge.order_reading import read_order_lines
    orders = {p: read_order_lines(variant, PhaseKind.MOVEMENT, lines)[0] for p, lines in SAMPLE[0].items()}
    turn = process_phase(variant, position, orders, FIFTH)
    png = render_png(variant, position, turn.result, atlas=atlas)
    image = check_picture(variant, atlas, position, png, "standard_s1901m_orders.png")
    pixels = np.asarray(image)
    assert near(pixels, style.FAILED, 10).sum() > 20  # Warsaw and Vienna bounce in Galicia


def test_a_picture_painted_over_the_kept_board_is_the_one_painted_afresh(standard):
    """paint_png keeps each board's image with its pixels' keys and palette entries (a rush paints one
    board for many games): pictures painted over what was kept, in turn with another board's, are
    byte for byte those painted with nothing kept."""
    from judge.pictures import paint_png
    variant, atlas = standard
    opening = starting_position(variant)
    from judge.sample_cli import SAMPLE
    from judge.order_reading import read_order_lines
    orders = {p: read_order_lines(variant, PhaseKind.MOVEMENT, lines)[0] for p, lines in SAMPLE[0].items()}
    turn = process_phase(variant, opening, orders, FIFTH)
    other = Position(opening.phase, opening.units, {**opening.owners, "bel": "FRANCE", "nwy": "RUSSIA"})

    def painted() -> list[bytes]:
        return [render_png(variant, opening, turn.result, atlas=atlas), render_png(variant, other, atlas=atlas),
                render_png(variant, opening, atlas=atlas)]

    def forgotten() -> list[bytes]:
        pictures = []
        for paint in (lambda: render_png(variant, opening, turn.result, atlas=atlas),
                      lambda: render_png(variant, other, atlas=atlas),
                      lambda: render_png(variant, opening, atlas=atlas)):
            paint_png._boards.clear()
            pictures.append(paint())
        return pictures
    afresh = forgotten()
    assert painted() == afresh      # (the first and last over what the one before kept)
    assert len(set(afresh)) == 3


def test_datc_convoy_case(standard):
    """DATC 6.F.9: a convoy by two routes, one fleet dislodged; the army still lands in Belgium."""
    variant, atlas = standard
    case = next(c for c in load_cases() if c["name"].startswith("t6f09"))
    lines = list(case["orders"])
    orders: dict[str, list] = {}
    for line in lines:
        power, order, _ = read_order(line)
        orders.setdefault(power, []).append(order)
    position = position_for(variant, case, lines, PhaseKind.MOVEMENT)
    turn = process_phase(variant, position, orders, FIFTH)
    png = render_png(variant, position, turn.result, atlas=atlas)
    image = check_picture(variant, atlas, position, png, "datc_6f09_convoy.png")
    scene = build_scene(variant, position, turn.result, atlas=atlas)
    rings = [s for s in scene.shapes if isinstance(s, Circle) and s.outline == style.CONVOY and s.fill is None
             and s.centre[1] < scene.map_height]
    assert len(rings) == 2  # both convoying fleets
    places = Places(atlas, 1200)
    # the dislodged English fleet in the Channel is ringed in red
    assert colour_around(image, places.of(Location("eng")), style.DISLODGED, 20) > 20
    assert near(np.asarray(image), style.CONVOY, 10).sum() > 40


def test_retreat_phase(standard):
    variant, atlas = standard
    position = Position.build(Phase(1901, 1, PhaseKind.MOVEMENT), [
        Unit("GERMANY", UnitKind.ARMY, Location("ruh")), Unit("GERMANY", UnitKind.ARMY, Location("mun")),
        Unit("FRANCE", UnitKind.ARMY, Location("bur")), Unit("RUSSIA", UnitKind.FLEET, Location("stp", _coast("sc"))),
        Unit("ENGLAND", UnitKind.FLEET, Location("bot")), Unit("ENGLAND", UnitKind.ARMY, Location("fin")),
    ], {"par": "FRANCE", "mun": "GERMANY", "stp": "RUSSIA"})
    orders = {"GERMANY": [_o(variant, "A RUH - BUR"), _o(variant, "A MUN S A RUH - BUR")],
              "ENGLAND": [_o(variant, "A FIN - STP"), _o(variant, "F BOT S A FIN - STP")],
              # France and Russia hold by order: a power sending none is in civil disorder, and does not retreat
              "FRANCE": [_o(variant, "A BUR H")], "RUSSIA": [_o(variant, "F STP/SC H")]}
    moved = process_phase(variant, position, orders, FIFTH)
    check_picture(variant, atlas, position, render_png(variant, position, moved.result, atlas=atlas),
                  "standard_f1901m_dislodging.png")
    retreat = moved.next
    assert retreat.phase.kind is PhaseKind.RETREAT and len(retreat.dislodged) == 2
    png = render_png(variant, retreat, atlas=atlas)
    image = check_picture(variant, atlas, retreat, png, "standard_f1901r.png")
    overlay = Places(atlas, 1200)
    r = style.UNIT_RADIUS
    for d in retreat.dislodged:
        x, y = overlay.unit(d.unit)
        beside = (x + r * 1.3, y - r * 1.3)
        assert colour_around(image, beside, atlas.colours[d.unit.power], r) > 15
        assert colour_around(image, beside, style.DISLODGED, r + 2) > 10
        for option in d.retreats:  # a dotted line to the name of each place it may go
            x, y, *_ = Overlay(variant, atlas, retreat, 1200).labels[option.province]
            assert colour_around(image, (x, y), style.RETREAT, 2.5 * r) > 5, option
    # and the retreat orders with their outcomes
    retreats = {"FRANCE": [_o(variant, "A BUR R PAR")], "RUSSIA": [_o(variant, "F STP/SC D")]}
    done = process_phase(variant, retreat, retreats, FIFTH)
    check_picture(variant, atlas, retreat, render_png(variant, retreat, done.result, atlas=atlas),
                  "standard_f1901r_orders.png")


def test_builds_are_drawn(standard):
    variant, atlas = standard
    start = starting_position(variant)
    moved_out = tuple(u for u in start.units if u.location.province not in ("mos", "stp"))
    position = start.with_(phase=Phase(1901, 1, PhaseKind.ADJUSTMENT), units=moved_out + (
        Unit("RUSSIA", UnitKind.ARMY, Location("ukr")), Unit("RUSSIA", UnitKind.FLEET, Location("bot"))),
        owners={**start.owners, "swe": "RUSSIA", "rum": "RUSSIA", "nwy": "ENGLAND"})
    orders = {"RUSSIA": [_o(variant, "BUILD A MOS"), _o(variant, "BUILD F STP/NC")],
              "ENGLAND": [_o(variant, "WAIVE")]}
    done = process_phase(variant, position, orders, FIFTH)
    assert all(o.succeeded for o in done.result.outcomes if o.power == "RUSSIA")
    png = render_png(variant, position, done.result, atlas=atlas)
    image = check_picture(variant, atlas, position, png, "standard_w1901a.png")
    places = Places(atlas, 1200)
    russia = atlas.colours["RUSSIA"]
    for built in (Location("mos"), Location("stp", _coast("nc"))):
        assert colour_around(image, places.of(built), (250, 210, 40), 20) > 10, built
        assert colour_around(image, places.of(built), russia, style.UNIT_RADIUS) > 20, built


def test_abstraction2_opening_and_frozen_winter(abstraction2):
    variant, atlas = abstraction2
    position = starting_position(variant)
    width = atlas.picture_width   # the board's own (2000 px: its Europe is a third of the board)
    png = render_png(variant, position, atlas=atlas)
    check_picture(variant, atlas, position, png, "abstraction2_jul1914.png", width)
    assert {p.upper() for p in variant.board.provinces} <= labels_of(build_scene(variant, position, atlas=atlas))
    january = position.with_(phase=variant.calendar.parse("JAN1915M"), units=position.units + (
        Unit("ENGLAND", UnitKind.ARMY_FLEET, Location("nwg")),))
    png = render_png(variant, january, atlas=atlas)
    image = check_picture(variant, atlas, january, png, "abstraction2_jan1915.png", width)
    stored = Image.fromarray(atlas.cells)   # the cells, pixel for pixel with the picture
    cells = np.asarray(stored.resize((width, round(stored.height * width / stored.width)), Image.NEAREST))
    pixels = np.asarray(image)
    for pid in variant.frozen.provinces:
        inside = cells == atlas.label(pid)
        assert near(pixels[:cells.shape[0]][inside], style.FROZEN, 3).mean() > 0.4, pid
        assert near(pixels[:cells.shape[0]][inside], style.FROZEN_HATCH, 3).mean() > 0.05, pid
    summer = render_png(variant, position, atlas=atlas)
    summer_pixels = np.asarray(Image.open(io.BytesIO(summer)).convert("RGB"))
    assert near(summer_pixels, style.FROZEN_HATCH, 3).sum() < near(pixels, style.FROZEN_HATCH, 3).sum() / 10
    scene = build_scene(variant, january, atlas=atlas)
    assert "A/F" in labels_of(scene) and "frozen" in labels_of(scene)


def test_svg_has_every_province_and_unit(standard):
    variant, atlas = standard
    position = starting_position(variant)
    text = render_svg(variant, position, atlas=atlas)
    assert len(text.encode()) < MAX_BYTES
    (ARTEFACTS / "standard_opening.svg").write_text(text, encoding="utf-8")
    root = ElementTree.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert {p.upper() for p in variant.board.provinces} <= set(texts)
    assert texts.count("A") + texts.count("F") >= len(position.units)
    assert root.find(f"{ns}image") is not None


def test_bad_width_is_refused(standard):
    variant, atlas = standard
    with pytest.raises(ValueError, match="at least 300"):
        render_png(variant, starting_position(variant), atlas=atlas, width=100)


# -- the chart and the mail --------------------------------------------------------------------

def test_centre_chart(standard):
    variant, _ = standard
    counts = {1900 + i: {"FRANCE": 3 + i, "ENGLAND": 3 + i // 2, "RUSSIA": max(0, 4 - i), "GERMANY": 3,
                         "AUSTRIA": 3, "ITALY": 3, "TURKEY": 3 + i % 3} for i in range(1, 12)}
    png = centre_chart_png(variant, counts)
    image = save("centre_chart.png", png)
    assert len(png) < MAX_BYTES and image.size == (900, 520)
    for power in variant.powers:
        assert near(np.asarray(image), power_colours(variant)[power.id], 10).sum() > 30, power.id
    with pytest.raises(ValueError):
        centre_chart_png(variant, {})


def test_attach_png_makes_text_then_picture():
    message = EmailMessage()
    message["Subject"] = "alpha: Spring 1901 results"
    message.set_content("The results.\n")
    attach_png(message, b"\x89PNG\r\n\x1a\nfake", "alpha-S1901M.png")
    parsed = message_from_bytes(message.as_bytes(), policy=policy.default)
    assert parsed.get_content_type() == "multipart/mixed"
    parts = list(parsed.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "image/png"]
    assert parts[1].get_filename() == "alpha-S1901M.png"
    assert parts[1].get_content() == b"\x89PNG\r\n\x1a\nfake"


def _parts(raw: bytes) -> list:
    parsed = message_from_bytes(raw, policy=policy.default)
    assert parsed.get_content_type() == "multipart/mixed"
    return list(parsed.iter_parts())


@pytest.mark.parametrize("text", ["The results.\n", "A quoted boundary:\n--{boundary}--\nand more.\n"])
def test_a_shared_picture_makes_the_same_mail_as_attach_png(text):
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    shared = SharedPicture("alpha-S1901M.png", png)

    def message() -> EmailMessage:
        m = EmailMessage()
        m["Subject"] = "alpha: Spring 1901 results"
        m["Message-ID"] = "<n1.france@dip.test>"
        m.set_content(text.format(boundary=shared.boundary))
        return m

    for raw in (shared.mail_bytes(message()), shared.mail_bytes(message())):  # the part is made once
        plain = _parts(bytes(attach_png(message(), png, "alpha-S1901M.png")))
        spliced = _parts(raw)
        assert [p.get_content_type() for p in spliced] == ["text/plain", "image/png"]
        assert spliced[0].get_content() == plain[0].get_content() == message().get_content()
        assert spliced[1].get_content() == png and spliced[1].get_filename() == "alpha-S1901M.png"
        assert message_from_bytes(raw, policy=policy.default)["Message-ID"] == "<n1.france@dip.test>"


def test_one_picture_per_phase_for_every_recipient(tmp_path, monkeypatch):
    """The courier draws a phase's picture once and puts the same bytes in every recipient's mail."""
    import judge.pictures.jobs as pictures_jobs
    from judge.mail.outbound.courier import Courier
    from judge.storage.db import open_db
    from mailjudge import MailJudge

    drawn = []
    draw = pictures_jobs.render_png
    monkeypatch.setattr(pictures_jobs, "render_png", lambda *a, **k: drawn.append(a) or draw(*a, **k))
    j = MailJudge(tmp_path)
    j.seven_players()
    j.service.process("alpha")
    Courier(j.service, j.config).run(open_db(j.config.db_path))
    results = [s for s in j.outbox() if s.mail.get_content_type() == "multipart/mixed"
               and s.mail.get_payload()[1].get_content_type() == "image/png"]   # (the start's part is a calendar)
    assert len(results) == 8 and len(drawn) == 1
    assert len({s.mail.get_payload()[1].get_content() for s in results}) == 1
    assert len({s.mail["Reply-To"] for s in results}) == 8   # still one secret address each


def test_picture_of_a_game_phase_and_the_setting_that_turns_it_off(tmp_path, capsys):
    svc, _ = service(tmp_path)
    seven_player_game(svc)
    submit(svc, "alpha", "FRANCE", "A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO")
    submit(svc, "alpha", "GERMANY", "A MUN - BUR", "A BER - KIE", "F KIE - DEN")
    svc.process("alpha")
    png = picture_of_phase(svc, "alpha", "S1901M")
    variant = load_variant("standard")
    atlas = load_atlas(variant)
    image = check_picture(variant, atlas, starting_position(variant), png, "game_alpha_s1901m.png")
    assert colour_around(image, Places(atlas, 1200).of(Location("bur")), atlas.colours["FRANCE"], 30) > 10
    # the current phase has no results yet: just the position
    assert main(["map", "--data", str(tmp_path / "var"), "alpha", "-o", str(tmp_path / "now.png")]) == 0
    save("game_alpha_f1901m.png", (tmp_path / "now.png").read_bytes())
    assert main(["map", "--data", str(tmp_path / "var"), "alpha", "s1901m", "-o", str(tmp_path / "s.svg")]) == 0
    assert "alpha: Standard: Spring 1901 Movement" in (tmp_path / "s.svg").read_text()
    # a phase the game never had: the games layer's refusal by code, in the judge's words
    assert main(["map", "--data", str(tmp_path / "var"), "alpha", "W1999A", "-o", str(tmp_path / "w.png")]) == 1
    assert capsys.readouterr().err == "judge map: alpha has no phase W1999A\n"
    svc.set_settings("alpha", pictures=False)
    assert picture_of_phase(svc, "alpha", "S1901M") is None


def test_centre_counts_by_year_of_a_game_and_its_chart(tmp_path):
    from judge.pictures import centre_counts_by_year, end_of_game_chart

    svc, _ = service(tmp_path)
    seven_player_game(svc)
    svc.process("alpha")                                         # S1901M: everyone holds
    submit(svc, "alpha", "RUSSIA", "F SEV - RUM")
    svc.process("alpha")                                         # F1901M: Russia takes Rumania
    if svc.status("alpha").phase == "W1901A":
        submit(svc, "alpha", "RUSSIA", "BUILD A MOS")
        svc.process("alpha")
    counts = centre_counts_by_year(svc, "alpha")
    assert counts[1901]["RUSSIA"] == 5 and counts[1901]["FRANCE"] == 3
    assert set(counts) == {1901, 1902}
    image = save("game_alpha_chart.png", end_of_game_chart(svc, "alpha"))
    assert image.size == (900, 520)


# -- judge map ------------------------------------------------------------------------------------

REQUEST = {"variant": "standard", "phase": "F1901M",
           "units": {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A MUN", "A RUH"]},
           "centres": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER", "KIE", "MUN"]},
           "orders": {"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"], "FRANCE": ["F MAO - SPA/NC"]}}


def test_judge_map_from_a_request_and_a_response(tmp_path, capsys, standard):
    request = tmp_path / "request.json"
    request.write_text(json.dumps(REQUEST))
    assert main(["map", str(request), "-o", str(tmp_path / "f1901m.png")]) == 0
    save("cli_request.png", (tmp_path / "f1901m.png").read_bytes())
    assert Image.open(tmp_path / "f1901m.png").width == standard[1].picture_width == 1200    # the board's own width
    assert main(["adjudicate", str(request)]) == 0
    response = tmp_path / "response.json"
    response.write_text(capsys.readouterr().out)
    assert main(["map", str(response), "-o", str(tmp_path / "next.svg")]) == 0
    svg = (tmp_path / "next.svg").read_text()
    assert "Fall 1901 Retreat" in svg and ">BUR<" in svg
    assert main(["map", str(response), "--format", "png", "--width", "600", "-o", str(tmp_path / "n.png")]) == 0
    assert Image.open(tmp_path / "n.png").width == 600


@pytest.mark.parametrize("text, error", [
    ("not json", "not JSON"),
    ("[1]", "must be a JSON object"),
    ('{"units": {}}', "needs a phase"),
    ('{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}', "xyz"),
    ('{"phase": "S1901M", "orders": {"GONDOR": ["A PAR H"]}}', "no power"),
])
def test_judge_map_explains_bad_input(tmp_path, capsys, text, error):
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main(["map", str(path), "-o", str(tmp_path / "x.png")]) == 1
    assert error.lower() in capsys.readouterr().err.lower()
    assert not (tmp_path / "x.png").exists()


def test_judge_map_explains_a_missing_game(tmp_path, capsys):
    assert main(["map", "--data", str(tmp_path), "nosuch"]) == 1
    assert "not a judge data directory" in capsys.readouterr().err
    service(tmp_path)
    assert main(["map", "--data", str(tmp_path / "var"), "nosuch", "-o", str(tmp_path / "x.png")]) == 1
    assert "no game called 'nosuch'" in capsys.readouterr().err


def _o(variant, text):
    from judge.engine.notation import parse_order
    return parse_order(variant, text)


def _coast(code):
    from judge.engine.geography import Coast
    return Coast(code)


def test_a_variant_without_a_layout_is_refused_clearly():
    from importlib import resources
    from judge.engine import variant_from_data
    from judge.pictures.atlas import NoLayout

    data = json.loads((resources.files("judge") / "variants" / "standard" / "variant.json").read_text())
    data["id"] = "undrawn"
    variant = variant_from_data(data)
    with pytest.raises(NoLayout, match="undrawn variant has no layout.json"):
        render_png(variant, starting_position(variant))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_projection_round_trips_and_the_frame_holds_every_place(variant_id):
    from judge.pictures.projection import Frame

    layout = load_layout(variant_id)
    frame = Frame.from_layout(layout)
    height = frame.height_for(1200)
    for pid, entry in layout["positions"].items():
        x, y = frame.to_pixel(entry["lat"], entry["lon"], 1200)
        assert 0 <= x < 1200 and 0 <= y < height, pid
        lat, lon = frame.to_latlon(x, y, 1200)
        assert abs(lat - entry["lat"]) < 1e-6 and abs(lon - entry["lon"]) < 1e-6
    # conformal: a degree of latitude is as long on the picture as the matching distance east
    x0, y0 = frame.to_pixel(50.0, 10.0, 1200)
    x1, y1 = frame.to_pixel(51.0, 10.0, 1200)
    x2, y2 = frame.to_pixel(50.0, 10.0 + 1 / math.cos(math.radians(50.5)), 1200)
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(math.hypot(x2 - x0, y2 - y0), rel=0.03)


def test_a_shared_picture_keeps_the_judges_crlf_line_ends_so_relays_take_it():
    from judge.mail.outbound.compose import build_message
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 400
    mail = build_message(key="notice:alpha:1:france", sender="judge@dip.test", to=["france@dip.test"],
                         subject="alpha: Spring 1901 results", body="The results.\n", domain="dip.test")
    raw = SharedPicture("alpha-S1901M.png", png).mail_bytes(mail)
    assert raw.count(b"\n") == raw.count(b"\r\n")            # no bare LF: SMTP reads lines by CRLF
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    assert _parts(raw)[1].get_content() == png

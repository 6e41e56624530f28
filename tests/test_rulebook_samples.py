"""The sample games of the 1982, 2000 and 5th edition rulebooks (tests/data/rulebooks/sample_game_*.json).

Each phase: every power's order line exactly as printed is read by the players' parser with the board in
hand (as mail is read), must give the orders the data says, is adjudicated under that book's edition, and
the outcome is compared with the commentary: the orders that fail (every other one succeeds), the units
dislodged, and where every unit stands after the phase, worked out here from the commentary's outcomes,
not by the engine (the last phase also against the book's final position as written in the data).
A phase is played from the position the engine reached after the phases before it.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from judge.engine import Build, Disband, Move, Retreat, edition, load_variant, process_phase, starting_position
from judge.engine.calendar import PhaseKind
from judge.engine.notation import order_text, unit_text
from judge.language import OrderReader

DATA = Path(__file__).parent / "data" / "rulebooks"
BOOKS = {path.stem.removeprefix("sample_game_"): json.loads(path.read_text(encoding="utf-8"))
         for path in sorted(DATA.glob("sample_game_*.json"))}
VARIANT = load_variant("standard")
READER = OrderReader(VARIANT)
PHASES = [pytest.param(book, i, id=f"{book}-{phase['phase']}")
          for book, data in BOOKS.items() for i, phase in enumerate(data["phases"])]


def test_every_book_and_every_printed_phase_is_here():
    assert sorted(BOOKS) == ["1982", "2000", "5th"]
    for data in BOOKS.values():
        codes = [p["phase"] for p in data["phases"]]
        assert codes == ["S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "F1902R", "W1902A"]


def printed(phase: dict, power: str) -> str:
    """The power's orders as printed, with the data's recorded corrections made."""
    text = phase["orders"][power]
    for fix in phase.get("corrections", ()):
        if fix["power"] == power:
            assert fix["printed"] in text and fix["why"]
            text = text.replace(fix["printed"], fix["read"])
    return text


def read(position, phase: dict) -> dict[str, list]:
    orders = {}
    for power in phase["orders"]:
        parsed = READER.parse(printed(phase, power), position.phase.kind, power=power, position=position)
        assert not parsed.errors, [str(e) for e in parsed.errors]
        assert all(p.power == power for p in parsed.orders)
        assert [order_text(p.order) for p in parsed.orders] == phase["read"][power], power
        orders[power] = [p.order for p in parsed.orders]
    return orders


@cache
def position_before(book: str, index: int):
    if index == 0:
        return starting_position(VARIANT)
    before = position_before(book, index - 1)
    phase = BOOKS[book]["phases"][index - 1]
    return process_phase(VARIANT, before, read(before, phase), edition(BOOKS[book]["rules"])).next


def units(units) -> set[str]:
    return {f"{u.power} {unit_text(u.kind, u.location)}" for u in units}


def expected_after(position, orders: dict[str, list], phase: dict) -> set[str]:
    """Where the commentary leaves the units: each order that does not fail is carried out."""
    fail = set(phase["fail"])
    done = [o for os in orders.values() for o in os if order_text(o) not in fail]
    moved = {o.unit.location.province: o.to for o in done if isinstance(o, (Move, Retreat))}
    gone = {o.unit.location.province for o in done if isinstance(o, Disband)}
    gone |= {d.split()[-1].lower() for d in phase.get("dislodged", ())}
    if position.phase.kind is PhaseKind.RETREAT:  # a dislodged unit that does not retreat is disbanded
        out = units(position.units) | {f"{d.unit.power} {unit_text(d.unit.kind, moved[d.unit.location.province])}"
                                       for d in position.dislodged if d.unit.location.province in moved}
    else:
        out = {f"{u.power} {unit_text(u.kind, moved.get(u.location.province, u.location))}"
               for u in position.units if u.location.province not in gone or u.location.province in moved}
    out |= {f"{power} {unit_text(o.kind, o.location)}" for power, os in orders.items() for o in os
            if isinstance(o, Build) and order_text(o) not in fail}
    return out


@pytest.mark.parametrize("book,index", PHASES)
def test_sample_game_phase(book, index):
    data = BOOKS[book]
    phase = data["phases"][index]
    position = position_before(book, index)
    assert VARIANT.calendar.code(position.phase) == phase["phase"]
    orders = read(position, phase)
    for fix in phase.get("corrections", ()):  # a correction must matter: as printed it reads otherwise
        as_printed = READER.parse(phase["orders"][fix["power"]], position.phase.kind, power=fix["power"],
                                  position=position)
        assert [order_text(p.order) for p in as_printed.orders] != phase["read"][fix["power"]]

    turn = process_phase(VARIANT, position, orders, edition(data["rules"]))
    written = {order_text(o) for os in orders.values() for o in os}
    assert set(phase["fail"]) <= written
    outcomes = {order_text(o.order): o for o in turn.result.outcomes if not o.by_judge}
    wrong = {text: o.reason.value for text, o in outcomes.items() if o.succeeded == (text in phase["fail"])}
    assert not wrong, f"outcomes unlike the commentary: {wrong}"

    after = turn.result.position
    dislodged = {f"{d.unit.power} {unit_text(d.unit.kind, d.unit.location)}" for d in after.dislodged}
    if position.phase.kind is PhaseKind.MOVEMENT:
        assert dislodged == set(phase.get("dislodged", ()))
    assert units(after.units) == expected_after(position, orders, phase)
    if "units_after" in phase:
        assert units(after.units) == {f"{p} {u}" for p, us in phase["units_after"].items() for u in us}

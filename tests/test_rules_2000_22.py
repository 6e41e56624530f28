"""The 22 rules at the end of the 2000 rulebook, one case each (tests/data/rules_2000_22.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import Location, Position, Unit, UnitKind, adjudicate, load_variant
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.notation import order_text, parse_order
from judge.engine.rules import FOURTH_2000

V = load_variant("standard")
CASES = json.loads((Path(__file__).parent / "data" / "rules_2000_22.json").read_text())["cases"]


def _unit(text: str) -> Unit:
    power, kind, where = text.split()
    return Unit(power, UnitKind(kind), Location.parse(where))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"rule{c['rule']}")
def test_rule(case):
    position = Position(Phase(1901, 0, PhaseKind.MOVEMENT), tuple(map(_unit, case["units"])), {})
    orders = {p: [parse_order(V, line) for line in lines] for p, lines in case["orders"].items()}
    result = adjudicate(V, position, orders, FOURTH_2000)
    given = [o for o in result.outcomes if not o.by_judge]
    assert sorted(order_text(o.order) for o in given if o.succeeded) == sorted(case["ok"]), case["text"]
    assert sorted(f"{d.unit.power} {d.unit}" for d in result.dislodged) == sorted(case.get("dislodged", []))

"""Orders read with the board in hand: the cases of tests/data/language/board_readings.json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.engine.notation import order_text, position_from_json
from judge.language import OrderReader

DATA = Path(__file__).parent / "data" / "language" / "board_readings.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
VARIANT = load_variant("standard")
READER = OrderReader(VARIANT)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['text']}@{c['power']}:{bool(c['position'])}" for c in CASES])
def test_board_reading(case):
    variant = load_variant(case["position"]["variant"]) if "variant" in (case["position"] or {}) else VARIANT
    reader = READER if variant is VARIANT else OrderReader(variant)
    position = position_from_json(variant, case["position"]) if case["position"] else None
    kind = position.phase.kind if position else PhaseKind.MOVEMENT
    result = reader.parse(case["text"], kind, power=case["power"], position=position)
    if "error" in case:
        assert not result.orders and len(result.errors) == 1
        assert case["error"] in result.errors[0].problem
        assert list(result.errors[0].suggestions) == case.get("suggestions", list(result.errors[0].suggestions))
        return
    assert not result.errors, [str(e) for e in result.errors]
    assert [order_text(p.order) for p in result.orders] == case["read"]
    notes = " ".join(result.orders[0].notes)
    assert (case["note"] in notes) if case["note"] else not notes


def test_a_line_read_with_the_board_is_read_again_with_another_board():
    """The reader's memo keeps readings without a board: a board never leaks into another's reading."""
    ven = position_from_json(VARIANT, {"phase": "S1901M", "units": {"ITALY": ["F TYS"]}})
    tyr = position_from_json(VARIANT, {"phase": "S1901M", "units": {"ITALY": ["A TYR"]}})
    assert order_text(READER.parse("Tyr H", PhaseKind.MOVEMENT, position=ven).orders[0].order) == "TYS H"
    assert order_text(READER.parse("Tyr H", PhaseKind.MOVEMENT, position=tyr).orders[0].order) == "TYR H"
    assert order_text(READER.parse("Tyr H", PhaseKind.MOVEMENT).orders[0].order) == "TYR H"

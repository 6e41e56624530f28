"""Every example order in the rules sections of the 1982, 2000 and 5th edition rulebooks, read as printed
(tests/data/rulebooks/rule_examples.tsv; its README says how the text was taken). Where an example shows
the board ("F Ion-Tyr" in the 1982 book is the Tyrrhenian Sea: Italy's fleets are at sea), the units it
shows are the position the line is read with."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.calendar import PhaseKind
from judge.engine.notation import order_text, position_from_json
from judge.language import OrderReader

DATA = Path(__file__).parent / "data" / "rulebooks" / "rule_examples.tsv"
VARIANT = load_variant("standard")
READER = OrderReader(VARIANT)
ROWS = [line.split("\t") for line in DATA.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def shown(order) -> str:
    ref = getattr(order, "supported", None) or getattr(order, "army", None)
    return order_text(order) + (f" [{ref.power}]" if ref is not None and ref.power else "")


def board(spec: str):
    """"FRANCE A SPA, F LYO; ITALY F ION": the units an example shows."""
    if not spec:
        return None
    units = {}
    for part in spec.split(";"):
        power, _, rest = part.strip().partition(" ")
        units[power] = rest.split(", ")
    return position_from_json(VARIANT, {"phase": "S1901M", "units": units})


def test_every_book_gives_examples():
    assert {row[0] for row in ROWS} == {"1982", "2000", "5th"} and len(ROWS) >= 200


def reading(text: str, units: str) -> str:
    """The orders `text` reads as, in the data's notation; "!" if any of it is refused."""
    result = READER.parse(text, PhaseKind.MOVEMENT, position=board(units))
    if result.errors:
        return "!"
    got = " | ".join(shown(o.order) for o in result.orders)
    return f"{result.orders[0].power}> {got}" if result.orders[0].power else got


@pytest.mark.parametrize("book,printed,instead,units,expected,why", ROWS, ids=[f"{r[0]}:{r[1]}" for r in ROWS])
def test_rulebook_example(book, printed, instead, units, expected, why):
    if instead:  # a misprint: the corrected text is read, and as printed it would read otherwise
        assert why and reading(printed, units) != expected
    assert reading(instead or printed, units) == expected
    if expected == "!":
        assert why

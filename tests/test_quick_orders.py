"""The quick reader (judge/quick_orders.py) reads only what the players' parser reads the same way:
for every line it takes, `read_order_lines` gives the same orders, errors and notes with it as
without it. On the order corpus (tests/data/language/orders_corpus.tsv: each movement line on a board
holding the units it names) and on the lines of seeded whole games with convoys, in the canonical
notation and its short forms (`A Par-Bur`); and on those games it must take nearly every line, or
it saves nothing.
"""
from __future__ import annotations

import random
from pathlib import Path

from engine_phases import random_orders, with_convoys
from judge.engine import Position, Unit, load_variant, process_phase, starting_position
from judge.engine.calendar import PhaseKind
from judge.engine.notation import order_text
from judge.engine.rules import DEFAULT
from judge.language import BoardView, OrderReader
from judge.order_reading import read_order_lines
from judge.quick_orders import quick_order

VARIANT = load_variant("standard")
READER = OrderReader(VARIANT)
CORPUS = Path(__file__).parent / "data" / "language" / "orders_corpus.tsv"
MOVEMENT = PhaseKind.MOVEMENT


def _both(position: Position, power: str, lines: list[str]):
    """(with the quick reader, with the parser alone) for these lines."""
    quick = read_order_lines(VARIANT, MOVEMENT, lines, READER, power=power, board=BoardView(VARIANT, position),
                             position=position)
    parser = read_order_lines(VARIANT, MOVEMENT, lines, READER, power=power, board=BoardView(VARIANT, position))
    return quick, parser


def _board_for(text: str) -> Position | None:
    """A board holding the units the line names as the parser reads it without one: the ordered
    unit England's, any other France's."""
    parsed = READER.parse(text, MOVEMENT)
    if parsed.errors or len(parsed.orders) != 1:
        return None
    order = parsed.orders[0].order
    units: dict[str, Unit] = {}
    for field, power in (("unit", "ENGLAND"), ("supported", "FRANCE"), ("army", "FRANCE")):
        ref = getattr(order, field, None)
        if ref is None:
            continue
        if ref.kind is None or ref.location.province in units or not VARIANT.board.can_stand(ref.kind, ref.location):
            return None
        units[ref.location.province] = Unit(power, ref.kind, ref.location)
    return Position(START.phase, tuple(units.values()), {})


START = starting_position(VARIANT)


def test_corpus_lines_read_alike():
    taken = 0
    for row in CORPUS.read_text(encoding="utf-8").splitlines():
        if not row.startswith("M\t"):
            continue
        text = row.split("\t")[1]
        position = _board_for(text)
        if position is None:
            continue
        quick, parser = _both(position, "ENGLAND", [text])
        assert quick == parser, text
        taken += quick_order(READER, position, "ENGLAND", text) is not None
    assert taken >= 20, "the quick reader took almost nothing of the corpus"


def _short(line: str) -> str:
    """`A PAR - BUR` as players and other tools also write it: `A Par-Bur`."""
    return "-".join(" ".join(w[:1] + w[1:].lower() if len(w) == 3 else w for w in part.split())
                    for part in line.split(" - "))


def test_whole_games_read_alike():
    rng = random.Random(5)
    lines = taken = 0
    for _ in range(3):
        position = starting_position(VARIANT)
        while position.phase.year < 1905:
            orders = {}
            if position.phase.kind is MOVEMENT:
                orders = with_convoys(VARIANT, position, random_orders(VARIANT, position, rng, unnamed=0), rng)
                for power, given in orders.items():
                    text = [order_text(o) for o in given]
                    text = [_short(t) if rng.random() < 0.3 else t for t in text]
                    quick, parser = _both(position, power, text)
                    assert quick == parser, text
                    lines += len(text)
                    for t in text:
                        order = quick_order(READER, position, power, t)
                        if order is not None:  # (its canonical text, as read_order_lines hands it on: order_text)
                            taken += 1
                            assert order_text(order) == " ".join(t.replace("-", " - ").split()).upper()
            position = process_phase(VARIANT, position, orders, DEFAULT).next
    assert taken >= 0.9 * lines, f"the quick reader took {taken} of {lines} lines"

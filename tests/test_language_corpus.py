"""The order corpus: order lines as players write them, each with the order it must give.

Expected orders are written in a small canonical form read here, not by the parser:
`A par - bur`, `? par - bur` (no unit type written), `A lon - nwy VIA [nth]`,
`A gas S A mar - bur`, `A sil S A war@RUSSIA - pru`, `F nth C A lon - nwy`,
`R A bur - gas`, `D A bur`, `B F stp/nc`, `W`; several orders joined by ` | `,
and `POWER> ...` when a prefix names the power.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.engine import (Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove, Waive,
                          load_variant)
from judge.engine.calendar import PhaseKind
from judge.language import OrderReader, describe

DATA = Path(__file__).parent / "data" / "language"
VARIANT = load_variant("standard")
READER = OrderReader(VARIANT)


def rows(name):
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


def unit(ref):
    power = f"@{ref.power}" if ref.power else ""
    return f"{ref.kind.value if ref.kind else '?'} {ref.location}{power}"


def canonical(order) -> str:
    if isinstance(order, Hold):
        return f"{unit(order.unit)} H"
    if isinstance(order, Move):
        via = " VIA" if order.via_convoy else ""
        route = f" [{' '.join(order.route)}]" if order.route else ""
        return f"{unit(order.unit)} - {order.to}{via}{route}"
    if isinstance(order, SupportHold):
        return f"{unit(order.unit)} S {unit(order.supported)}"
    if isinstance(order, SupportMove):
        return f"{unit(order.unit)} S {unit(order.supported)} - {order.to}"
    if isinstance(order, Convoy):
        return f"{unit(order.unit)} C {unit(order.army)} - {order.to}"
    if isinstance(order, Retreat):
        return f"R {unit(order.unit)} - {order.to}"
    if isinstance(order, Disband):
        return f"D {unit(order.unit)}"
    if isinstance(order, Build):
        return f"B {order.kind.value} {order.location}"
    if isinstance(order, Waive):
        return "W"
    raise AssertionError(order)


CORPUS = list(rows("orders_corpus.tsv"))


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 400


@pytest.mark.parametrize("phase,text,expected", CORPUS, ids=[r[1] for r in CORPUS])
def test_corpus_line(phase, text, expected):
    result = READER.parse(text, PhaseKind(phase))
    assert not result.errors, [str(e) for e in result.errors]
    got = " | ".join(canonical(o.order) for o in result.orders)
    power = result.orders[0].power
    if power:
        got = f"{power}> {got}"
    assert got == expected
    for o in result.orders:  # every order can be confirmed in full names
        assert describe(o.order, VARIANT)


def test_describe_full_names():
    from judge.engine import Location, UnitKind, UnitRef
    from judge.engine.geography import Coast
    assert describe(Move(UnitRef(Location("par"), UnitKind.ARMY), Location("bur")), VARIANT) == "Army Paris -> Burgundy"
    assert describe(Move(UnitRef(Location("mao"), UnitKind.FLEET), Location("spa", Coast.NORTH)), VARIANT) == \
        "Fleet Mid-Atlantic Ocean -> Spain (north coast)"
    order = READER.parse("A Sil S RUSSIAN A War-Pru", PhaseKind.MOVEMENT).orders[0].order
    assert describe(order, VARIANT) == "Army Silesia supports Russian army Warsaw -> Prussia"


def test_typo_is_read_with_a_note():
    result = READER.parse("A Par-Burgandy", PhaseKind.MOVEMENT)
    assert canonical(result.orders[0].order) == "A par - bur"
    assert result.orders[0].notes == ("Burgandy read as Burgundy",)


def test_line_numbers_and_good_lines_survive_bad_ones():
    text = "A Par-Bur\n\nA Nor-Bur\nF Bre - Mid\nA Mar - Xyzzy; A Mun H"
    result = READER.parse(text, PhaseKind.MOVEMENT)
    assert [(o.line, canonical(o.order)) for o in result.orders] == [
        (1, "A par - bur"), (4, "F bre - mao"), (5, "A mun H")]
    assert [(e.line, e.text) for e in result.errors] == [(3, "A Nor-Bur"), (5, "A Mar - Xyzzy")]


def test_power_header_line_applies_to_the_lines_below():
    result = READER.parse("Germany:\nA Mun-Ruh\nF Kie-Den\nFrance: A Par H", PhaseKind.MOVEMENT)
    assert [o.power for o in result.orders] == ["GERMANY", "GERMANY", "FRANCE"]

"""Every order string of the DATC files reads through the order parser.

The DATC v3.0 JSON orders are also checked against the DATC tests' own reader
(tests/datc_cases.py), so both read the same order. The JSON file spells Norway
`nor` in one case; the rules make `Nor` ambiguous (Norway, North Sea, ...), so
that case is read as the DATC readers read it, with `nwy`.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from datc_cases import read_order as datc_reader
from judge.engine import UnitKind, load_variant
from judge.engine.calendar import PhaseKind
from judge.language import OrderReader

DATA = Path(__file__).parent / "data" / "language"
READER = OrderReader(load_variant("standard"))
POWERS = {"ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY", "ITA": "ITALY", "AUS": "AUSTRIA",
          "RUS": "RUSSIA", "TUR": "TURKEY"}
# The jDip v2.4 file has three supports/convoys in retreat phases, there to be refused.
REFUSED_IN_RETREAT = {"Austria: A ser S F tri-alb", "Russia: F hol S F edi-nth", "England: F nth C A hol-yor"}


def rows(name):
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield tuple(line.split("\t", 1))


V3 = list(rows("datc_v3_orders.tsv"))
V24 = list(rows("datc_v24_orders.tsv"))


@pytest.mark.parametrize("phase,text", V3, ids=[t for _, t in V3])
def test_datc_v3_order(phase, text):
    text = re.sub(r"\bnor\b", "nwy", text)
    result = READER.parse(text, PhaseKind(phase))
    assert not result.errors, [str(e) for e in result.errors]
    (parsed,) = result.orders
    power, order, _ = datc_reader(text)
    assert parsed.power == power
    assert same_order(parsed.order, order, PhaseKind(phase))


def same_order(ours, theirs, phase) -> bool:
    """The DATC reader's order, up to four choices the parser makes on purpose."""
    name = type(theirs).__name__
    if name == "Move" and theirs.unit.kind is UnitKind.ARMY and theirs.to.coast is not None:
        # "A gas -> spa(nc)": an army takes no coast, so the parser drops it (with a note; DATC 6.B.12)
        return ours == dataclasses.replace(theirs, to=theirs.to.bare)
    if phase is PhaseKind.RETREAT and name == "Move":  # the phase makes a move a retreat
        return type(ours).__name__ == "Retreat" and (ours.unit, ours.to) == (theirs.unit, theirs.to)
    if name == "Convoy":  # the DATC reader assumes "A" for the convoyed army; we keep what was written
        return (type(ours) is type(theirs) and (ours.unit, ours.army.location, ours.to)
                == (theirs.unit, theirs.army.location, theirs.to))
    if name == "SupportMove" and theirs.to.province == theirs.supported.location.province:
        # "A lvp supports A yor -> yor": support to the unit's own province is support to hold
        return type(ours).__name__ == "SupportHold" and (ours.unit, ours.supported) == (theirs.unit, theirs.supported)
    return ours == theirs


@pytest.mark.parametrize("phase,text", V24, ids=[t for _, t in V24])
def test_datc_v24_order(phase, text):
    result = READER.parse(text, PhaseKind(phase))
    if text in REFUSED_IN_RETREAT:
        assert "in a retreat phase" in result.errors[0].problem
        return
    assert not result.errors, [str(e) for e in result.errors]
    assert len(result.orders) == 1 and result.orders[0].power is not None


def test_datc_spellings_named_in_the_issue():
    from judge.engine import Build, Disband, Location, UnitKind
    adj = PhaseKind.ADJUSTMENT
    assert READER.parse("F stp build", adj).orders[0].order == Build(UnitKind.FLEET, Location("stp"))
    assert READER.parse("Remove par", adj).orders[0].order.unit.location == Location("par")
    assert isinstance(READER.parse("A pic disband", PhaseKind.RETREAT).orders[0].order, Disband)

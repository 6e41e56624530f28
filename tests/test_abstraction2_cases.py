"""DATC-style cases for Abstraction II's A/F and frozen-region rules (tests/data/abstraction2_cases.json).

Each case quotes the rule sentence it tests and explains the expected result in its description.
A case gives a position (phase, units, centres), orders per power in canonical notation, the result
expected for each order, the units after the phase and the units dislodged; optionally a retreat
phase that follows, in the same shape.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import adjudicate, load_variant, notation

VARIANT = load_variant("abstraction2")
CASES = json.loads((Path(__file__).parent / "data" / "abstraction2_cases.json").read_text(encoding="utf-8"))["cases"]


def _units(position) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for u in position.units:
        out.setdefault(u.power, set()).add(notation.unit_text(u.kind, u.location))
    return out


def _play(position, step: dict):
    orders = {p: [notation.parse_order(VARIANT, t) for t in ts] for p, ts in step.get("orders", {}).items()}
    result = adjudicate(VARIANT, position, orders)
    for power, texts in step.get("orders", {}).items():
        for text in texts:
            want = step["results"][text]
            got = [o for o in result.outcomes if o.power == power and o.order == notation.parse_order(VARIANT, text)]
            assert got, f"no outcome for {power} {text}"
            assert got[0].succeeded == (want == "succeeds"), \
                f"{power} {text}: expected {want}, got {got[0].reason.value}: {got[0].why} {got[0].args}"
    assert _units(result.position) == {p: set(us) for p, us in step["after"].items() if us}
    dislodged = {}
    for d in result.dislodged:
        dislodged.setdefault(d.unit.power, set()).add(notation.unit_text(d.unit.kind, d.unit.location))
    assert dislodged == {p: set(us) for p, us in step.get("dislodged", {}).items()}
    return result


def test_every_rule_sentence_has_a_case():
    rules = {c["rule"] for c in CASES}
    assert len(rules) >= 20 and len({c["name"] for c in CASES}) == len(CASES)
    assert all(len(c["description"]) > 40 for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_abstraction2_case(case):
    position = notation.position_from_json(VARIANT, {"phase": case["phase"], "units": case["units"],
                                                     "centres": case.get("centres", {})})
    result = _play(position, case)
    if "retreat" in case:
        _play(result.position, case["retreat"])

"""Every DATC v3.0 case (tests/data/datc/datc.json, with tests/data/datc/datc_corrections.json)."""
from __future__ import annotations

import pytest

from judge.engine import adjudicate, load_variant, rules as _rules  # noqa: F401
from judge.engine.calendar import PhaseKind
from judge.engine.rules import DPTG, FIFTH, FIRST_1971, FOURTH_2000, SECOND_1982

from datc_cases import load_cases, position_for, read_order, read_unit

EDITIONS = {None: FIFTH, "2023": FIFTH, "2000": FOURTH_2000, "1982": SECOND_1982, "1971": FIRST_1971, "dptg": DPTG}
VARIANT = load_variant("standard")
CASES = load_cases()


def _orders(lines):
    by_power: dict[str, list] = {}
    read = []
    for line in lines:
        power, order, _ = read_order(line)
        by_power.setdefault(power, []).append(order)
        read.append((line, power, order))
    return by_power, read


def _check(result, read, expected):
    for line, power, order in read:
        want = expected[line]
        if want is None:
            continue
        got = [o for o in result.outcomes if o.power == power and o.order == order]
        assert got, f"no outcome for {line}"
        assert got[0].succeeded == (want == "Succeeds"), \
            f"{line}: expected {want}, got {got[0].reason.value} {got[0].why} {got[0].args}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"] + (f"[{c['edition']}]" if c.get("edition") else ""))
def test_datc_case(case):
    rules = EDITIONS[case.get("edition")]
    if case["phase"] == "Main":
        orders, read = _orders(case["orders"])
        position = position_for(VARIANT, case, case["orders"], PhaseKind.MOVEMENT)
        _check(adjudicate(VARIANT, position, orders, rules), read, case["orders"])
    elif case["phase"] == "Retreat":
        before = case["preceding_main_phase"]
        orders, read = _orders(before["orders"])
        position = position_for(VARIANT, before, before["orders"], PhaseKind.MOVEMENT)
        moved = adjudicate(VARIANT, position, orders, rules)
        _check(moved, read, before["orders"])
        orders, read = _orders(case["orders"])
        _check(adjudicate(VARIANT, moved.position, orders, rules), read, case["orders"])
    else:
        orders, read = _orders(case["orders"])
        position = position_for(VARIANT, case, case["orders"], PhaseKind.ADJUSTMENT)
        result = adjudicate(VARIANT, position, orders, rules)
        _check(result, read, case["orders"])
        removed = sorted(f"{o.power} {o.order.unit.location}" for o in result.outcomes if o.by_judge
                         and o.reason.name == "DISBANDED")
        if "civil_disorder" in case:
            want = sorted(f"{u.power} {u.location}" for u in map(read_unit, case["civil_disorder"]))
            assert removed == want

"""Every DATC v2.4 case (jDip format), compared by positions, under the v2.4 preferences."""
from __future__ import annotations

import pytest

from judge.engine import Location, Position, adjudicate, load_variant, starting_position
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.position import DislodgedUnit
from judge.engine.rules import DATC_V24

from datc24_cases import read_cases, read_order, read_unit, split_power

VARIANT = load_variant("standard")
BOARD = VARIANT.board
CASES = read_cases()
KINDS = {"Movement": PhaseKind.MOVEMENT, "Retreat": PhaseKind.RETREAT, "Adjustment": PhaseKind.ADJUSTMENT}


def _phase(text: str) -> Phase:
    season, year_kind = text.split(" ", 1)
    year, kind = year_kind.split(",")
    return Phase(int(year), 0 if season.lower() == "spring" else 1, KINDS[kind.strip()])


def _owners(sections) -> dict[str, str]:
    owners = dict(starting_position(VARIANT).owners)
    listed: dict[str, list[str]] = {}
    for line in sections.get("PRESTATE_SUPPLYCENTER_OWNERS", []):
        unit = read_unit(line)
        listed.setdefault(unit.power, []).append(unit.location.province)
    for power, centres in listed.items():
        owners = {c: p for c, p in owners.items() if p != power}
        owners.update({c: power for c in centres})
    return owners


def _retreat_options(sections, units, dislodged_unit) -> DislodgedUnit:
    """What the preceding movement (PRESTATE_RESULTS) allows this unit."""
    occupied = {u.location.province for u in units}
    attacker, by_convoy, standoffs = None, False, set()
    results = []
    for line in sections.get("PRESTATE_RESULTS", []):
        verdict, rest = line.split(":", 1)
        results.append((verdict.strip(), read_order(split_power(rest)[1])))
    moved = {(o.unit.location.province, o.to.province) for v, o in results
             if v == "SUCCESS" and type(o).__name__ == "Move"}
    for verdict, order in results:
        to = getattr(order, "to", None)
        if type(order).__name__ != "Move":
            continue
        if verdict == "SUCCESS" and to.province == dislodged_unit.location.province:
            attacker = order.unit.location.province
            by_convoy = order.via_convoy or (order.unit.kind is not None and not order.unit.kind.moves_as_fleet
                                            and to.province not in BOARD.army_neighbours(attacker))
        head_to_head_lost = (to.province, order.unit.location.province) in moved
        if verdict == "FAILURE" and to.province not in occupied and not head_to_head_lost:
            standoffs.add(to.province)
    if dislodged_unit.kind.moves_as_fleet:
        steps = BOARD.fleet_neighbours(dislodged_unit.location)
    else:
        steps = [Location(p) for p in BOARD.army_neighbours(dislodged_unit.location.province)]
    blocked = occupied | standoffs | ({attacker} if attacker and not by_convoy else set())
    options = tuple(sorted((s for s in steps if s.province not in blocked), key=str))
    return DislodgedUnit(dislodged_unit, attacker or dislodged_unit.location.province, options)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['id']}#{i}" for i, c in enumerate(CASES)])
def test_datc_v24_case(case):
    s = case["sections"]
    phase = _phase(case.get("phase", "Spring 1901, Movement"))
    units = [read_unit(x) for x in s.get("PRESTATE", [])]
    dislodged = [_retreat_options(s, units, read_unit(x)) for x in s.get("PRESTATE_DISLODGED", [])]
    position = Position(phase, tuple(units), _owners(s), tuple(dislodged))
    orders: dict[str, list] = {}
    for line in s.get("ORDERS", []):
        power, text = split_power(line)
        orders.setdefault(power, []).append(read_order(text))
    result = adjudicate(VARIANT, position, orders, DATC_V24)
    after = result.position
    if "POSTSTATE_SAME" in s:
        want_units = sorted(map(str, units))
        want_dislodged: list[str] = []
    else:
        want_units = sorted(str(read_unit(x)) + " " + read_unit(x).power for x in s.get("POSTSTATE", []))
        want_units = sorted(w.rsplit(" ", 1)[0] for w in want_units)
        want_dislodged = sorted(str(read_unit(x)) for x in s.get("POSTSTATE_DISLODGED", []))
    got_units = sorted(map(str, after.units))
    # jDip lists only dislodged units that have somewhere to go
    got_dislodged = (sorted(str(d.unit) for d in after.dislodged if d.retreats)
                     if phase.kind is PhaseKind.MOVEMENT else [])
    assert (got_units, got_dislodged) == (want_units, want_dislodged)

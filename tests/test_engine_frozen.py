"""The frozen-spaces hook, tried on the standard map with the Barents Sea and Norway frozen in Spring."""
from __future__ import annotations

import json
from importlib import resources

from judge.engine import (Convoy, Hold, Location, Move, Position, SupportHold, SupportMove, Unit, UnitKind,
                          UnitRef, adjudicate, variant_from_data)
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.outcomes import Why

A, F = UnitKind.ARMY, UnitKind.FLEET


def frozen_variant():
    data = json.loads((resources.files("judge") / "variants" / "standard" / "variant.json").read_text())
    data["frozen"] = {"provinces": ["bar", "nwy"], "seasons": ["S"]}
    return variant_from_data(data)


V = frozen_variant()
SPRING = Phase(1901, 0, PhaseKind.MOVEMENT)
FALL = Phase(1901, 1, PhaseKind.MOVEMENT)


def ref(where):
    return UnitRef(Location.parse(where))


def outcome(result, where):
    return next(o for o in result.outcomes if o.order.unit.location.province == where and not o.by_judge)


def test_a_frozen_fleet_must_stand_and_cannot_support():
    position = Position(SPRING, (Unit("RUSSIA", F, Location("bar")), Unit("RUSSIA", A, Location("stp"))), {})
    result = adjudicate(V, position, {"RUSSIA": [Move(ref("bar"), Location("nwg")),
                                                 SupportHold(ref("bar"), ref("stp"))]})
    assert all(not o.succeeded and o.why is Why.FROZEN_FLEET and o.args == ("bar",)
               for o in result.outcomes if not o.by_judge)
    assert {str(u) for u in result.position.units} == {"F bar", "A stp"}


def test_nothing_frozen_is_dislodged_but_in_fall_it_is():
    units = (Unit("ENGLAND", A, Location("nwy")), Unit("RUSSIA", A, Location("swe")),
             Unit("RUSSIA", A, Location("fin")))
    attack = {"RUSSIA": [Move(ref("swe"), Location("nwy")), SupportMove(ref("fin"), ref("swe"), Location("nwy"))]}
    spring = adjudicate(V, Position(SPRING, units, {}), attack)
    assert not outcome(spring, "swe").succeeded and not spring.dislodged
    fall = adjudicate(V, Position(FALL, units, {}), attack)
    assert outcome(fall, "swe").succeeded and [d.unit.location.province for d in fall.dislodged] == ["nwy"]


def test_a_frozen_army_leaves_overland_but_not_by_convoy():
    units = (Unit("ENGLAND", A, Location("nwy")), Unit("ENGLAND", F, Location("nth")))
    by_sea = {"ENGLAND": [Move(ref("nwy"), Location("yor")), Convoy(ref("nth"), ref("nwy"), Location("yor"))]}
    result = adjudicate(V, Position(SPRING, units, {}), by_sea)
    assert (outcome(result, "nwy").why, outcome(result, "nwy").args) == (Why.FROZEN_ARMY, ("nwy",))
    overland = adjudicate(V, Position(SPRING, units, {}), {"ENGLAND": [Move(ref("nwy"), Location("swe")),
                                                                     Hold(ref("nth"))]})
    assert outcome(overland, "nwy").succeeded
